-- Members: profile fields, lockout, single-use cyphers, auth events; sessions keyed by a
-- token hash with idle and absolute expiry.
ALTER TABLE members ADD COLUMN birth_date TEXT;
ALTER TABLE members ADD COLUMN zip_code TEXT NOT NULL DEFAULT '';
ALTER TABLE members ADD COLUMN city TEXT NOT NULL DEFAULT '';
ALTER TABLE members ADD COLUMN optin_partner INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN sponsor_code TEXT NOT NULL DEFAULT '';
ALTER TABLE members ADD COLUMN failed_logins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN locked_until INTEGER NOT NULL DEFAULT 0;

DROP TABLE sessions;
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id),
    remember INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    idle_expires_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_member ON sessions (member_id);

CREATE TABLE member_cyphers (
    cypher_hash TEXT PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id),
    kind TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
);
CREATE INDEX member_cyphers_member ON member_cyphers (member_id, kind);

CREATE TABLE auth_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL,
    member_id INTEGER,
    kind TEXT NOT NULL,
    client_key TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
