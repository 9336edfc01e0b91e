-- Cart, held stock, orders, payments, vouchers (issue #5). Stock of an option:
-- available = stock - held - sold; held and sold never exceed stock.
ALTER TABLE product_options ADD COLUMN held BIGINT NOT NULL DEFAULT 0 CHECK (held >= 0);
ALTER TABLE product_options ADD COLUMN sold BIGINT NOT NULL DEFAULT 0 CHECK (sold >= 0);
ALTER TABLE product_options ADD CONSTRAINT product_options_not_oversold CHECK (held + sold <= stock);

-- One cart per member: its type, frozen state (with the cart hash), loyalty item, notices.
CREATE TABLE carts (
    member_id BIGINT PRIMARY KEY REFERENCES members (id),
    site_id BIGINT NOT NULL,
    cart_type TEXT,
    status TEXT NOT NULL DEFAULT 'open',
    cart_hash TEXT,
    loyalty_product_id BIGINT,
    expired_notice BIGINT NOT NULL DEFAULT 0,
    version BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
);

-- A cart line holds its quantity of the option until expires_at.
CREATE TABLE cart_items (
    member_id BIGINT NOT NULL REFERENCES members (id),
    option_id BIGINT NOT NULL REFERENCES product_options (id),
    product_id BIGINT NOT NULL,
    sale_id BIGINT NOT NULL,
    quantity BIGINT NOT NULL CHECK (quantity > 0),
    origin TEXT,
    bundle_id TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (member_id, option_id)
);
CREATE INDEX cart_items_expiry ON cart_items (expires_at);

-- Lines released by expiry ('expired') or put aside ('suspended'), for recover.
CREATE TABLE cart_recovery (
    member_id BIGINT NOT NULL REFERENCES members (id),
    option_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    quantity BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (member_id, option_id, kind)
);

CREATE TABLE vouchers (
    id BIGSERIAL PRIMARY KEY,
    site_id BIGINT NOT NULL,
    code TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'voucher',
    discount_type TEXT NOT NULL CHECK (discount_type IN ('FIXED', 'PERCENT')),
    scope TEXT NOT NULL CHECK (scope IN ('PRODUCT', 'SHIPPING')),
    value BIGINT NOT NULL CHECK (value >= 0),
    per_member_limit BIGINT NOT NULL DEFAULT 1,
    total_limit BIGINT,
    used_count BIGINT NOT NULL DEFAULT 0,
    CHECK (total_limit IS NULL OR used_count <= total_limit)
);
CREATE UNIQUE INDEX vouchers_site_code ON vouchers (site_id, code);

CREATE TABLE cart_vouchers (
    member_id BIGINT NOT NULL REFERENCES members (id),
    voucher_id BIGINT NOT NULL REFERENCES vouchers (id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (member_id, voucher_id)
);

-- Paid orders; the cart hash is the idempotency key of the payment.
CREATE TABLE orders (
    id BIGSERIAL PRIMARY KEY,
    member_id BIGINT NOT NULL REFERENCES members (id),
    site_id BIGINT NOT NULL,
    idempotency_key TEXT NOT NULL,
    status TEXT NOT NULL,
    cart_type TEXT NOT NULL,
    subtotal BIGINT NOT NULL,
    discount BIGINT NOT NULL,
    shipping BIGINT NOT NULL,
    loyalty BIGINT NOT NULL,
    total BIGINT NOT NULL,
    currency TEXT NOT NULL,
    payment_reference TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX orders_idempotency ON orders (idempotency_key);
CREATE INDEX orders_member ON orders (member_id, created_at);

CREATE TABLE order_items (
    order_id BIGINT NOT NULL REFERENCES orders (id),
    option_id BIGINT NOT NULL,
    product_id BIGINT NOT NULL,
    sale_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    option_label TEXT NOT NULL,
    quantity BIGINT NOT NULL,
    unit_price BIGINT NOT NULL,
    PRIMARY KEY (order_id, option_id)
);

CREATE TABLE voucher_redemptions (
    order_id BIGINT NOT NULL REFERENCES orders (id),
    voucher_id BIGINT NOT NULL REFERENCES vouchers (id),
    member_id BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    PRIMARY KEY (order_id, voucher_id)
);
CREATE INDEX voucher_redemptions_member ON voucher_redemptions (voucher_id, member_id);

-- Every payment attempt and its result (declined ones too).
CREATE TABLE payments (
    id BIGSERIAL PRIMARY KEY,
    member_id BIGINT NOT NULL,
    cart_hash TEXT NOT NULL,
    amount BIGINT NOT NULL,
    status TEXT NOT NULL,
    reference TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX payments_hash ON payments (cart_hash);

CREATE TABLE voucher_prints (
    token_hash TEXT PRIMARY KEY,
    member_id BIGINT NOT NULL REFERENCES members (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
