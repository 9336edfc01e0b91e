-- The operators' back office: operator accounts (not members), their second factor and
-- recovery codes, invitations, sessions, the audit log, and the history of every stock
-- change an operator makes. Sales can be archived (hidden from every member list) instead
-- of deleted: orders keep pointing at them.
CREATE TABLE operators (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    lang TEXT NOT NULL DEFAULT 'en',
    password_hash TEXT NOT NULL DEFAULT '',
    totp_secret TEXT NOT NULL DEFAULT '',
    totp_last_step INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
);

CREATE TABLE operator_recovery_codes (
    operator_id INTEGER NOT NULL REFERENCES operators (id),
    code_hash TEXT NOT NULL,
    used_at INTEGER,
    PRIMARY KEY (operator_id, code_hash)
);

CREATE TABLE operator_invites (
    token_hash TEXT PRIMARY KEY,
    operator_id INTEGER NOT NULL REFERENCES operators (id),
    expires_at INTEGER NOT NULL,
    used_at INTEGER
);

CREATE TABLE operator_sessions (
    token_hash TEXT PRIMARY KEY,
    operator_id INTEGER NOT NULL REFERENCES operators (id),
    xsrf TEXT NOT NULL,
    second_factor INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    ip TEXT NOT NULL DEFAULT ''
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);

CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    operator_id INTEGER,
    operator_email TEXT NOT NULL,
    action TEXT NOT NULL,
    object_kind TEXT NOT NULL,
    object_id TEXT NOT NULL,
    summary TEXT NOT NULL,
    ip TEXT NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_object ON audit_log (object_kind, object_id);

CREATE TABLE stock_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    option_id INTEGER NOT NULL REFERENCES product_options (id),
    at INTEGER NOT NULL,
    operator_id INTEGER,
    delta INTEGER NOT NULL,
    stock_after INTEGER NOT NULL,
    held INTEGER NOT NULL,
    sold INTEGER NOT NULL,
    reason TEXT NOT NULL
);
CREATE INDEX stock_history_option ON stock_history (option_id, at);

ALTER TABLE sales ADD COLUMN archived_at INTEGER;

-- The live sale-opening dashboard: when a member joined the waiting line (its longest
-- wait), and per sale and second the adds that held stock, the adds refused as sold out and the adds that failed,
-- summed by every instance (each flushes its own counts every few seconds), and the
-- sale's order lines found by sale for its payments per second.
ALTER TABLE checkout_line ADD COLUMN queued_at INTEGER NOT NULL DEFAULT 0;

CREATE TABLE sale_opening_counters (
    sale_id INTEGER NOT NULL,
    second INTEGER NOT NULL,
    added INTEGER NOT NULL DEFAULT 0,
    refused INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (sale_id, second)
);
CREATE INDEX order_items_sale ON order_items (sale_id);

-- The feed import's own ids: a feed names its sales, products and options by its own
-- references, so importing a feed twice changes nothing and an edited feed updates in place.
CREATE TABLE feed_refs (
    kind TEXT NOT NULL,
    feed_ref TEXT NOT NULL,
    id INTEGER NOT NULL,
    PRIMARY KEY (kind, feed_ref)
);

-- Product pictures uploaded in the back office, in the database so that every instance
-- reads them: the original as sent (checked by decoding it), and each width a page asks
-- for, made once on first request and kept (WebP, and JPEG for browsers without WebP).
ALTER TABLE products ADD COLUMN image_id INTEGER;

CREATE TABLE product_images (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    product_id INTEGER NOT NULL REFERENCES products (id),
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    original BLOB NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE product_image_variants (
    image_id INTEGER NOT NULL REFERENCES product_images (id),
    width INTEGER NOT NULL,
    format TEXT NOT NULL,
    bytes BLOB NOT NULL,
    PRIMARY KEY (image_id, width, format)
);
