-- Review N1: what can take an account over (email, IBAN, a refund to a new IBAN, ending
-- the other sessions, closing the account) asks for the current password or, for a member
-- without one, a fresh sign-in with the provider. That sign-in marks the session it was
-- made in (reauth_at) for a few minutes; a social request started for it names the member.
ALTER TABLE sessions ADD COLUMN reauth_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE social_login_states ADD COLUMN reauth_member_id BIGINT NOT NULL DEFAULT 0;

-- The "secure your account" link of the notices sent after those changes: single use, by
-- the hash of its token, with the address it was sent to (the one the account goes back to).
CREATE TABLE account_secure_links (
    token_hash TEXT PRIMARY KEY,
    member_id BIGINT NOT NULL REFERENCES members (id),
    email TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX account_secure_links_member ON account_secure_links (member_id);
CREATE INDEX account_secure_links_expiry ON account_secure_links (expires_at);
