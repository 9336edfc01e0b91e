-- Landing pages' translations (issue #15, hreflang): a key shared by the same landing page
-- on the brand's sites, in their languages (slugs differ per language). Empty: a page with
-- no known translation, its hreflang alternates name only itself.
ALTER TABLE landing_pages ADD COLUMN translation_key TEXT NOT NULL DEFAULT '';
CREATE INDEX landing_pages_translation ON landing_pages (translation_key);
