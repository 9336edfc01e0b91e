-- A sale's marketing banner and insert (spec 000 §3 `marketing.banner`, `marketing.insert`):
-- a message across the top of its catalog and a tile among its items, each a title and a
-- line of text; empty when the sale has none (app/src/catalog/store/sale.rs).
ALTER TABLE sales ADD COLUMN marketing_banner_title TEXT NOT NULL DEFAULT '';
ALTER TABLE sales ADD COLUMN marketing_banner_text TEXT NOT NULL DEFAULT '';
ALTER TABLE sales ADD COLUMN marketing_insert_title TEXT NOT NULL DEFAULT '';
ALTER TABLE sales ADD COLUMN marketing_insert_text TEXT NOT NULL DEFAULT '';
