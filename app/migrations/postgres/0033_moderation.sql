-- Notices of illegal content (DSA Art. 16 and 17), decided in the back office. A product's
-- `moderation`: '' shown, 'restricted' shown in its sale but out of search and the brand
-- lists, 'disabled' hidden everywhere until a moderator restores it, 'removed' hidden for
-- good (its page answers 410).
ALTER TABLE products ADD COLUMN moderation TEXT NOT NULL DEFAULT '';
ALTER TABLE dsa_reports ADD COLUMN acknowledged_at BIGINT;
ALTER TABLE dsa_reports ADD COLUMN decided_at BIGINT;
CREATE INDEX dsa_reports_created ON dsa_reports (created_at);

-- One decision per notice, with the statement of reasons exactly as it was sent.
CREATE TABLE dsa_decisions (
    report_id BIGINT PRIMARY KEY REFERENCES dsa_reports (id),
    decision TEXT NOT NULL CHECK (decision IN ('remove', 'disable', 'restrict', 'none')),
    ground TEXT NOT NULL CHECK (ground IN ('illegal', 'terms')),
    facts TEXT NOT NULL,
    explanation TEXT NOT NULL,
    statement TEXT NOT NULL,
    operator_id BIGINT NOT NULL REFERENCES operators (id),
    decided_at BIGINT NOT NULL,
    mailed_at BIGINT
);
CREATE INDEX dsa_decisions_at ON dsa_decisions (decided_at);
