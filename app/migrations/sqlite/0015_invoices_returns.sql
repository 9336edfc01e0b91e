-- After the sale (issue #14): invoices, returns and marketplace order messages. None of these
-- tables has a member column: each belongs to an order, which belongs to its member.

-- Invoice numbers RS-<year>-<nnnnnn>: one counter per year, taken in the transaction that
-- gives an order its invoice, so a number is never used twice and has no gap.
CREATE TABLE invoice_sequences (
    year INTEGER PRIMARY KEY,
    last_value INTEGER NOT NULL
);

-- One invoice per order. `number` is NULL only inside the transaction that claims the row
-- (a concurrent request for the same order waits on the claim, then reads the number).
CREATE TABLE invoices (
    order_id INTEGER PRIMARY KEY REFERENCES orders (id),
    number TEXT,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX invoices_number ON invoices (number);

-- A return request: which order, why, through which channel ('shop' or 'marketplace').
CREATE TABLE returns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    channel TEXT NOT NULL,
    reason_id TEXT NOT NULL,
    sub_reason_id TEXT,
    comment TEXT,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX returns_order ON returns (order_id, id);

-- The order lines a return asks for. `open` is 1 until the return is settled: one open
-- return per order line, held by the unique index even against concurrent requests.
CREATE TABLE return_lines (
    return_id INTEGER NOT NULL REFERENCES returns (id),
    order_id INTEGER NOT NULL REFERENCES orders (id),
    option_id INTEGER NOT NULL,
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    open INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (return_id, option_id)
);
CREATE UNIQUE INDEX return_lines_one_open ON return_lines (order_id, option_id) WHERE open = 1;

-- Messages a member sends the marketplace seller about an order.
CREATE TABLE marketplace_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    reason_id TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX marketplace_messages_order ON marketplace_messages (order_id, id);
