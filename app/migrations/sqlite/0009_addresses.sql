-- The address book (issue #12): each member's delivery addresses. Erasing a member erases
-- their addresses (ON DELETE CASCADE); nothing else refers to them, since orders keep copies.
CREATE TABLE member_addresses (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    details TEXT NOT NULL,
    extras TEXT NOT NULL DEFAULT '',
    zip_code TEXT NOT NULL,
    city TEXT NOT NULL,
    country TEXT NOT NULL,
    phone TEXT NOT NULL,
    is_favorite INTEGER NOT NULL DEFAULT 0 CHECK (is_favorite IN (0, 1)),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX member_addresses_member ON member_addresses (member_id, id);
-- At most one favourite per member, whatever two requests do at once.
CREATE UNIQUE INDEX member_addresses_one_favorite ON member_addresses (member_id) WHERE is_favorite = 1;

-- The delivery address of a paid order: a copy written with the order, so editing or
-- deleting the address later never changes what the order says it was delivered to.
CREATE TABLE order_addresses (
    order_id INTEGER PRIMARY KEY REFERENCES orders (id),
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    details TEXT NOT NULL,
    extras TEXT NOT NULL,
    zip_code TEXT NOT NULL,
    city TEXT NOT NULL,
    country TEXT NOT NULL,
    phone TEXT NOT NULL
);
