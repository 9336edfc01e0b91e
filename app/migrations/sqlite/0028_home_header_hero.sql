-- The colour of a home's hero band (spec 001 §2 "can be transparent on the home page"):
-- '#rrggbb' makes the header transparent over that home while the page is at its top,
-- when the colour is dark enough for the header's white text (app/src/shell/rules.rs
-- `transparent_hero`); '' (the default) keeps the header solid.
ALTER TABLE homes ADD COLUMN header_hero TEXT NOT NULL DEFAULT '';
