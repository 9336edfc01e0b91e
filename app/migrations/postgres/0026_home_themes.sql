-- Themes a home may ask for (spec 000 §3 "Home: ... theme", §9): '' (its site's brand),
-- 'recycle' (green, #0BA100) or 'bw' (black and white), as `sales.theme`. A home module
-- asks for one in its settings (`{"theme": "bw"}`). See app/src/site/theme.rs.
ALTER TABLE homes ADD COLUMN theme TEXT NOT NULL DEFAULT '';
