//! The configurator's rules (spec 001 §4 "Travel product", §5 booking).
use super::fixtures::{city, day, duration, package, person, product};
use super::*;
use crate::model::travel::{
    CalendarDays, DefaultConfiguration, Package, ParticipantType, TravelProduct,
};
use ParticipantType::{Adults, Babies, Children};

/// Package 1: Paris (10) at 599 with 8 and 15 days, Lyon (11) at 499 with a sold-out 8
/// days and 15 days at 499, Nice (12) sold out at 399. Package 2: one city, one duration.
/// Package 3: sold out.
fn riad() -> TravelProduct {
    product(vec![
        package(
            1,
            false,
            vec![
                city(
                    10,
                    59_900,
                    false,
                    vec![
                        duration(100, 8, 59_900, false),
                        duration(101, 15, 89_900, false),
                    ],
                ),
                city(
                    11,
                    49_900,
                    false,
                    vec![
                        duration(110, 8, 52_900, true),
                        duration(111, 15, 49_900, false),
                    ],
                ),
                city(12, 39_900, true, vec![duration(120, 8, 39_900, true)]),
            ],
        ),
        package(
            2,
            false,
            vec![city(
                20,
                69_900,
                false,
                vec![duration(200, 4, 69_900, false)],
            )],
        ),
        package(3, true, vec![city(30, 29_900, true, vec![])]),
    ])
}

fn pkg(product: &TravelProduct, id: i64) -> &Package {
    product.packages.iter().find(|p| p.id == id).unwrap()
}

fn selected(package_id: i64) -> Configuration {
    Configuration {
        package_id: Some(package_id),
        participants: vec![person(Adults, None), person(Adults, None)],
        ..Configuration::default()
    }
}

fn calendar(rows: &[(&str, i64, bool)]) -> CalendarDays {
    rows.iter()
        .map(|&(date, price, sold_out)| (date.to_string(), day(price, sold_out)))
        .collect()
}

#[test]
fn default_package_is_the_named_one_in_stock_else_the_first_in_stock() {
    let mut p = riad();
    p.default_configuration.package_id = Some(2);
    assert_eq!(default_package(&p).map(|p| p.id), Some(2));
    p.default_configuration.package_id = Some(3);
    assert_eq!(default_package(&p).map(|p| p.id), Some(1));
    p.default_configuration.package_id = Some(99);
    assert_eq!(default_package(&p).map(|p| p.id), Some(1));
    p.default_configuration.package_id = None;
    p.packages[0].is_out_of_stock = true;
    assert_eq!(default_package(&p).map(|p| p.id), Some(2));
    p.packages[1].is_out_of_stock = true;
    assert_eq!(default_package(&p), None);
}

#[test]
fn active_city_is_the_only_one_or_the_selected_one_in_stock() {
    let p = riad();
    let mut config = selected(2);
    assert_eq!(active_city(pkg(&p, 2), &config).map(|c| c.id), Some(20));
    config.package_id = Some(1);
    assert_eq!(active_city(pkg(&p, 1), &config), None);
    config.select_city(11);
    assert_eq!(active_city(pkg(&p, 1), &config).map(|c| c.id), Some(11));
    config.select_city(12);
    assert_eq!(active_city(pkg(&p, 1), &config), None);
    config.select_city(99);
    assert_eq!(active_city(pkg(&p, 1), &config), None);
}

#[test]
fn active_duration_is_the_only_one_or_the_selected_one_in_stock() {
    let p = riad();
    assert_eq!(
        active_duration(pkg(&p, 2), &selected(2)).map(|d| d.id),
        Some(200)
    );
    let mut config = selected(1);
    config.select_city(10);
    assert_eq!(active_duration(pkg(&p, 1), &config), None);
    config.select_duration(15, 14);
    assert_eq!(
        active_duration(pkg(&p, 1), &config).map(|d| d.id),
        Some(101)
    );
    config.select_duration(15, 13);
    assert_eq!(active_duration(pkg(&p, 1), &config), None);
    config.select_city(11);
    config.select_duration(8, 7);
    assert_eq!(active_duration(pkg(&p, 1), &config), None, "sold out");
    config.city_id = None;
    config.select_duration(15, 14);
    assert_eq!(active_duration(pkg(&p, 1), &config), None, "no city");
}

#[test]
fn cheapest_mode_picks_the_cheapest_city_in_stock_and_its_cheapest_duration() {
    let p = riad();
    let (c, d) = cheapest_choice(pkg(&p, 1)).unwrap();
    assert_eq!((c.id, d.map(|d| d.id)), (11, Some(111)));
    assert_eq!(cheapest_choice(pkg(&p, 3)), None);
    let mut config = selected(1);
    config.select_city(10);
    config.select_duration(8, 7);
    config.set_cheapest(true);
    assert_eq!(active_city(pkg(&p, 1), &config).map(|c| c.id), Some(11));
    assert_eq!(
        active_duration(pkg(&p, 1), &config).map(|d| d.id),
        Some(111)
    );
}

#[test]
fn choosing_checkin_city_or_duration_turns_cheapest_mode_off() {
    let on = || Configuration {
        cheapest: true,
        ..selected(1)
    };
    let mut c = on();
    c.select_checkin("2027-03-06");
    assert!(!c.cheapest);
    let mut c = on();
    c.select_city(10);
    assert!(!c.cheapest);
    let mut c = on();
    c.select_duration(8, 7);
    assert!(!c.cheapest);
    let mut c = on();
    c.toggle_benefit(5);
    assert!(c.cheapest, "benefits do not");
}

#[test]
fn loading_with_defaults_takes_them_and_turns_cheapest_off() {
    let mut p = riad();
    p.default_configuration = DefaultConfiguration {
        package_id: Some(1),
        departure_city: Some("C10".into()),
        days: Some(15),
        nights: Some(14),
        checkin: Some("2027-03-06".into()),
    };
    let c = Configuration::initial(&p, true);
    assert_eq!(c.package_id, Some(1));
    assert_eq!(c.city_id, Some(10));
    assert_eq!(
        c.stay,
        Some(StayLength {
            days: 15,
            nights: 14
        })
    );
    assert_eq!(c.checkin.as_deref(), Some("2027-03-06"));
    assert!(!c.cheapest);
    assert!(c.benefits.is_empty());
    assert_eq!(
        c.counts(),
        PartyCounts {
            adults: 2,
            children: 0,
            babies: 0
        }
    );
    assert_eq!(active_duration(pkg(&p, 1), &c).map(|d| d.id), Some(101));
    // The city by id too; a malformed checkin or half a stay length is ignored.
    p.default_configuration.departure_city = Some("11".into());
    p.default_configuration.checkin = Some("2027-3-6".into());
    p.default_configuration.nights = None;
    let c = Configuration::initial(&p, true);
    assert_eq!((c.city_id, c.checkin, c.stay), (Some(11), None, None));
}

#[test]
fn loading_without_defaults_starts_in_cheapest_mode() {
    let mut p = riad();
    p.default_configuration.package_id = Some(2);
    p.default_configuration.departure_city = Some("C20".into());
    let c = Configuration::initial(&p, false);
    assert_eq!(c.package_id, Some(1));
    assert_eq!(
        (c.city_id, c.stay, c.checkin.as_deref()),
        (None, None, None)
    );
    assert!(c.cheapest);
    // Nothing in stock: no package, the default party.
    let sold_out = product(vec![package(3, true, vec![])]);
    let c = Configuration::initial(&sold_out, true);
    assert_eq!(c.package_id, None);
    assert_eq!(
        c.counts(),
        PartyCounts {
            adults: 2,
            children: 0,
            babies: 0
        }
    );
}

#[test]
fn selecting_a_package_resets_benefits_and_participants() {
    let mut p = riad();
    p.packages[1].configurator.participants = fixtures_rules_from_three();
    let mut c = Configuration::initial(&p, false);
    c.toggle_benefit(5);
    c.toggle_benefit(6);
    c.toggle_benefit(5);
    assert_eq!(c.benefits, [6]);
    let rules = p.packages[0].configurator.participants.clone();
    assert!(c.add_participant(&rules, Children));
    c.set_birthday(2, Some("2020-01-01".into()));
    assert!(c.select_package(&p, 2));
    assert_eq!(c.package_id, Some(2));
    assert!(c.benefits.is_empty());
    assert_eq!(
        c.participants,
        vec![
            person(Adults, None),
            person(Adults, None),
            person(Adults, None),
            person(Babies, None)
        ]
    );
    assert!(!c.select_package(&p, 99));
    assert_eq!(c.package_id, Some(2));
}

#[test]
fn a_new_package_keeps_the_city_and_stay_it_offers_else_its_cheapest() {
    // Package 4 offers Lyon again (another row, same name) with 15 days, and Marseille.
    let mut p = riad();
    let mut lyon = city(41, 54_900, false, vec![duration(410, 15, 54_900, false)]);
    lyon.value = "City 11".into();
    let marseille = city(42, 44_900, false, vec![duration(420, 8, 44_900, false)]);
    p.packages.push(package(4, false, vec![lyon, marseille]));
    let mut c = selected(1);
    c.select_city(11);
    c.select_duration(15, 14);
    assert!(c.select_package(&p, 4));
    assert_eq!((c.city_id, c.stay.map(|s| s.days)), (Some(41), Some(15)));
    let active = active_duration(pkg(&p, 4), &c).map(|d| d.id);
    assert_eq!(active, Some(410));
    // Paris is not offered by package 4: its cheapest city and stay, not nothing.
    let mut c = selected(1);
    c.select_city(10);
    c.select_duration(8, 7);
    assert!(c.select_package(&p, 4));
    assert_eq!((c.city_id, c.stay.map(|s| s.days)), (Some(42), Some(8)));
    // Back to package 1: Marseille is not there either, its cheapest in stock is Lyon.
    assert!(c.select_package(&p, 1));
    assert_eq!((c.city_id, c.stay.map(|s| s.days)), (Some(11), Some(15)));
}

fn fixtures_rules_from_three() -> crate::model::travel::ParticipantRules {
    super::fixtures::rules_table(&[(3, 0, &[1, 2])])
}

#[test]
fn participants_are_added_blank_and_the_last_of_a_type_is_removed() {
    let p = riad();
    let rules = &pkg(&p, 1).configurator.participants; // (1,0,[0,1]) (2,0,[0,1]) (2,1,[0,1])
    let mut c = Configuration::initial(&p, false);
    assert!(c.add_participant(rules, Children));
    assert!(!c.add_participant(rules, Children));
    assert!(c.add_participant(rules, Babies));
    assert!(!c.add_participant(rules, Adults));
    assert_eq!(c.participants[2], person(Children, None));
    c.set_birthday(0, Some("1980-05-01".into()));
    assert!(!c.set_birthday(9, None));
    assert!(
        !c.remove_participant(rules, Adults),
        "(1,1,1) is not listed"
    );
    assert!(c.remove_participant(rules, Children));
    assert!(c.remove_participant(rules, Adults));
    assert_eq!(
        c.participants,
        vec![person(Adults, Some("1980-05-01")), person(Babies, None)]
    );
    assert!(!c.remove_participant(rules, Children));
}

#[test]
fn ages_are_adjusted_on_the_travel_date() {
    let p = riad();
    let mut c = selected(1);
    c.participants.push(person(Babies, Some("2024-01-01")));
    c.participants.push(person(Children, Some("2027-04-01")));
    c.adjust_ages("2027-03-10", &pkg(&p, 1).configurator.participants.profiles);
    assert_eq!(
        c.participants,
        vec![
            person(Adults, None),
            person(Adults, None),
            person(Children, Some("2024-01-01"))
        ]
    );
}

#[test]
fn quotation_price_comes_from_the_day_then_the_city_then_the_product() {
    let mut p = riad();
    p.price.value = 45_000;
    let days = calendar(&[("2027-03-06", 54_900, false)]);
    let mut c = selected(1);
    c.select_city(10);
    c.select_checkin("2027-03-06");
    // A chosen day is what the checkout charges, whatever the sale shows before.
    assert_eq!(quotation_price(&p, &c, &days), 54_900, "day, flag off");
    p.with_quotation_price = true;
    assert_eq!(quotation_price(&p, &c, &days), 54_900, "day");
    c.checkin = None;
    assert_eq!(
        quotation_price(&p, &c, &days),
        54_900,
        "the stay's cheapest bookable day"
    );
    p.with_quotation_price = false;
    assert_eq!(quotation_price(&p, &c, &days), 45_000, "flag off, no day");
    p.with_quotation_price = true;
    let days = calendar(&[]);
    assert_eq!(quotation_price(&p, &c, &days), 59_900, "city");
    c.city_id = None;
    assert_eq!(quotation_price(&p, &c, &days), 45_000, "product");
    c.set_cheapest(true);
    assert_eq!(
        quotation_price(&p, &c, &days),
        49_900,
        "cheapest city, Lyon"
    );
    c.package_id = Some(2);
    assert_eq!(quotation_price(&p, &c, &days), 69_900, "only city");
}

/// Package 1 fully chosen: Paris, 8 days, a bookable day, two adults.
fn complete() -> (TravelProduct, Configuration, CalendarDays) {
    let mut c = selected(1);
    c.select_city(10);
    c.select_duration(8, 7);
    c.select_checkin("2027-03-06");
    let days = calendar(&[("2027-03-06", 59_900, false), ("2027-03-13", 59_900, true)]);
    (riad(), c, days)
}

#[test]
fn a_complete_configuration_can_be_booked() {
    let (p, c, days) = complete();
    assert_eq!(booking_blocks(&p, &c, &days), []);
    // Nothing to choose: one city, one duration, one day, no pickers shown.
    let one_day = calendar(&[("2027-03-06", 69_900, false)]);
    assert_eq!(booking_blocks(&p, &selected(2), &one_day), []);
}

#[test]
fn checkout_also_needs_a_saved_address_after_the_configurators_blocks() {
    use BookingBlock::*;
    let (p, c, days) = complete();
    assert_eq!(checkout_blocks(&p, &c, &days, true), []);
    assert_eq!(checkout_blocks(&p, &c, &days, false), [MissingAddress]);
    let mut kid = c.clone();
    kid.participants.push(person(Children, None));
    assert_eq!(
        checkout_blocks(&p, &kid, &days, false),
        [MissingBirthday { index: 2 }, MissingAddress]
    );
    assert_eq!(MissingAddress.field(), "addressId");
    assert_eq!(MissingAddress.message_key(), "travel.block.missing_address");
    assert!(MissingAddress.message_args().is_empty());
}

#[test]
fn booking_is_blocked_while_a_needed_choice_is_missing() {
    use BookingBlock::*;
    let (p, c, days) = complete();
    let blocks = |c: &Configuration, days: &CalendarDays| booking_blocks(&p, c, days);
    let mut no_city = c.clone();
    no_city.city_id = None;
    assert_eq!(blocks(&no_city, &days), [MissingCity]);
    let mut no_duration = c.clone();
    no_duration.stay = None;
    assert_eq!(blocks(&no_duration, &days), [MissingDuration]);
    let mut no_checkin = c.clone();
    no_checkin.checkin = None;
    assert_eq!(blocks(&no_checkin, &days), [MissingCheckin]);
    let mut sold_out_day = c.clone();
    sold_out_day.select_checkin("2027-03-13");
    assert_eq!(blocks(&sold_out_day, &days), [DayNotBookable]);
    // Shown pickers are needed even with a single choice.
    let mut shown = p.clone();
    shown.packages[1].configurator.with_departure_dates = true;
    assert_eq!(
        booking_blocks(&shown, &selected(2), &CalendarDays::new()),
        [MissingCheckin]
    );
    assert_eq!(booking_blocks(&p, &selected(2), &CalendarDays::new()), []);
    let only_day_sold_out = calendar(&[("2027-03-06", 69_900, true)]);
    assert_eq!(
        booking_blocks(&p, &selected(2), &only_day_sold_out),
        [DayNotBookable]
    );
    let mut gone = c.clone();
    gone.package_id = Some(3);
    assert_eq!(blocks(&gone, &days), [SoldOut]);
    assert_eq!(MissingCity.message_key(), "travel.block.missing_city");
}

#[test]
fn booking_is_blocked_by_birthdays_and_the_party() {
    use BookingBlock::*;
    let (p, c, days) = complete();
    let blocks = |c: &Configuration| booking_blocks(&p, c, &days);
    let mut kids = c.clone();
    kids.participants.push(person(Children, None));
    kids.participants.push(person(Babies, Some("2026-02-30")));
    assert_eq!(
        blocks(&kids),
        [MissingBirthday { index: 2 }, MissingBirthday { index: 3 }]
    );
    // Each is named as the configurator labels them: the first child, the first baby
    // (not travellers 3 and 4).
    assert_eq!(
        MissingBirthday { index: 2 }.message(&kids.participants),
        (
            "travel.block.missing_birthday.children",
            vec![("n", "1".to_string())]
        )
    );
    assert_eq!(
        MissingBirthday { index: 3 }.message(&kids.participants),
        (
            "travel.block.missing_birthday.babies",
            vec![("n", "1".to_string())]
        )
    );
    let mut crowd = c.clone();
    crowd.participants.push(person(Adults, None));
    assert_eq!(blocks(&crowd), [PartyNotAllowed]);
    let mut old_baby = c.clone();
    old_baby
        .participants
        .push(person(Babies, Some("2020-01-01")));
    assert_eq!(blocks(&old_baby), [BirthdayOutOfRange { index: 2 }]);
    assert_eq!(
        BirthdayOutOfRange { index: 2 }
            .message(&old_baby.participants)
            .0,
        "travel.block.birthday_out_of_range.babies"
    );
    let mut alone = c.clone();
    alone.participants.truncate(1);
    alone.participants.push(person(Babies, Some("2026-06-01")));
    assert_eq!(blocks(&alone), []);
    let mut too_few = c.clone();
    too_few.participants.clear();
    assert_eq!(
        blocks(&too_few),
        [PartyNotAllowed, TooFewParticipants { min: 1 }]
    );
    assert_eq!(
        TooFewParticipants { min: 1 }.message_key(),
        "travel.block.too_few_participants"
    );
}
