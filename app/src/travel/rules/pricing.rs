//! What a booking costs: the departure day's price per traveller (babies travel free, as
//! they have no seat or bed of their own), plus each chosen benefit per traveller.
use super::party::PartyCounts;
use crate::model::travel::{Benefit, ParticipantProfile, ParticipantType};

/// Travellers who pay: adults and children.
pub fn paying_travellers(counts: PartyCounts) -> i64 {
    i64::from(counts.adults + counts.children)
}

/// Places a booking takes on its departure: everyone, babies included.
pub fn places_taken(counts: PartyCounts) -> i64 {
    i64::from(counts.adults + counts.children + counts.babies)
}

/// What one traveller of `kind` pays for a stay at `day_price` (an adult's price): the
/// share their profile gives (children at -50 % on some offers), rounded to the cent; no
/// profile for the kind: the default share ([`ParticipantProfile::share`]).
pub fn traveller_price(
    day_price: i64,
    kind: ParticipantType,
    profiles: &[ParticipantProfile],
) -> i64 {
    let share = profiles
        .iter()
        .find(|p| p.kind == kind)
        .map(ParticipantProfile::share)
        .unwrap_or(if kind == ParticipantType::Babies {
            0
        } else {
            100
        });
    (day_price * i64::from(share) + 50) / 100
}

/// The total, cents: each traveller's share of the day's price, and each chosen benefit
/// per paying traveller. The one price rule of the configurator, the checkout page and the
/// booking.
pub fn booking_total(
    day_price: i64,
    counts: PartyCounts,
    profiles: &[ParticipantProfile],
    benefits: &[&Benefit],
) -> i64 {
    let benefits = benefits.iter().map(|b| b.price).sum::<i64>();
    let stay = |kind, count: u32| traveller_price(day_price, kind, profiles) * i64::from(count);
    stay(ParticipantType::Adults, counts.adults)
        + stay(ParticipantType::Children, counts.children)
        + stay(ParticipantType::Babies, counts.babies)
        + benefits * paying_travellers(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn babies_travel_free_and_take_a_place_benefits_are_per_paying_traveller() {
        let counts = PartyCounts {
            adults: 2,
            children: 1,
            babies: 1,
        };
        let transfer = Benefit {
            id: 1,
            label: "Transfer".into(),
            price: 2_500,
            min: 0,
        };
        assert_eq!(booking_total(60_000, counts, &[], &[]), 180_000);
        assert_eq!(booking_total(60_000, counts, &[], &[&transfer]), 187_500);
        assert_eq!(places_taken(counts), 4);
        assert_eq!(paying_travellers(counts), 3);
    }

    #[test]
    fn a_child_reduction_is_applied_to_the_stay_not_to_the_benefits() {
        let counts = PartyCounts {
            adults: 2,
            children: 1,
            babies: 1,
        };
        let mut profiles = crate::travel::rules::fixtures::profiles();
        assert_eq!(booking_total(60_001, counts, &profiles, &[]), 180_003);
        profiles[1].price_percent = Some(50);
        assert_eq!(
            traveller_price(60_001, ParticipantType::Children, &profiles),
            30_001
        );
        assert_eq!(booking_total(60_000, counts, &profiles, &[]), 150_000);
        let transfer = Benefit {
            id: 1,
            label: "Transfer".into(),
            price: 2_500,
            min: 0,
        };
        assert_eq!(
            booking_total(60_000, counts, &profiles, &[&transfer]),
            157_500
        );
        // A share above 100 % is an adult's price.
        profiles[1].price_percent = Some(250);
        assert_eq!(booking_total(60_000, counts, &profiles, &[]), 180_000);
    }
}
