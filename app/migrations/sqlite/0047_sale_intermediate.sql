-- A sale's intermediate step (spec 000 §3 "Sale / campaign": legal.productsListingCgu and
-- the sale state's hasAcceptedIntermediate and hasCanceledCart; app/src/catalog/gate.rs):
-- conditions of the sale's listing that a member accepts once before its catalog, empty
-- for a sale without them; and, per member and sale, when they accepted them and when
-- they emptied a cart of another kind to shop there. Each time is set once, never undone.
ALTER TABLE sales ADD COLUMN products_listing_cgu TEXT NOT NULL DEFAULT '';
CREATE TABLE sale_member_states (
    member_id INTEGER NOT NULL REFERENCES members (id),
    sale_id INTEGER NOT NULL REFERENCES sales (id),
    accepted_intermediate_at INTEGER,
    canceled_cart_at INTEGER,
    PRIMARY KEY (member_id, sale_id)
);
