-- A sale catalog's SEO settings (spec 000 §3 catalog search `seoConfig {title, description,
-- footerParagraphs}`), set in the back office: the page's title and description where
-- the generated ones will not do, and paragraphs under the catalog (separated by a blank
-- line). Empty: the generated title and description, no paragraph.
ALTER TABLE sales ADD COLUMN seo_title TEXT NOT NULL DEFAULT '';
ALTER TABLE sales ADD COLUMN seo_description TEXT NOT NULL DEFAULT '';
ALTER TABLE sales ADD COLUMN seo_footer TEXT NOT NULL DEFAULT '';
