//! What a trip is described by in the travel catalog's filters: the values an offer may
//! have (the catalog's filter labels are keyed by them, `travel.filter.board.half_board`).
//! The back office offers exactly these when an operator makes a trip.

/// Kinds of trip.
pub const TRIP_TYPES: [&str; 3] = ["stay", "tour", "weekend"];
/// What meals the price includes.
pub const BOARDS: [&str; 5] = [
    "all_inclusive",
    "full_board",
    "half_board",
    "breakfast",
    "room_only",
];
/// Where travellers stay.
pub const ACCOMMODATIONS: [&str; 3] = ["hotel", "club", "residence"];
/// How they get there (`none`: no transport included).
pub const TRANSPORTS: [&str; 5] = ["flight", "train", "bus", "boat", "none"];
/// Star ratings.
pub const RATINGS: std::ops::RangeInclusive<i64> = 1..=5;

/// The traveller profiles a booking asks for (ages), as the configurator reads them.
pub const DEFAULT_PROFILES: &str = r#"[{"type":"adults","minAge":12,"maxAge":99},{"type":"children","minAge":2,"maxAge":11},{"type":"babies","minAge":0,"maxAge":1}]"#;
/// Themes the catalog filters on (`travel.filter.thematics.*`).
pub const THEMES: [&str; 4] = ["beach", "culture", "family", "spa"];
/// Instalments a trip may be paid in.
pub const PAYMENT_FACILITIES: [&str; 2] = ["3x", "4x"];
