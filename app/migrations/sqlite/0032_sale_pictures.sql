-- A sale's banner and logo uploaded in the back office, kept and served as product
-- pictures are (the original, and each width made once on first request). NULL: the
-- shop's drawn picture of the sale.
CREATE TABLE sale_pictures (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sale_id INTEGER NOT NULL REFERENCES sales (id),
    kind TEXT NOT NULL CHECK (kind IN ('banner', 'logo')),
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    original BLOB NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE sale_picture_variants (
    picture_id INTEGER NOT NULL REFERENCES sale_pictures (id),
    width INTEGER NOT NULL,
    format TEXT NOT NULL,
    bytes BLOB NOT NULL,
    PRIMARY KEY (picture_id, width, format)
);

ALTER TABLE sales ADD COLUMN banner_image_id INTEGER REFERENCES sale_pictures (id);
ALTER TABLE sales ADD COLUMN logo_image_id INTEGER REFERENCES sale_pictures (id);
