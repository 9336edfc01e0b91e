-- Rose deals (issue #14): a product of a ROSEDEAL sale sells a partner brand's voucher.
-- Paying an order issues one voucher per unit (in the checkout's transaction); a refund
-- is one row per order (its primary key is what makes a refund happen once); a retry
-- voids named vouchers and issues new codes (generation + 1). Rows hang off orders, as
-- an order's lines do.
CREATE TABLE rosedeal_deals (
    product_id INTEGER PRIMARY KEY REFERENCES products (id),
    partner TEXT NOT NULL,
    face_value INTEGER NOT NULL CHECK (face_value > 0),
    validity_days INTEGER NOT NULL CHECK (validity_days > 0)
);

CREATE TABLE rosedeal_vouchers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    product_id INTEGER NOT NULL,
    unit INTEGER NOT NULL,
    generation INTEGER NOT NULL DEFAULT 0,
    code TEXT NOT NULL,
    partner TEXT NOT NULL,
    face_value INTEGER NOT NULL,
    price INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    -- active, used, void
    status TEXT NOT NULL DEFAULT 'active',
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX rosedeal_vouchers_code ON rosedeal_vouchers (code);
CREATE UNIQUE INDEX rosedeal_vouchers_unit ON rosedeal_vouchers (order_id, product_id, unit, generation);

CREATE TABLE rosedeal_refunds (
    order_id INTEGER PRIMARY KEY REFERENCES orders (id),
    amount INTEGER NOT NULL,
    iban_masked TEXT NOT NULL,
    address_json TEXT NOT NULL,
    content TEXT NOT NULL,
    is_suspended INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE rosedeal_retries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    vouchers_json TEXT NOT NULL,
    address_json TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- A contact message about vouchers of an order; `request_id` is what rmi attaches to.
CREATE TABLE rosedeal_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    request_id TEXT NOT NULL,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    vouchers_json TEXT NOT NULL,
    address_json TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX rosedeal_messages_request ON rosedeal_messages (request_id);

CREATE TABLE rosedeal_attachments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id INTEGER NOT NULL REFERENCES rosedeal_messages (id),
    name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    data BLOB NOT NULL,
    created_at INTEGER NOT NULL
);
