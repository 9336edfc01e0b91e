-- Marketing entry points (issue #15): operations (a marketing code that lands on a sale
-- or a home, per site, in a validity window), each member's sponsorship code, and who
-- sponsored whom. A sponsorship is rewarded once: `rewarded_order_id` is set by a
-- conditional update in the paid order's transaction, with the voucher it issued.
CREATE TABLE operations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL,
    code TEXT NOT NULL,
    target_kind TEXT NOT NULL CHECK (target_kind IN ('sale', 'home')),
    target TEXT NOT NULL,
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX operations_site_code ON operations (site_id, code);

CREATE TABLE sponsor_codes (
    member_id INTEGER PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX sponsor_codes_code ON sponsor_codes (code);

CREATE TABLE sponsorships (
    sponsored_id INTEGER PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
    sponsor_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    rewarded_order_id INTEGER,
    reward_voucher_id INTEGER,
    rewarded_at INTEGER
);
CREATE INDEX sponsorships_sponsor ON sponsorships (sponsor_id, created_at);
