-- Favourite items per member.
CREATE TABLE favourites (
    member_id INTEGER NOT NULL REFERENCES members (id),
    product_id INTEGER NOT NULL REFERENCES products (id),
    sale_id INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (member_id, product_id)
);
