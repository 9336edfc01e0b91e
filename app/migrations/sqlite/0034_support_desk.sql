-- Customer care's side of the tickets: who works a ticket, and a version every change
-- bumps, so an operator acting on a ticket another person changed meanwhile is told
-- instead of overwriting it. Saved replies, per language.
ALTER TABLE help_tickets ADD COLUMN assignee_id INTEGER REFERENCES operators (id);
ALTER TABLE help_tickets ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
CREATE INDEX help_tickets_status ON help_tickets (status, updated_at);

CREATE TABLE saved_replies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lang TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
