-- Onboarding: popins seen per member and version, consent answers kept on the member.
ALTER TABLE members ADD COLUMN perso_gdpr INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN optin_email INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN terms_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN adot_optin INTEGER;

CREATE TABLE member_popins (
    member_id INTEGER NOT NULL REFERENCES members (id),
    popin_type INTEGER NOT NULL,
    version INTEGER NOT NULL,
    action TEXT NOT NULL,
    answered_at INTEGER NOT NULL,
    PRIMARY KEY (member_id, popin_type, version)
);
