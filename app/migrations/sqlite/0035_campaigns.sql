-- Voucher and promotion campaigns of the back office. A campaign has one `vouchers` row
-- per site it runs on (the cart, the vouchers page and checkout keep working on those);
-- its total limit is counted here, across its sites, with the same conditional update
-- as a voucher's own limit, so concurrent payments never spend it beyond the total.
-- `delivery`: code (typed in the cart), listed (on the vouchers page too) or automatic
-- (applied to every basket of its sites, no code to type).
CREATE TABLE voucher_campaigns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    delivery TEXT NOT NULL CHECK (delivery IN ('code', 'listed', 'automatic')),
    code TEXT NOT NULL,
    discount_type TEXT NOT NULL CHECK (discount_type IN ('FIXED', 'PERCENT')),
    scope TEXT NOT NULL CHECK (scope IN ('PRODUCT', 'SHIPPING')),
    value INTEGER NOT NULL CHECK (value > 0),
    per_member_limit INTEGER NOT NULL CHECK (per_member_limit > 0),
    total_limit INTEGER CHECK (total_limit IS NULL OR total_limit > 0),
    used_count INTEGER NOT NULL DEFAULT 0,
    valid_from INTEGER NOT NULL,
    valid_until INTEGER NOT NULL,
    stopped_at INTEGER,
    created_by INTEGER NOT NULL REFERENCES operators (id),
    created_at INTEGER NOT NULL,
    CHECK (total_limit IS NULL OR used_count <= total_limit),
    CHECK (valid_from < valid_until)
);

ALTER TABLE vouchers ADD COLUMN campaign_id INTEGER REFERENCES voucher_campaigns (id);
ALTER TABLE vouchers ADD COLUMN automatic INTEGER NOT NULL DEFAULT 0;
CREATE INDEX vouchers_campaign ON vouchers (campaign_id);
CREATE INDEX vouchers_automatic ON vouchers (site_id) WHERE automatic = 1;
