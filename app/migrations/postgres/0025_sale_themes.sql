-- Themes a sale may ask for (spec 000 §9): '' (its site's brand), 'recycle' (green,
-- #0BA100) or 'bw' (black and white). See app/src/site/theme.rs.
ALTER TABLE sales ADD COLUMN theme TEXT NOT NULL DEFAULT '';

-- Social sign-in keeps the share link's sponsor (`mgmcode` / `godfatherid`) from the
-- provider button to the third-party registration (issue #16), as the email form does.
ALTER TABLE social_login_states ADD COLUMN sponsor_code TEXT NOT NULL DEFAULT '';
ALTER TABLE social_login_states ADD COLUMN godfather_id TEXT NOT NULL DEFAULT '';
ALTER TABLE social_pending ADD COLUMN sponsor_code TEXT NOT NULL DEFAULT '';
ALTER TABLE social_pending ADD COLUMN godfather_id TEXT NOT NULL DEFAULT '';
