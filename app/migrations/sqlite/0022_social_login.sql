-- Social sign-in (issue #16, spec 000 §3-§4). Everything a sign-in with Google, Facebook
-- or Apple keeps between its requests lives here, not in the process: the pending
-- authorization requests (state, nonce, PKCE verifier: single use, a few minutes), the
-- verified identities waiting for the association or registration step, and the links.

-- How the member registered (spec 000 §3): 0 subscribe, 1 association (third party).
ALTER TABLE members ADD COLUMN registration_type INTEGER NOT NULL DEFAULT 0;

-- One authorization request: the hash of its state, bound to the visitor who started it.
CREATE TABLE social_login_states (
    state_hash TEXT PRIMARY KEY,
    binding_hash TEXT NOT NULL,
    provider INTEGER NOT NULL,
    site_id INTEGER NOT NULL,
    nonce TEXT NOT NULL,
    pkce_verifier TEXT NOT NULL,
    return_url TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX social_login_states_expiry ON social_login_states (expires_at);

-- A verified identity with no association yet (codes 12 and 13), by the hash of its ticket.
CREATE TABLE social_pending (
    ticket_hash TEXT PRIMARY KEY,
    provider INTEGER NOT NULL,
    subject TEXT NOT NULL,
    site_id INTEGER NOT NULL,
    email TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    return_url TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX social_pending_expiry ON social_pending (expires_at);

-- A member's account at a provider (the provider's subject, per site).
CREATE TABLE member_social_links (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members (id),
    site_id INTEGER NOT NULL,
    provider INTEGER NOT NULL,
    subject TEXT NOT NULL,
    email TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX member_social_links_subject ON member_social_links (site_id, provider, subject);
CREATE UNIQUE INDEX member_social_links_member ON member_social_links (member_id, provider);
