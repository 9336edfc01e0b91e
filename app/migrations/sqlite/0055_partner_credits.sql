-- What partners brought (app/src/auth/attribution/partner.rs): a sign-in made within the
-- hour of a partner's visit (the member's, erased with the account) and an order paid
-- within 30 days of a partner's last click (kept with the order, which accounting keeps;
-- no member id: the order has it). Registrations keep their partner in member_attribution.
CREATE TABLE partner_credits (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL,
    partner TEXT NOT NULL,
    kind TEXT NOT NULL,
    member_id INTEGER REFERENCES members (id),
    order_id INTEGER REFERENCES orders (id),
    amount INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE INDEX partner_credits_site_created ON partner_credits (site_id, created_at);
CREATE UNIQUE INDEX partner_credits_order ON partner_credits (order_id);
