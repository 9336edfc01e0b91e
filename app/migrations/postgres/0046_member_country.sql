-- The member's country of residence, chosen at registration from the shop's countries
-- (app/src/auth/countries.rs); empty for members from before it, who live in their
-- site's country.
ALTER TABLE members ADD COLUMN country_code TEXT NOT NULL DEFAULT '';
