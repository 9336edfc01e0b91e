-- An operation's own selection (spec 000 §3 "Operation: code, products, universes with
-- subUniverses"): products chosen across the site's sales, shown on the operation's page
-- /operation/{code}/selection, grouped by their universes. The operation lands there
-- while any of them is on sale, else on its sale or home as before. No foreign key on the
-- product: a product that leaves the catalogue simply drops out of the selection.
ALTER TABLE operations ADD COLUMN title TEXT NOT NULL DEFAULT '';
CREATE TABLE operation_products (
    operation_id BIGINT NOT NULL REFERENCES operations (id),
    product_id BIGINT NOT NULL,
    position BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (operation_id, product_id)
);
