-- Where a visitor who signs in through a provider came from (the entry link's utm_*,
-- formid, partnerid, godfathertype, opendoor, as a query), kept while they are away at the
-- provider and on the registration step, and recorded with the account if they register.
ALTER TABLE social_login_states ADD COLUMN source TEXT NOT NULL DEFAULT '';
ALTER TABLE social_pending ADD COLUMN source TEXT NOT NULL DEFAULT '';
