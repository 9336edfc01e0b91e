-- Travel (issue #11): destinations, offers and their configurator, a seasonal price
-- calendar, departures with places (held + sold never exceed places, as for product
-- stock), bookings and the last-viewed list. Replaces the first sketch of the tables.
DROP TABLE travel_calendar;
DROP TABLE travel_durations;
DROP TABLE travel_departure_cities;
DROP TABLE travel_packages;

CREATE TABLE travel_destinations (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    folded TEXT NOT NULL,
    parent_id INTEGER REFERENCES travel_destinations (id)
);
CREATE INDEX travel_destinations_site ON travel_destinations (site_id, kind);

CREATE TABLE travel_offers (
    product_id INTEGER PRIMARY KEY REFERENCES products (id),
    destination_id INTEGER NOT NULL REFERENCES travel_destinations (id),
    lat_e6 INTEGER NOT NULL,
    lng_e6 INTEGER NOT NULL,
    trip_type TEXT NOT NULL,
    board TEXT NOT NULL,
    accommodation_type TEXT NOT NULL,
    rating INTEGER NOT NULL,
    transport TEXT NOT NULL,
    thematics TEXT NOT NULL,
    payment_facilities TEXT NOT NULL,
    notorious_brand INTEGER NOT NULL DEFAULT 0,
    benefit TEXT,
    bullet_points TEXT NOT NULL,
    tabs_json TEXT NOT NULL,
    price_unit TEXT NOT NULL,
    price_prefix TEXT NOT NULL,
    lowest_30d_cents INTEGER NOT NULL,
    party_min INTEGER NOT NULL,
    party_max INTEGER NOT NULL,
    party_rules_json TEXT NOT NULL,
    profiles_json TEXT NOT NULL,
    default_package_id INTEGER,
    default_city_code TEXT,
    default_days INTEGER,
    default_nights INTEGER
);
CREATE INDEX travel_offers_destination ON travel_offers (destination_id);

CREATE TABLE travel_packages (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES products (id),
    title TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0,
    with_benefits INTEGER NOT NULL DEFAULT 0,
    with_departure_dates INTEGER NOT NULL DEFAULT 1,
    with_durations INTEGER NOT NULL DEFAULT 1,
    with_departure_cities INTEGER NOT NULL DEFAULT 1,
    with_participants INTEGER NOT NULL DEFAULT 1,
    with_cheapest_toggle INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX travel_packages_product ON travel_packages (product_id);

CREATE TABLE travel_benefits (
    id INTEGER PRIMARY KEY,
    package_id INTEGER NOT NULL REFERENCES travel_packages (id),
    label TEXT NOT NULL,
    price_cents INTEGER NOT NULL,
    min_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX travel_benefits_package ON travel_benefits (package_id);

CREATE TABLE travel_departure_cities (
    id INTEGER PRIMARY KEY,
    package_id INTEGER NOT NULL REFERENCES travel_packages (id),
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX travel_cities_package ON travel_departure_cities (package_id);

CREATE TABLE travel_durations (
    id INTEGER PRIMARY KEY,
    city_id INTEGER NOT NULL REFERENCES travel_departure_cities (id),
    days INTEGER NOT NULL,
    nights INTEGER NOT NULL,
    supplement_cents INTEGER NOT NULL
);
CREATE INDEX travel_durations_city ON travel_durations (city_id);

-- Prices and places by season: departures on the season's weekdays (bit 0 Monday ...
-- bit 6 Sunday) between first_day and last_day; a day's price adds the duration's
-- supplement and a weekend surcharge (travel::rules).
CREATE TABLE travel_seasons (
    id INTEGER PRIMARY KEY,
    city_id INTEGER NOT NULL REFERENCES travel_departure_cities (id),
    first_day TEXT NOT NULL,
    last_day TEXT NOT NULL,
    weekdays INTEGER NOT NULL,
    price_cents INTEGER NOT NULL,
    reference_price_cents INTEGER NOT NULL,
    places INTEGER NOT NULL CHECK (places >= 0)
);
CREATE INDEX travel_seasons_city ON travel_seasons (city_id, first_day);

-- A departure's row exists once someone reserved it (or the demo sold it out).
CREATE TABLE travel_departures (
    duration_id INTEGER NOT NULL REFERENCES travel_durations (id),
    day TEXT NOT NULL,
    places INTEGER NOT NULL CHECK (places >= 0),
    held INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0),
    sold INTEGER NOT NULL DEFAULT 0 CHECK (sold >= 0 AND held + sold <= places),
    PRIMARY KEY (duration_id, day)
);

CREATE TABLE travel_bookings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members (id),
    site_id INTEGER NOT NULL,
    product_id INTEGER NOT NULL REFERENCES products (id),
    duration_id INTEGER NOT NULL REFERENCES travel_durations (id),
    day TEXT NOT NULL,
    places INTEGER NOT NULL CHECK (places > 0),
    status TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    total_cents INTEGER NOT NULL,
    currency TEXT NOT NULL,
    participants_json TEXT NOT NULL,
    benefits_json TEXT NOT NULL,
    order_id INTEGER REFERENCES orders (id),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX travel_bookings_member ON travel_bookings (member_id, status);
CREATE INDEX travel_bookings_expiry ON travel_bookings (status, expires_at);

CREATE TABLE travel_last_viewed (
    member_id INTEGER NOT NULL REFERENCES members (id),
    product_id INTEGER NOT NULL REFERENCES products (id),
    viewed_at INTEGER NOT NULL,
    PRIMARY KEY (member_id, product_id)
);
CREATE INDEX travel_last_viewed_member ON travel_last_viewed (member_id, viewed_at);
