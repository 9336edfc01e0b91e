-- Favourite items per member.
CREATE TABLE favourites (
    member_id BIGINT NOT NULL REFERENCES members (id),
    product_id BIGINT NOT NULL REFERENCES products (id),
    sale_id BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (member_id, product_id)
);
