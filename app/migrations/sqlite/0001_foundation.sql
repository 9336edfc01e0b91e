-- Catalog, homes, travel, members, sessions, DSA reports, rate limits (SQLite).
CREATE TABLE app_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE brands (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT NOT NULL
);

CREATE TABLE sales (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    offer_type TEXT NOT NULL,
    campaign_kind TEXT NOT NULL DEFAULT 'DEFAULT',
    catalog_type INTEGER NOT NULL DEFAULT 1,
    seller_kind TEXT NOT NULL DEFAULT 'fs',
    tier TEXT NOT NULL DEFAULT 'ORDINARY',
    description TEXT NOT NULL,
    legal_merchant TEXT NOT NULL DEFAULT '',
    legal_terms TEXT NOT NULL DEFAULT '',
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    with_quotation_price INTEGER NOT NULL DEFAULT 0,
    with_map INTEGER NOT NULL DEFAULT 0,
    position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sales_site_live ON sales (site_id, campaign_kind, ends_at);

CREATE TABLE universes (
    id INTEGER PRIMARY KEY,
    sale_id INTEGER NOT NULL REFERENCES sales (id),
    parent_id INTEGER REFERENCES universes (id),
    title TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX universes_sale ON universes (sale_id);

CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    sale_id INTEGER NOT NULL REFERENCES sales (id),
    universe_id INTEGER NOT NULL REFERENCES universes (id),
    brand_id INTEGER REFERENCES brands (id),
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    color TEXT NOT NULL DEFAULT '',
    description_html TEXT NOT NULL DEFAULT '',
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    retail_price_cents INTEGER NOT NULL CHECK (retail_price_cents >= 0),
    delivery_mode INTEGER NOT NULL DEFAULT 0,
    tier TEXT NOT NULL DEFAULT 'ORDINARY',
    seller_kind TEXT NOT NULL DEFAULT 'fs',
    item_type INTEGER NOT NULL DEFAULT 1,
    lat_e6 INTEGER,
    lng_e6 INTEGER,
    position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX products_sale ON products (sale_id, universe_id);

CREATE TABLE product_options (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES products (id),
    kind TEXT NOT NULL DEFAULT 'size',
    label TEXT NOT NULL,
    stock INTEGER NOT NULL CHECK (stock >= 0),
    position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX product_options_product ON product_options (product_id);

CREATE TABLE homes (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    display_name TEXT NOT NULL,
    type TEXT NOT NULL DEFAULT 'DEFAULT',
    is_reduced INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX homes_site_name ON homes (site_id, name);

CREATE TABLE home_modules (
    id INTEGER PRIMARY KEY,
    home_id INTEGER NOT NULL REFERENCES homes (id),
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    settings TEXT NOT NULL DEFAULT '{}',
    position INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE banners (
    id INTEGER PRIMARY KEY,
    module_id INTEGER NOT NULL REFERENCES home_modules (id),
    kind TEXT NOT NULL,
    sale_id INTEGER REFERENCES sales (id),
    title TEXT NOT NULL DEFAULT '',
    image_url TEXT NOT NULL DEFAULT '',
    mobile_image_url TEXT NOT NULL DEFAULT '',
    link TEXT NOT NULL DEFAULT '',
    tile_size TEXT NOT NULL DEFAULT 'M',
    layout TEXT NOT NULL DEFAULT '1x1',
    position INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE travel_packages (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES products (id),
    title TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE travel_departure_cities (
    id INTEGER PRIMARY KEY,
    package_id INTEGER NOT NULL REFERENCES travel_packages (id),
    code TEXT NOT NULL,
    name TEXT NOT NULL
);

CREATE TABLE travel_durations (
    id INTEGER PRIMARY KEY,
    city_id INTEGER NOT NULL REFERENCES travel_departure_cities (id),
    days INTEGER NOT NULL,
    nights INTEGER NOT NULL,
    price_cents INTEGER NOT NULL
);

CREATE TABLE travel_calendar (
    city_id INTEGER NOT NULL REFERENCES travel_departure_cities (id),
    day TEXT NOT NULL,
    price_cents INTEGER NOT NULL,
    reference_price_cents INTEGER NOT NULL,
    stock INTEGER NOT NULL CHECK (stock >= 0),
    PRIMARY KEY (city_id, day)
);

CREATE TABLE members (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL,
    email TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    civility INTEGER NOT NULL DEFAULT 0,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    status INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX members_site_email ON members (site_id, email);

CREATE TABLE sessions (
    token TEXT PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id),
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_member ON sessions (member_id);

CREATE TABLE dsa_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL,
    sale_id INTEGER,
    product_id INTEGER,
    made_as INTEGER NOT NULL,
    concerns TEXT NOT NULL,
    description TEXT NOT NULL,
    last_name TEXT NOT NULL,
    denomination TEXT NOT NULL,
    copyright_reg_number TEXT NOT NULL,
    copyright_report_number TEXT NOT NULL,
    reg_office TEXT NOT NULL,
    email TEXT NOT NULL,
    agreement_seller_partner INTEGER NOT NULL,
    client_key TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE dsa_report_files (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    report_id INTEGER NOT NULL REFERENCES dsa_reports (id),
    file_name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    data BLOB NOT NULL
);

CREATE TABLE rate_limits (
    bucket TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    hits INTEGER NOT NULL,
    PRIMARY KEY (bucket, window_start)
);
