-- Bundles (spec 000 §5 cart context `bundle_id`, §7 "bundle price" and "carousel";
-- app/src/product/bundle.rs): products of one sale sold together, each in the size the
-- member picks, added to the cart in one go. The item of type 7 (Carrousel) in a sale's
-- list shows the products of its bundle as a strip of pictures.
CREATE TABLE bundles (
    id INTEGER PRIMARY KEY,
    sale_id INTEGER NOT NULL REFERENCES sales (id)
);
CREATE TABLE bundle_items (
    bundle_id INTEGER NOT NULL REFERENCES bundles (id),
    product_id INTEGER NOT NULL REFERENCES products (id),
    position INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (bundle_id, product_id)
);
CREATE INDEX bundle_items_product ON bundle_items (product_id);
