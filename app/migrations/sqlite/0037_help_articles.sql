-- The help articles as customer care edited them, per site language. An article with no
-- row here reads from the text bundled with the build (app/src/help/kb/<lang>.json);
-- "back to the original text" deletes its row. `version` counts the writes made to the
-- article (also across a restore: server/src/backoffice/help/store.rs), so a form showing
-- an older one is refused instead of overwriting a colleague's text.
CREATE TABLE help_articles (
    lang TEXT NOT NULL,
    article_id TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    version INTEGER NOT NULL,
    updated_by INTEGER NOT NULL REFERENCES operators (id),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (lang, article_id)
);
