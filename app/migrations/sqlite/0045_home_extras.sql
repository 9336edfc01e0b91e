-- A home's extras (spec 000 §3 "Home": informationSectionToast, newMemberOverlay,
-- backgroundTheme, memberInformation, scroll-depth setting; app/src/home/store.rs):
-- a line of information shown at the top of the home, an overlay for members who joined
-- less than a week ago (title and text), a named page background, a line for signed-in
-- members, and whether the home reports its furthest scroll position (1) or not (0).
-- Empty text: the home has none.
ALTER TABLE homes ADD COLUMN information_toast TEXT NOT NULL DEFAULT '';
ALTER TABLE homes ADD COLUMN new_member_title TEXT NOT NULL DEFAULT '';
ALTER TABLE homes ADD COLUMN new_member_text TEXT NOT NULL DEFAULT '';
ALTER TABLE homes ADD COLUMN background_theme TEXT NOT NULL DEFAULT '';
ALTER TABLE homes ADD COLUMN member_information TEXT NOT NULL DEFAULT '';
ALTER TABLE homes ADD COLUMN scroll_depth INTEGER NOT NULL DEFAULT 1;
