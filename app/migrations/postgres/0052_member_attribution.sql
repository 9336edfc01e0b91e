-- Where a registration came from (spec 000 §2's entry keys: utm_*, formid, godfathertype,
-- partnerid, opendoor), one row per account that gave any, for the back office's
-- registrations report. Erased with the account (a campaign's words may say something
-- about the person): the report then counts the erased account as direct.
CREATE TABLE member_attribution (
    member_id BIGINT PRIMARY KEY REFERENCES members (id),
    site_id BIGINT NOT NULL,
    utm_source TEXT NOT NULL DEFAULT '',
    utm_medium TEXT NOT NULL DEFAULT '',
    utm_campaign TEXT NOT NULL DEFAULT '',
    utm_content TEXT NOT NULL DEFAULT '',
    utm_term TEXT NOT NULL DEFAULT '',
    form_id BIGINT,
    godfather_type TEXT NOT NULL DEFAULT '',
    partner_id TEXT NOT NULL DEFAULT '',
    open_door BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX members_created ON members (created_at);
