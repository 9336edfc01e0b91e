-- The travel checkout (issue #11): the member's address kept with the booking; the
-- travellers' names and birthdays go in participants_json.
ALTER TABLE travel_bookings ADD COLUMN address_json TEXT NOT NULL DEFAULT '{}';
