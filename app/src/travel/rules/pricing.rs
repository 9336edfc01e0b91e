//! What a booking costs: the departure day's price per traveller (babies travel free, as
//! they have no seat or bed of their own), plus each chosen benefit per traveller.
use super::party::PartyCounts;
use crate::model::travel::Benefit;

/// Travellers who pay: adults and children.
pub fn paying_travellers(counts: PartyCounts) -> i64 {
    i64::from(counts.adults + counts.children)
}

/// Places a booking takes on its departure: everyone, babies included.
pub fn places_taken(counts: PartyCounts) -> i64 {
    i64::from(counts.adults + counts.children + counts.babies)
}

/// The total, cents.
pub fn booking_total(day_price: i64, counts: PartyCounts, benefits: &[&Benefit]) -> i64 {
    let per_person = day_price + benefits.iter().map(|b| b.price).sum::<i64>();
    per_person * paying_travellers(counts)
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
        assert_eq!(booking_total(60_000, counts, &[]), 180_000);
        assert_eq!(booking_total(60_000, counts, &[&transfer]), 187_500);
        assert_eq!(places_taken(counts), 4);
        assert_eq!(paying_travellers(counts), 3);
    }
}
