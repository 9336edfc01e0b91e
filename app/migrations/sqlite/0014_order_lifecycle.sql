-- Orders move through the statuses of spec 001 §3 after payment (issue #14). Each change is
-- an event, kept in order, so the order detail shows a timeline; a change the member should
-- hear of is also a notification in the message centre (the header bell counts the unread).
ALTER TABLE orders ADD COLUMN tracking_number TEXT;

CREATE TABLE order_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    status TEXT NOT NULL,
    note TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX order_events_order ON order_events (order_id, id);

-- Orders paid before this migration start their timeline at their payment.
INSERT INTO order_events (order_id, status, created_at)
SELECT id, status, created_at FROM orders;

-- kind 'order': an order reached `status`; kind 'ticket': support answered ticket `ticket_id`.
CREATE TABLE notifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members (id),
    kind TEXT NOT NULL,
    order_id INTEGER,
    ticket_id INTEGER,
    status TEXT,
    created_at INTEGER NOT NULL,
    read_at INTEGER
);
CREATE INDEX notifications_member ON notifications (member_id, id);
