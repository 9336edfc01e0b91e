-- A trip's "from" price: its cheapest bookable configuration per person, which the
-- product header computes from the calendars; stored for the tiles, search results,
-- last viewed and travel home (app/src/travel/store/from_price.rs). NULL until first
-- computed: those read the product's price meanwhile.
ALTER TABLE travel_offers ADD COLUMN from_price_cents BIGINT;
