-- Review N5: a pending social identity (codes 12 and 13) is bound to the browser that
-- started the sign-in, as its authorization request was: the hash of what that visitor's
-- CSRF tokens are bound to. A ticket sent to someone else opens nothing. Tickets live 15
-- minutes, so rows made before this column (bound to nobody) are simply refused.
ALTER TABLE social_pending ADD COLUMN binding_hash TEXT NOT NULL DEFAULT '';
