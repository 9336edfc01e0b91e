-- Wallet, communication preferences, vouchers and promotions (issue #12). A member's rows
-- here go with the member (erasure): every member reference cascades.

-- Bank details: one account per member. The IBAN is sealed (XChaCha20-Poly1305, key
-- outside the database) with its nonce; only its country and last four characters are
-- kept in clear, for the masked display.
CREATE TABLE member_bank_details (
    guid TEXT PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    iban_nonce BLOB NOT NULL,
    iban_sealed BLOB NOT NULL,
    iban_country TEXT NOT NULL,
    iban_length INTEGER NOT NULL,
    iban_last4 TEXT NOT NULL,
    bic TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX member_bank_details_member ON member_bank_details (member_id);

-- Cards the payment provider keeps for the member: its token and the last four digits.
CREATE TABLE member_payment_methods (
    guid TEXT PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    token TEXT NOT NULL,
    brand TEXT NOT NULL,
    last4 TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX member_payment_methods_token ON member_payment_methods (member_id, provider, token);

-- Channel and frequency of the member's newsletters (no row: derived from the e-mail opt-in).
CREATE TABLE member_communications (
    member_id INTEGER PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
    channel TEXT NOT NULL CHECK (channel IN ('ALL', 'MAIL', 'PUSH')),
    model TEXT NOT NULL CHECK (model IN ('ALL', 'REGULARLY', 'FEWER', 'ONEPERWEEK', 'NONE')),
    updated_at INTEGER NOT NULL
);

-- Every consent given or withdrawn, with its time (GDPR art. 7(1): the shop must be able to
-- show what the member agreed to, and when they took it back).
CREATE TABLE member_consent_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    consent TEXT NOT NULL,
    granted INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX member_consent_events_member ON member_consent_events (member_id, created_at);

-- Commercial partners a member may let the shop share data with. Partner 1 is the data
-- partner of the onboarding banner (members.adot_optin), so that answer can be withdrawn here.
CREATE TABLE commercial_partners (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    purpose_key TEXT NOT NULL
);
INSERT INTO commercial_partners (id, name, purpose_key) VALUES
    (1, 'Adot', 'communications.partner.purpose.data'),
    (2, 'Rosace Voyages', 'communications.partner.purpose.travel'),
    (3, 'Rosace Pass', 'communications.partner.purpose.loyalty');

CREATE TABLE member_commercial_partners (
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    partner_id INTEGER NOT NULL REFERENCES commercial_partners (id),
    status INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (member_id, partner_id)
);

-- The member's newsletter subscription, which the cancel survey refers to.
CREATE TABLE member_subscriptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    cancel_reason_id INTEGER,
    cancelled_at INTEGER,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX member_subscriptions_kind ON member_subscriptions (member_id, kind);

CREATE TABLE subscription_cancel_reasons (
    id INTEGER PRIMARY KEY,
    label_key TEXT NOT NULL,
    sort_order INTEGER NOT NULL
);
INSERT INTO subscription_cancel_reasons (id, label_key, sort_order) VALUES
    (1, 'communications.reason.too_many', 1),
    (2, 'communications.reason.not_relevant', 2),
    (3, 'communications.reason.other_channel', 3),
    (4, 'communications.reason.leaving', 4),
    (5, 'communications.reason.other', 5);

-- Brands whose new sales the member wants to hear about.
CREATE TABLE brand_alerts (
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    brand_id INTEGER NOT NULL REFERENCES brands (id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (member_id, brand_id)
);

-- Vouchers of one member (`personal`: only members holding a participation may use the
-- code) and validity windows; a participation is the member's copy of a voucher.
ALTER TABLE vouchers ADD COLUMN personal INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vouchers ADD COLUMN valid_from INTEGER;
ALTER TABLE vouchers ADD COLUMN valid_until INTEGER;

CREATE TABLE voucher_participations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    voucher_id INTEGER NOT NULL REFERENCES vouchers (id),
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX voucher_participations_member ON voucher_participations (member_id, voucher_id);

-- A print link shows the basket's vouchers or the account's.
ALTER TABLE voucher_prints ADD COLUMN scope TEXT NOT NULL DEFAULT 'basket';
