-- An option's own price, retail price and picture (coverage P9): NULL means the product's.
-- Checked as the product's are; the retail price is never below the price it strikes
-- through (the back office and the feed check that pair against the product's too).
ALTER TABLE product_options ADD COLUMN price_cents BIGINT CHECK (price_cents >= 0);
ALTER TABLE product_options ADD COLUMN retail_price_cents BIGINT CHECK (retail_price_cents >= 0);
ALTER TABLE product_options ADD COLUMN image_id BIGINT REFERENCES product_images (id);
