//! The product configurator (spec 001 §4 "Travel product", §5 booking): the selection
//! state, its transitions, what the selections resolve to, the quotation price and what
//! still blocks booking.
use serde::{Deserialize, Serialize};

use super::calendar::is_selectable_day;
use super::date::Date;
use super::party::{self, PartyCounts};
use crate::model::travel::{
    CalendarDays, Configurator, DepartureCity, Duration, Package, Participant, ParticipantProfile,
    ParticipantRules, ParticipantType, TravelProduct,
};

/// A stay length, as the default configuration and the duration picker name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StayLength {
    pub days: u32,
    pub nights: u32,
}

/// The configurator's selections. Ids refer to the product's packages and the chosen
/// package's departure cities; what they resolve to is asked with [`active_city`],
/// [`active_duration`] and [`active_checkin`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Configuration {
    pub package_id: Option<i64>,
    pub city_id: Option<i64>,
    pub stay: Option<StayLength>,
    /// `YYYY-MM-DD`.
    pub checkin: Option<String>,
    /// Chosen benefit ids.
    pub benefits: Vec<i64>,
    pub participants: Vec<Participant>,
    /// Display-cheapest mode: the cheapest city and duration stand for the selection.
    pub cheapest: bool,
}

fn first_in_stock(product: &TravelProduct) -> Option<&Package> {
    product.packages.iter().find(|p| !p.is_out_of_stock)
}

/// The package named by the default configuration if in stock, else the first in stock.
pub fn default_package(product: &TravelProduct) -> Option<&Package> {
    product
        .default_configuration
        .package_id
        .and_then(|id| product.packages.iter().find(|p| p.id == id))
        .filter(|p| !p.is_out_of_stock)
        .or_else(|| first_in_stock(product))
}

/// A city named by code (as the `trv_departure_city` cookie keeps it) or by id.
fn find_city<'a>(package: &'a Package, name: &str) -> Option<&'a DepartureCity> {
    let cities = &package.configurator.departure_cities;
    cities
        .iter()
        .find(|c| c.code == name)
        .or_else(|| cities.iter().find(|c| c.id.to_string() == name))
}

fn cheapest_duration(city: &DepartureCity) -> Option<&Duration> {
    // `min_by_key` keeps the first of equal prices.
    city.durations
        .iter()
        .filter(|d| !d.is_out_of_stock)
        .min_by_key(|d| d.price)
}

/// Cheapest mode's pick: the in-stock city with the lowest price (the first listed on
/// ties) and its cheapest in-stock duration.
pub fn cheapest_choice(package: &Package) -> Option<(&DepartureCity, Option<&Duration>)> {
    let city = package
        .configurator
        .departure_cities
        .iter()
        .filter(|c| !c.is_out_of_stock)
        .min_by_key(|c| c.price)?;
    Some((city, cheapest_duration(city)))
}

/// The only city if there is just one; in cheapest mode the cheapest; else the selected
/// one if it is in stock.
pub fn active_city<'a>(package: &'a Package, config: &Configuration) -> Option<&'a DepartureCity> {
    match package.configurator.departure_cities.as_slice() {
        [only] => Some(only),
        _ if config.cheapest => cheapest_choice(package).map(|(city, _)| city),
        cities => cities
            .iter()
            .find(|c| Some(c.id) == config.city_id && !c.is_out_of_stock),
    }
}

/// Of the active city: the only duration; in cheapest mode the cheapest; else the one of
/// the selected days and nights if in stock.
pub fn active_duration<'a>(package: &'a Package, config: &Configuration) -> Option<&'a Duration> {
    let city = active_city(package, config)?;
    match city.durations.as_slice() {
        [only] => Some(only),
        _ if config.cheapest => cheapest_duration(city),
        durations => {
            let stay = config.stay?;
            durations
                .iter()
                .find(|d| d.day == stay.days && d.night == stay.nights && !d.is_out_of_stock)
        }
    }
}

/// The chosen day if it can be booked; without a choice, the calendar's only day if it can.
/// Pass the calendar of the active package, city and duration.
pub fn active_checkin<'a>(config: &'a Configuration, days: &'a CalendarDays) -> Option<&'a str> {
    match config.checkin.as_deref() {
        Some(date) => is_selectable_day(days, date).then_some(date),
        None if days.len() == 1 => days
            .keys()
            .next()
            .map(String::as_str)
            .filter(|d| is_selectable_day(days, d)),
        None => None,
    }
}

/// A city must be resolved when the picker is shown or there is more than one.
pub fn city_needed(configurator: &Configurator) -> bool {
    configurator.with_departure_cities || configurator.departure_cities.len() > 1
}

/// A duration must be resolved when the picker is shown or the city has more than one.
pub fn duration_needed(configurator: &Configurator, city: Option<&DepartureCity>) -> bool {
    configurator.with_durations || city.is_some_and(|c| c.durations.len() > 1)
}

/// A check-in must be chosen when the calendar is shown or has more than one day.
pub fn checkin_needed(configurator: &Configurator, days: &CalendarDays) -> bool {
    configurator.with_departure_dates || days.len() > 1
}

/// The price per person (an adult's) to show. A chosen day's always: it is what the
/// checkout charges. Before a day is chosen, the product's unless
/// the sale quotes prices (`withQuotationPrice`); then the cheapest bookable day of the
/// stay shown (the calendar's "lowest" badge), else the active city's, else the product's.
pub fn quotation_price(
    product: &TravelProduct,
    config: &Configuration,
    days: &CalendarDays,
) -> i64 {
    if let Some(day) = config.checkin.as_deref().and_then(|d| days.get(d)) {
        return day.price;
    }
    if !product.with_quotation_price {
        return product.price.value;
    }
    let city = || config.package(product).and_then(|p| active_city(p, config));
    super::calendar::lowest_day(days)
        .and_then(|d| days.get(&d).map(|d| d.price))
        .or_else(|| city().map(|c| c.price))
        .unwrap_or(product.price.value)
}

/// Why booking is not possible yet (spec 001 §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BookingBlock {
    /// No package is selected, or it is sold out.
    SoldOut,
    MissingCity,
    MissingDuration,
    MissingCheckin,
    /// The chosen day (or the calendar's only day) cannot be booked.
    DayNotBookable,
    /// A child or baby (index in the participants) has no valid birthday.
    MissingBirthday {
        index: usize,
    },
    /// A birthday is outside its type's age window on the travel date.
    BirthdayOutOfRange {
        index: usize,
    },
    PartyNotAllowed,
    TooFewParticipants {
        min: u32,
    },
    /// At checkout: the member has no address in their address book to book with
    /// ([`super::checkout_blocks`]).
    MissingAddress,
}

impl BookingBlock {
    /// The configurator field the block is about (`participants.2` for the third traveller).
    pub fn field(self) -> String {
        match self {
            BookingBlock::SoldOut => "package".into(),
            BookingBlock::MissingCity => "departureCity".into(),
            BookingBlock::MissingDuration => "duration".into(),
            BookingBlock::MissingCheckin | BookingBlock::DayNotBookable => "checkin".into(),
            BookingBlock::MissingBirthday { index }
            | BookingBlock::BirthdayOutOfRange { index } => {
                format!("participants.{index}")
            }
            BookingBlock::PartyNotAllowed | BookingBlock::TooFewParticipants { .. } => {
                "participants".into()
            }
            BookingBlock::MissingAddress => "addressId".into(),
        }
    }

    /// The placeholders of the message: `n` the traveller's number (from 1), `min` the
    /// smallest party.
    pub fn message_args(self) -> Vec<(&'static str, String)> {
        match self {
            BookingBlock::MissingBirthday { index }
            | BookingBlock::BirthdayOutOfRange { index } => vec![("n", (index + 1).to_string())],
            BookingBlock::TooFewParticipants { min } => vec![("min", min.to_string())],
            _ => Vec::new(),
        }
    }

    /// The message's key and placeholders, naming a traveller as the configurator labels
    /// them ("Child 2": the second of their profile), not by their place in the party.
    pub fn message(
        self,
        participants: &[Participant],
    ) -> (&'static str, Vec<(&'static str, String)>) {
        let traveller = |index: usize| {
            let kind = participants.get(index)?.kind;
            let nth = participants[..=index]
                .iter()
                .filter(|p| p.kind == kind)
                .count();
            Some((kind, nth.to_string()))
        };
        match self {
            BookingBlock::MissingBirthday { index } => match traveller(index) {
                Some((ParticipantType::Children, n)) => {
                    ("travel.block.missing_birthday.children", vec![("n", n)])
                }
                Some((ParticipantType::Babies, n)) => {
                    ("travel.block.missing_birthday.babies", vec![("n", n)])
                }
                _ => (self.message_key(), self.message_args()),
            },
            BookingBlock::BirthdayOutOfRange { index } => match traveller(index) {
                Some((ParticipantType::Adults, n)) => {
                    ("travel.block.birthday_out_of_range.adults", vec![("n", n)])
                }
                Some((ParticipantType::Children, n)) => (
                    "travel.block.birthday_out_of_range.children",
                    vec![("n", n)],
                ),
                Some((ParticipantType::Babies, n)) => {
                    ("travel.block.birthday_out_of_range.babies", vec![("n", n)])
                }
                None => (self.message_key(), self.message_args()),
            },
            _ => (self.message_key(), self.message_args()),
        }
    }

    /// The translation key of the message.
    pub fn message_key(self) -> &'static str {
        match self {
            BookingBlock::SoldOut => "travel.block.sold_out",
            BookingBlock::MissingCity => "travel.block.missing_city",
            BookingBlock::MissingDuration => "travel.block.missing_duration",
            BookingBlock::MissingCheckin => "travel.block.missing_checkin",
            BookingBlock::DayNotBookable => "travel.block.day_not_bookable",
            BookingBlock::MissingBirthday { .. } => "travel.block.missing_birthday",
            BookingBlock::BirthdayOutOfRange { .. } => "travel.block.birthday_out_of_range",
            BookingBlock::PartyNotAllowed => "travel.block.party_not_allowed",
            BookingBlock::TooFewParticipants { .. } => "travel.block.too_few_participants",
            BookingBlock::MissingAddress => "travel.block.missing_address",
        }
    }
}

/// Everything that blocks booking, in the configurator's order; empty when it can go on.
/// `days` is the calendar of the active package, city and duration.
pub fn booking_blocks(
    product: &TravelProduct,
    config: &Configuration,
    days: &CalendarDays,
) -> Vec<BookingBlock> {
    let Some(package) = config.package(product).filter(|p| !p.is_out_of_stock) else {
        return vec![BookingBlock::SoldOut];
    };
    let configurator = &package.configurator;
    let mut blocks = Vec::new();
    let city = active_city(package, config);
    if city.is_none() && city_needed(configurator) {
        blocks.push(BookingBlock::MissingCity);
    }
    if active_duration(package, config).is_none() && duration_needed(configurator, city) {
        blocks.push(BookingBlock::MissingDuration);
    }
    let checkin = active_checkin(config, days);
    if checkin.is_none() {
        if config.checkin.is_some() {
            blocks.push(BookingBlock::DayNotBookable);
        } else if checkin_needed(configurator, days) {
            blocks.push(BookingBlock::MissingCheckin);
        } else if !days.is_empty() {
            blocks.push(BookingBlock::DayNotBookable);
        }
    }
    let rules = &configurator.participants;
    let travel = checkin.and_then(Date::parse);
    for (index, p) in config.participants.iter().enumerate() {
        let birthday = p.birthday.as_deref().and_then(Date::parse);
        let Some(birthday) = birthday else {
            if p.kind != ParticipantType::Adults {
                blocks.push(BookingBlock::MissingBirthday { index });
            }
            continue;
        };
        let age = travel.map(|t| t.age_of(birthday));
        let profile = rules.profiles.iter().find(|pr| pr.kind == p.kind);
        if let (Some(age), Some(profile)) = (age, profile) {
            if !age.is_some_and(|a| (profile.min_age..=profile.max_age).contains(&a)) {
                blocks.push(BookingBlock::BirthdayOutOfRange { index });
            }
        }
    }
    let counts = config.counts();
    if !party::party_allowed(rules, counts) {
        blocks.push(BookingBlock::PartyNotAllowed);
    }
    if counts.total() < rules.min {
        blocks.push(BookingBlock::TooFewParticipants { min: rules.min });
    }
    blocks
}

impl Configuration {
    /// The state after the product loads. With the default configuration requested, the
    /// selections take its values (the package by [`default_package`], the city by code or
    /// id, days and nights when both are given, a well-formed checkin) and cheapest mode is
    /// off; otherwise the first in-stock package and cheapest mode on. The party starts as
    /// the package's rules say.
    pub fn initial(product: &TravelProduct, with_defaults: bool) -> Configuration {
        let package = if with_defaults {
            default_package(product)
        } else {
            first_in_stock(product)
        };
        let no_rules = ParticipantRules::default();
        let rules = package.map_or(&no_rules, |p| &p.configurator.participants);
        let mut config = Configuration {
            package_id: package.map(|p| p.id),
            participants: party::initial_participants(rules),
            cheapest: !with_defaults,
            ..Configuration::default()
        };
        if with_defaults {
            let defaults = &product.default_configuration;
            config.city_id = package
                .zip(defaults.departure_city.as_deref())
                .and_then(|(p, name)| find_city(p, name))
                .map(|c| c.id);
            config.stay = defaults
                .days
                .zip(defaults.nights)
                .map(|(days, nights)| StayLength { days, nights });
            config.checkin = defaults
                .checkin
                .clone()
                .filter(|d| Date::parse(d).is_some());
        }
        config
    }

    /// The selected package of the product.
    pub fn package<'a>(&self, product: &'a TravelProduct) -> Option<&'a Package> {
        let id = self.package_id?;
        product.packages.iter().find(|p| p.id == id)
    }

    pub fn counts(&self) -> PartyCounts {
        PartyCounts::of(&self.participants)
    }

    /// Chooses a package of the product: benefits are reset and the party starts again from
    /// the package's rules. `false` (nothing changes) for an unknown package.
    pub fn select_package(&mut self, product: &TravelProduct, package_id: i64) -> bool {
        let Some(package) = product.packages.iter().find(|p| p.id == package_id) else {
            return false;
        };
        // What the member saw chosen in the package they leave.
        let old = self.package(product);
        let old_city = old
            .and_then(|pk| active_city(pk, self))
            .map(|c| c.value.clone());
        let old_stay = old
            .and_then(|pk| active_duration(pk, self))
            .map(|d| StayLength {
                days: d.day,
                nights: d.night,
            });
        self.package_id = Some(package.id);
        self.benefits.clear();
        self.participants = party::initial_participants(&package.configurator.participants);
        self.carry_city_and_stay(package, old_city.as_deref(), old_stay);
        true
    }

    /// After a package change: a city and a stay are rows of their package, so the ones
    /// chosen do not exist in the new one. The same city (by name) and stay (by days and
    /// nights) are kept where the new package offers them; otherwise its cheapest, as on
    /// load, rather than nothing chosen and no departures shown.
    fn carry_city_and_stay(
        &mut self,
        package: &Package,
        old_city: Option<&str>,
        old_stay: Option<StayLength>,
    ) {
        let cities = &package.configurator.departure_cities;
        let same_city = old_city.and_then(|name| {
            cities
                .iter()
                .find(|c| c.value == name && !c.is_out_of_stock)
        });
        let Some(city) = same_city.or_else(|| cheapest_choice(package).map(|(c, _)| c)) else {
            self.city_id = None;
            return;
        };
        self.city_id = Some(city.id);
        let same_stay = old_stay.and_then(|s| {
            city.durations
                .iter()
                .find(|d| d.day == s.days && d.night == s.nights && !d.is_out_of_stock)
        });
        self.stay = same_stay
            .or_else(|| cheapest_duration(city))
            .map(|d| StayLength {
                days: d.day,
                nights: d.night,
            });
    }

    pub fn select_city(&mut self, city_id: i64) {
        self.city_id = Some(city_id);
        self.cheapest = false;
    }

    pub fn select_duration(&mut self, days: u32, nights: u32) {
        self.stay = Some(StayLength { days, nights });
        self.cheapest = false;
    }

    /// Run [`Configuration::adjust_ages`] after it: the travel date changed.
    pub fn select_checkin(&mut self, date: impl Into<String>) {
        self.checkin = Some(date.into());
        self.cheapest = false;
    }

    /// Turns cheapest mode's pick into explicit selections, so that a choice which ends
    /// the mode (a day in the calendar) keeps the city and duration the member saw.
    pub fn pin_cheapest(&mut self, product: &TravelProduct) {
        if !self.cheapest {
            return;
        }
        let Some((city, duration)) = self.package(product).and_then(cheapest_choice) else {
            return;
        };
        self.city_id = Some(city.id);
        if let Some(d) = duration {
            self.stay = Some(StayLength {
                days: d.day,
                nights: d.night,
            });
        }
    }

    pub fn set_cheapest(&mut self, on: bool) {
        self.cheapest = on;
    }

    /// Adds or removes a benefit.
    pub fn toggle_benefit(&mut self, benefit_id: i64) {
        if let Some(i) = self.benefits.iter().position(|&b| b == benefit_id) {
            self.benefits.remove(i);
        } else {
            self.benefits.push(benefit_id);
        }
    }

    /// Adds a participant without a birthday if [`party::can_add`] allows it.
    pub fn add_participant(&mut self, rules: &ParticipantRules, kind: ParticipantType) -> bool {
        let allowed = party::can_add(rules, self.counts(), kind);
        if allowed {
            self.participants.push(Participant {
                kind,
                birthday: None,
            });
        }
        allowed
    }

    /// Removes the last participant of that type if [`party::can_remove`] allows it.
    pub fn remove_participant(&mut self, rules: &ParticipantRules, kind: ParticipantType) -> bool {
        let last = self.participants.iter().rposition(|p| p.kind == kind);
        match last {
            Some(i) if party::can_remove(rules, self.counts(), kind) => {
                self.participants.remove(i);
                true
            }
            _ => false,
        }
    }

    /// Sets (or clears) the birthday of participant `index`; `false` if there is none.
    /// Run [`Configuration::adjust_ages`] after it.
    pub fn set_birthday(&mut self, index: usize, birthday: Option<String>) -> bool {
        match self.participants.get_mut(index) {
            Some(p) => {
                p.birthday = birthday;
                true
            }
            None => false,
        }
    }

    /// [`party::adjust_ages`] on the travel date; what it changed, to be said.
    pub fn adjust_ages(
        &mut self,
        travel_date: &str,
        profiles: &[ParticipantProfile],
    ) -> Vec<party::AgeChange> {
        let (kept, changes) = party::adjust_ages_said(&self.participants, travel_date, profiles);
        self.participants = kept;
        changes
    }
}
