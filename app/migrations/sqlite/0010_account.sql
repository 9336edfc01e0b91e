-- My account (issue #12): the personal data the registration does not ask (phone, job),
-- pending email changes, each deactivation with its reason, and when an account was
-- erased (the row stays, emptied, so the orders kept for accounting still point at it).
ALTER TABLE members ADD COLUMN phone TEXT NOT NULL DEFAULT '';
ALTER TABLE members ADD COLUMN job_id INTEGER;
ALTER TABLE members ADD COLUMN deactivated_at INTEGER;
ALTER TABLE members ADD COLUMN erased_at INTEGER;

CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    label_key TEXT NOT NULL,
    sort_order INTEGER NOT NULL
);
INSERT INTO jobs (id, label_key, sort_order) VALUES
    (1, 'account.job.1', 1),
    (2, 'account.job.2', 2),
    (3, 'account.job.3', 3),
    (4, 'account.job.4', 4),
    (5, 'account.job.5', 5),
    (6, 'account.job.6', 6),
    (7, 'account.job.7', 7),
    (8, 'account.job.8', 8),
    (9, 'account.job.9', 9),
    (10, 'account.job.10', 10);

-- A new address waits here until the link mailed to it is opened (only its hash is kept).
CREATE TABLE member_email_changes (
    token_hash TEXT PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    new_email TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
);
CREATE INDEX member_email_changes_member ON member_email_changes (member_id);

CREATE TABLE member_deactivations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX member_deactivations_member ON member_deactivations (member_id);
