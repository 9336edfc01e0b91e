-- Rate-limit rows carry the end of their window, so a sweeper can delete ended windows
-- (security review M1: rows of buckets never hit again stayed forever). Rows from before
-- this migration have 0: the first sweep removes them.
ALTER TABLE rate_limits ADD COLUMN expires_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX rate_limits_expires ON rate_limits (expires_at);
