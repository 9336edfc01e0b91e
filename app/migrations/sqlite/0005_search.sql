-- Recent search queries per member (issue #4): the last 10 distinct ones are kept.
CREATE TABLE search_queries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members (id),
    site_id INTEGER NOT NULL,
    query TEXT NOT NULL,
    query_key TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX search_queries_member_key ON search_queries (member_id, site_id, query_key);
CREATE INDEX search_queries_member_recent ON search_queries (member_id, site_id, created_at);
