//! The travel rules of spec 001 §4–§5, pure (no I/O, no clock: callers pass the dates) so
//! the server and the browser share them: civil dates and the `DDMMYY` filter format, the
//! price calendar, the travel party, the configurator state with what blocks booking, the
//! catalogue addresses and the search setters. `vectors.json` (next to this folder) holds
//! cases the React widgets test too.
mod calendar;
mod catalogue;
mod checkout;
mod configuration;
mod date;
mod filters;
pub mod form;
pub mod offer;
mod party;
mod pricing;
pub mod search;
mod season;

#[cfg(test)]
mod configuration_tests;
#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod form_tests;
#[cfg(test)]
mod vectors;

pub use calendar::{checkout_date, is_selectable_day, lowest_day};
pub use catalogue::{
    catalog_link, catalogue_page, catalogue_query, catalogue_url, is_default_catalogue, QueryValue,
};
pub use checkout::{
    checkout_blocks, checkout_problems, checkout_query, parse_checkout_query, party_value,
    with_birthdays, CheckoutProblem, Traveller,
};
pub use configuration::{
    active_checkin, active_city, active_duration, booking_blocks, cheapest_choice, checkin_needed,
    city_needed, default_package, duration_needed, quotation_price, BookingBlock, Configuration,
    StayLength,
};
pub use date::{flex_days, flex_wire, from_filter_date, to_filter_date, Date, FLEX_DAYS};
pub use filters::{
    active_filters, canonical_query, drawer_cookie, drawer_open, facet_title_key, first_page,
    has_iso_dates, is_filtered, known_filters, label_facets, month_bounds, month_label,
    offer_query_string, parse_filter_date, parse_month, parse_offer_query, query_pairs, with_page,
    ActiveFilter, DATES_FACET, DRAWER_COOKIE, DRAWER_OPENED, FILTER_NAMES, MAX_PAGE,
};
pub use party::{
    adjust_ages, adjust_ages_said, age_category, birthday_bounds, can_add, can_remove,
    initial_participants, latest_birthday, party_allowed, party_mode, traveller_label_key,
    traveller_labels, AgeChange, PartyCounts, PartyMode, DEFAULT_ADULTS,
};
pub use pricing::{booking_total, paying_travellers, places_taken};
pub use search::{set_checkin_checkout, set_dates};
pub use season::{
    calendar, day_price, departure_id, parse_departure_id, season_of, Season,
    WEEKEND_SURCHARGE_PERCENT,
};
