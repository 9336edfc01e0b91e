-- The help centre (issue #14): tickets (a thread of member and support messages, with the
-- files the member attached) and the automatic answers' evaluations (the question, the
-- article it was answered with, and the member's rating). Every table carries member_id so
-- the account erasure reaches it.
CREATE TABLE help_tickets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members (id),
    site_id INTEGER NOT NULL,
    subject_id TEXT NOT NULL,
    subject_title TEXT NOT NULL,
    operation_code TEXT,
    order_id INTEGER,
    channel TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX help_tickets_member ON help_tickets (member_id, id);

CREATE TABLE help_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ticket_id INTEGER NOT NULL REFERENCES help_tickets (id),
    member_id INTEGER NOT NULL,
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX help_messages_ticket ON help_messages (ticket_id, id);

CREATE TABLE help_attachments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id INTEGER NOT NULL REFERENCES help_messages (id),
    member_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    content BLOB NOT NULL
);
CREATE INDEX help_attachments_message ON help_attachments (message_id);

CREATE TABLE help_evaluations (
    id TEXT PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id),
    site_id INTEGER NOT NULL,
    article_id TEXT NOT NULL,
    score_milli INTEGER NOT NULL,
    subject_id TEXT NOT NULL,
    subject_title TEXT NOT NULL,
    question TEXT NOT NULL,
    operation_code TEXT,
    order_id INTEGER,
    satisfaction TEXT,
    ticket_id INTEGER,
    created_at INTEGER NOT NULL
);
CREATE INDEX help_evaluations_member ON help_evaluations (member_id);
