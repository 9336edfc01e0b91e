-- Landing pages (issue #15, spec 000 §2 "/l/..." SEO variant, §3 seoConfig): per site, a
-- slug, the seoConfig (title, description, footer paragraphs), content blocks and the
-- selection the page shows (live sales of an offer type, or a brand's items).
CREATE TABLE landing_pages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL,
    slug TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0,
    heading TEXT NOT NULL,
    seo_title TEXT NOT NULL,
    seo_description TEXT NOT NULL,
    blocks TEXT NOT NULL,
    footer_paragraphs TEXT NOT NULL,
    selection_kind TEXT NOT NULL,
    selection_value TEXT NOT NULL DEFAULT '',
    selection_limit INTEGER NOT NULL DEFAULT 8,
    UNIQUE (site_id, slug)
);
