-- Onboarding: popins seen per member and version, consent answers kept on the member.
ALTER TABLE members ADD COLUMN perso_gdpr BIGINT NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN optin_email BIGINT NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN terms_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN adot_optin BIGINT;

CREATE TABLE member_popins (
    member_id BIGINT NOT NULL REFERENCES members (id),
    popin_type BIGINT NOT NULL,
    version BIGINT NOT NULL,
    action TEXT NOT NULL,
    answered_at BIGINT NOT NULL,
    PRIMARY KEY (member_id, popin_type, version)
);
