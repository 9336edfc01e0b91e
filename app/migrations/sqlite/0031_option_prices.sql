-- An option's own price, retail price and picture (coverage P9): NULL means the product's.
-- Checked as the product's are; the retail price is never below the price it strikes
-- through (the back office and the feed check that pair against the product's too).
ALTER TABLE product_options ADD COLUMN price_cents INTEGER CHECK (price_cents >= 0);
ALTER TABLE product_options ADD COLUMN retail_price_cents INTEGER CHECK (retail_price_cents >= 0);
ALTER TABLE product_options ADD COLUMN image_id INTEGER REFERENCES product_images (id);
