//! Who travels (spec 001 §4 "Participants", "Participant age adjustment", §5 "Travel
//! party"): the starting party, which additions and removals the rules allow, and the age
//! category of a birthday on the travel date.
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::date::Date;
use crate::model::travel::{Participant, ParticipantProfile, ParticipantRules, ParticipantType};

/// Adults of the party when a product has no rules (spec 001 §9).
pub const DEFAULT_ADULTS: u32 = 2;

/// The key of a traveller's label ("Child {n}"), their `n` being their place among the
/// travellers of their profile: the configurator, the checkout, the blocks' messages and
/// the order name a traveller the same way.
pub fn traveller_label_key(kind: ParticipantType) -> &'static str {
    match kind {
        ParticipantType::Adults => "travel.party.adult_n",
        ParticipantType::Children => "travel.party.child_n",
        ParticipantType::Babies => "travel.party.baby_n",
    }
}

/// Each traveller's label key and `n`, in the party's order (adult 1, child 1, adult 2…).
pub fn traveller_labels(
    kinds: impl IntoIterator<Item = ParticipantType>,
) -> Vec<(&'static str, usize)> {
    let mut seen = [0usize; 3];
    kinds
        .into_iter()
        .map(|kind| {
            seen[kind as usize] += 1;
            (traveller_label_key(kind), seen[kind as usize])
        })
        .collect()
}

/// How many of each type travel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PartyCounts {
    pub adults: u32,
    pub children: u32,
    pub babies: u32,
}

impl PartyCounts {
    pub fn of(participants: &[Participant]) -> PartyCounts {
        let mut counts = PartyCounts::default();
        for p in participants {
            *counts.get_mut(p.kind) += 1;
        }
        counts
    }

    pub fn total(&self) -> u32 {
        self.adults + self.children + self.babies
    }

    pub fn get(&self, kind: ParticipantType) -> u32 {
        match kind {
            ParticipantType::Adults => self.adults,
            ParticipantType::Children => self.children,
            ParticipantType::Babies => self.babies,
        }
    }

    fn get_mut(&mut self, kind: ParticipantType) -> &mut u32 {
        match kind {
            ParticipantType::Adults => &mut self.adults,
            ParticipantType::Children => &mut self.children,
            ParticipantType::Babies => &mut self.babies,
        }
    }

    fn plus_one(mut self, kind: ParticipantType) -> PartyCounts {
        *self.get_mut(kind) += 1;
        self
    }

    fn minus_one(mut self, kind: ParticipantType) -> Option<PartyCounts> {
        let n = self.get_mut(kind);
        *n = n.checked_sub(1)?;
        Some(self)
    }
}

/// Which of the spec's two party rules applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartyMode<'a> {
    /// No rules at all (empty table, no head count): the default party, not editable.
    Fixed,
    /// `min == max` (and not 0): only the head count matters, between 0 and `max`.
    Headcount { max: u32 },
    /// Allowed counts by adults, then children, with the allowed baby counts as the leaf.
    Table(&'a BTreeMap<u32, BTreeMap<u32, Vec<u32>>>),
}

pub fn party_mode(rules: &ParticipantRules) -> PartyMode<'_> {
    if rules.min == rules.max && rules.max > 0 {
        PartyMode::Headcount { max: rules.max }
    } else if rules.rules.is_empty() {
        PartyMode::Fixed
    } else {
        PartyMode::Table(&rules.rules)
    }
}

fn in_table(table: &BTreeMap<u32, BTreeMap<u32, Vec<u32>>>, c: PartyCounts) -> bool {
    table
        .get(&c.adults)
        .and_then(|children| children.get(&c.children))
        .is_some_and(|babies| babies.contains(&c.babies))
}

/// The smallest adults key of the table: removing adults stops there (1 without a table).
fn first_adults_key(rules: &ParticipantRules) -> u32 {
    rules.rules.keys().next().copied().unwrap_or(1)
}

/// Adults need no profile (no birthday to check); children and babies need theirs.
fn has_profile(rules: &ParticipantRules, kind: ParticipantType) -> bool {
    kind == ParticipantType::Adults || rules.profiles.iter().any(|p| p.kind == kind)
}

fn blank(kind: ParticipantType, n: u32) -> impl Iterator<Item = Participant> {
    (0..n).map(move |_| Participant {
        kind,
        birthday: None,
    })
}

/// The party a configuration starts with: two adults without a table (no more than `max`
/// when a head count is set); with a table, the smallest adults key of at least 2 (else
/// the first key) with its smallest children key and smallest baby count.
pub fn initial_participants(rules: &ParticipantRules) -> Vec<Participant> {
    let Some((&adults, children_table)) = rules
        .rules
        .range(DEFAULT_ADULTS..)
        .next()
        .or_else(|| rules.rules.iter().next())
    else {
        let adults = match party_mode(rules) {
            PartyMode::Headcount { max } => DEFAULT_ADULTS.min(max),
            _ => DEFAULT_ADULTS,
        };
        return blank(ParticipantType::Adults, adults).collect();
    };
    let (children, babies) = children_table
        .iter()
        .next()
        .map(|(&c, babies)| (c, babies.iter().min().copied().unwrap_or(0)))
        .unwrap_or((0, 0));
    blank(ParticipantType::Adults, adults)
        .chain(blank(ParticipantType::Children, children))
        .chain(blank(ParticipantType::Babies, babies))
        .collect()
}

/// Whether the rules allow this party as it stands.
pub fn party_allowed(rules: &ParticipantRules, counts: PartyCounts) -> bool {
    match party_mode(rules) {
        PartyMode::Fixed => true,
        PartyMode::Headcount { max } => counts.total() <= max,
        PartyMode::Table(table) => in_table(table, counts),
    }
}

/// One more of `kind`: with a head count, `total + 1 <= max`; with a table, the party one
/// larger must be listed. Children and babies also need their profile.
pub fn can_add(rules: &ParticipantRules, counts: PartyCounts, kind: ParticipantType) -> bool {
    has_profile(rules, kind)
        && match party_mode(rules) {
            PartyMode::Fixed => false,
            PartyMode::Headcount { max } => counts.total() < max,
            PartyMode::Table(table) => in_table(table, counts.plus_one(kind)),
        }
}

/// One fewer of `kind`: there must be one, and adults stay at or above the first adults
/// key. With a table the smaller party must be listed, unless the current party is not
/// (after an age adjustment or a package change): then any removal is allowed, so the
/// party can always get back into the table.
pub fn can_remove(rules: &ParticipantRules, counts: PartyCounts, kind: ParticipantType) -> bool {
    let Some(fewer) = counts.minus_one(kind) else {
        return false;
    };
    let adults_ok = kind != ParticipantType::Adults || counts.adults > first_adults_key(rules);
    match party_mode(rules) {
        PartyMode::Fixed => false,
        PartyMode::Headcount { .. } => adults_ok,
        PartyMode::Table(table) => {
            in_table(table, fewer) || (!in_table(table, counts) && adults_ok)
        }
    }
}

/// The profile whose age window (inclusive both ends, in full years on the travel date)
/// holds this birthday; the first listed wins if windows overlap. `None` for an invalid
/// date, a birthday after the travel date, or an age no profile covers.
pub fn age_category(
    birthday: &str,
    travel_date: &str,
    profiles: &[ParticipantProfile],
) -> Option<ParticipantType> {
    let age = Date::parse(travel_date)?.age_of(Date::parse(birthday)?)?;
    profiles
        .iter()
        .find(|p| (p.min_age..=p.max_age).contains(&age))
        .map(|p| p.kind)
}

/// The birthdays a profile accepts on the travel date, `(earliest, latest)` as
/// `YYYY-MM-DD` (for a date picker's min and max): born on or before the travel date minus
/// `minAge` years, and less than `maxAge + 1` years before it.
pub fn birthday_bounds(
    profile: &ParticipantProfile,
    travel_date: &str,
) -> Option<(String, String)> {
    let travel = Date::parse(travel_date)?;
    let latest = travel.years_before(profile.min_age);
    let earliest = travel
        .years_before(profile.max_age.saturating_add(1))
        .add_days(1);
    Some((earliest.to_string(), latest.to_string()))
}

/// The latest birthday anyone may have: the travel date minus the youngest profile's
/// `minAge` (the travel date itself without profiles).
pub fn latest_birthday(travel_date: &str, profiles: &[ParticipantProfile]) -> Option<String> {
    let youngest = profiles.iter().map(|p| p.min_age).min().unwrap_or(0);
    Some(Date::parse(travel_date)?.years_before(youngest).to_string())
}

/// What the age adjustment did to one traveller, so that the configurator says it: a
/// birthday typed outside a type's window moves the traveller, it is not silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgeChange {
    /// The traveller's type before, and their rank among that type ("child 2").
    pub was: ParticipantType,
    pub rank: u32,
    /// Their type now; `None` when they were removed (born after the latest date).
    pub now: Option<ParticipantType>,
}

/// The spec's age adjustment on the travel date: a baby of children's age becomes a child,
/// a child of adult's age an adult, a child of baby's age a baby; anyone born after
/// [`latest_birthday`] is dropped. Other participants (no or invalid birthday, other
/// mismatches) stay as they are; order is kept. Unchanged for an invalid travel date.
pub fn adjust_ages(
    participants: &[Participant],
    travel_date: &str,
    profiles: &[ParticipantProfile],
) -> Vec<Participant> {
    adjust_ages_said(participants, travel_date, profiles).0
}

/// [`adjust_ages`], with each change it made.
pub fn adjust_ages_said(
    participants: &[Participant],
    travel_date: &str,
    profiles: &[ParticipantProfile],
) -> (Vec<Participant>, Vec<AgeChange>) {
    let Some(latest) = latest_birthday(travel_date, profiles)
        .as_deref()
        .and_then(Date::parse)
    else {
        return (participants.to_vec(), Vec::new());
    };
    let mut ranks = [0u32; 3];
    let mut changes = Vec::new();
    let mut kept = Vec::with_capacity(participants.len());
    for p in participants {
        use ParticipantType::{Adults, Babies, Children};
        let rank = {
            let slot = &mut ranks[p.kind as usize];
            *slot += 1;
            *slot
        };
        let born = p.birthday.as_deref().and_then(Date::parse);
        if born.is_some_and(|b| b > latest) {
            changes.push(AgeChange {
                was: p.kind,
                rank,
                now: None,
            });
            continue;
        }
        let category = p
            .birthday
            .as_deref()
            .and_then(|b| age_category(b, travel_date, profiles));
        let kind = match (p.kind, category) {
            (Babies, Some(Children)) => Children,
            (Children, Some(Adults)) => Adults,
            (Children, Some(Babies)) => Babies,
            (kind, _) => kind,
        };
        if kind != p.kind {
            changes.push(AgeChange {
                was: p.kind,
                rank,
                now: Some(kind),
            });
        }
        kept.push(Participant {
            kind,
            birthday: p.birthday.clone(),
        });
    }
    (kept, changes)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{person, profiles, rules_table};
    use super::*;
    use ParticipantType::{Adults, Babies, Children};

    fn counts(adults: u32, children: u32, babies: u32) -> PartyCounts {
        PartyCounts {
            adults,
            children,
            babies,
        }
    }

    fn kinds(ps: &[Participant]) -> Vec<ParticipantType> {
        ps.iter().map(|p| p.kind).collect()
    }

    #[test]
    fn a_traveller_is_numbered_among_their_profile() {
        assert_eq!(
            traveller_labels([Adults, Children, Adults, Babies, Children]),
            vec![
                ("travel.party.adult_n", 1),
                ("travel.party.child_n", 1),
                ("travel.party.adult_n", 2),
                ("travel.party.baby_n", 1),
                ("travel.party.child_n", 2),
            ]
        );
    }

    fn headcount(n: u32) -> ParticipantRules {
        ParticipantRules {
            min: n,
            max: n,
            rules: BTreeMap::new(),
            profiles: profiles(),
        }
    }

    #[test]
    fn without_rules_the_party_is_two_adults() {
        let none = ParticipantRules::default();
        assert_eq!(kinds(&initial_participants(&none)), [Adults, Adults]);
        assert!(initial_participants(&none)
            .iter()
            .all(|p| p.birthday.is_none()));
        assert!(!can_add(&none, counts(2, 0, 0), Adults));
        assert!(!can_remove(&none, counts(2, 0, 0), Adults));
        assert!(party_allowed(&none, counts(2, 0, 0)));
        // A head count of 1 caps the default party.
        assert_eq!(kinds(&initial_participants(&headcount(1))), [Adults]);
        assert_eq!(
            kinds(&initial_participants(&headcount(4))),
            [Adults, Adults]
        );
    }

    #[test]
    fn with_rules_the_party_starts_at_the_first_key_of_two_or_more() {
        let rules = rules_table(&[(1, 0, &[0, 1]), (2, 0, &[0, 1]), (2, 1, &[0]), (3, 0, &[0])]);
        assert_eq!(kinds(&initial_participants(&rules)), [Adults, Adults]);
        let from_three = rules_table(&[(1, 0, &[0]), (3, 1, &[1, 0])]);
        assert_eq!(
            kinds(&initial_participants(&from_three)),
            [Adults, Adults, Adults, Children]
        );
        let solo = rules_table(&[(1, 0, &[0]), (1, 1, &[0])]);
        assert_eq!(kinds(&initial_participants(&solo)), [Adults]);
    }

    #[test]
    fn the_rules_table_decides_additions_and_removals() {
        let rules = rules_table(&[(1, 0, &[0, 1]), (1, 1, &[0]), (2, 0, &[0, 1]), (2, 1, &[0])]);
        // Next keys exist.
        assert!(can_add(&rules, counts(1, 0, 0), Adults));
        assert!(can_add(&rules, counts(1, 0, 0), Children));
        assert!(can_add(&rules, counts(1, 0, 0), Babies));
        // Next keys missing.
        assert!(!can_add(&rules, counts(2, 0, 0), Adults));
        assert!(!can_add(&rules, counts(2, 1, 0), Children));
        assert!(!can_add(&rules, counts(2, 0, 1), Babies));
        assert!(!can_add(&rules, counts(2, 0, 1), Children));
        // Previous keys.
        assert!(can_remove(&rules, counts(2, 1, 0), Adults));
        assert!(can_remove(&rules, counts(2, 1, 0), Children));
        assert!(can_remove(&rules, counts(1, 0, 1), Babies));
        assert!(!can_remove(&rules, counts(1, 0, 0), Adults));
        assert!(!can_remove(&rules, counts(1, 0, 0), Children));
        assert!(party_allowed(&rules, counts(2, 1, 0)));
        assert!(!party_allowed(&rules, counts(2, 1, 1)));
        // Out of the table (say, after a child turned into a baby), removals lead back.
        assert!(can_remove(&rules, counts(2, 1, 1), Children));
        assert!(can_remove(&rules, counts(2, 1, 1), Babies));
        assert!(can_remove(&rules, counts(2, 1, 1), Adults));
    }

    #[test]
    fn additions_need_the_profile_of_their_type() {
        let mut rules = rules_table(&[(2, 0, &[0, 1]), (2, 1, &[0, 1])]);
        rules.profiles.retain(|p| p.kind == Adults);
        assert!(!can_add(&rules, counts(2, 0, 0), Children));
        assert!(!can_add(&rules, counts(2, 0, 0), Babies));
        let mut no_babies = headcount(4);
        no_babies.profiles.retain(|p| p.kind != Babies);
        assert!(can_add(&no_babies, counts(2, 0, 0), Children));
        assert!(!can_add(&no_babies, counts(2, 0, 0), Babies));
    }

    #[test]
    fn with_min_equal_to_max_only_the_head_count_matters() {
        let rules = headcount(3);
        assert!(can_add(&rules, counts(2, 0, 0), Adults));
        assert!(can_add(&rules, counts(1, 1, 0), Babies));
        assert!(!can_add(&rules, counts(2, 1, 0), Adults));
        assert!(!can_add(&rules, counts(1, 1, 1), Children));
        assert!(party_allowed(&rules, counts(0, 0, 0)));
        assert!(party_allowed(&rules, counts(1, 1, 1)));
        assert!(!party_allowed(&rules, counts(2, 1, 1)));
        // Removing: one of that type must be there, adults stay above the first key (1).
        assert!(can_remove(&rules, counts(2, 1, 0), Adults));
        assert!(!can_remove(&rules, counts(1, 1, 0), Adults));
        assert!(can_remove(&rules, counts(1, 1, 0), Children));
        assert!(!can_remove(&rules, counts(1, 0, 0), Babies));
        // With a table, its first key is the adults floor.
        let mut keyed = rules_table(&[(2, 0, &[0]), (3, 0, &[0])]);
        keyed.min = 3;
        keyed.max = 3;
        assert!(!can_remove(&keyed, counts(2, 1, 0), Adults));
        assert!(can_remove(&keyed, counts(3, 0, 0), Adults));
    }

    #[test]
    fn birthday_bounds_follow_min_and_max_age() {
        let p = profiles();
        let children = p.iter().find(|p| p.kind == Children).unwrap();
        assert_eq!(
            birthday_bounds(children, "2027-03-10"),
            Some(("2015-03-11".into(), "2025-03-10".into()))
        );
        let babies = p.iter().find(|p| p.kind == Babies).unwrap();
        assert_eq!(
            birthday_bounds(babies, "2028-02-29"),
            Some(("2026-03-01".into(), "2028-02-29".into()))
        );
        assert_eq!(
            latest_birthday("2027-03-10", &p).as_deref(),
            Some("2027-03-10")
        );
        assert_eq!(birthday_bounds(babies, "2027-02-30"), None);
    }

    #[test]
    fn age_adjustment_moves_participants_between_types() {
        let p = profiles();
        let party = [
            person(Adults, None),
            person(Babies, Some("2024-01-01")), // 3 on the travel date: a child
            person(Children, Some("2010-01-01")), // 17: an adult
            person(Children, Some("2026-01-01")), // 1: a baby
            person(Children, Some("2020-01-01")), // 7: stays a child
            person(Babies, Some("2026-06-01")), // stays a baby
            person(Children, None),             // no birthday yet: stays
        ];
        let adjusted = adjust_ages(&party, "2027-03-10", &p);
        assert_eq!(
            kinds(&adjusted),
            [Adults, Children, Adults, Babies, Children, Babies, Children]
        );
        assert_eq!(adjusted[1].birthday.as_deref(), Some("2024-01-01"));
        assert_eq!(adjust_ages(&party, "2027-3-10", &p), party.to_vec());
        // Each move is said, naming the traveller as the form did ("child 2").
        let (_, changes) = adjust_ages_said(&party, "2027-03-10", &p);
        let said = |was, rank, now| AgeChange { was, rank, now };
        assert_eq!(
            changes,
            [
                said(Babies, 1, Some(Children)),
                said(Children, 1, Some(Adults)),
                said(Children, 2, Some(Babies)),
            ]
        );
        assert!(adjust_ages_said(&adjusted, "2027-03-10", &p).1.is_empty());
    }

    #[test]
    fn age_adjustment_drops_those_born_after_the_latest_date() {
        let party = [
            person(Adults, None),
            person(Babies, Some("2027-03-11")),
            person(Babies, Some("2027-03-10")),
            person(Children, Some("2026-12-01")),
        ];
        let adjusted = adjust_ages(&party, "2027-03-10", &profiles());
        assert_eq!(kinds(&adjusted), [Adults, Babies, Babies]);
        assert_eq!(adjusted[1].birthday.as_deref(), Some("2027-03-10"));
        let (_, changes) = adjust_ages_said(&party, "2027-03-10", &profiles());
        let said = |was, rank, now| AgeChange { was, rank, now };
        assert_eq!(
            changes,
            [said(Babies, 1, None), said(Children, 1, Some(Babies))]
        );
        // Without a baby profile the youngest allowed is 2: younger ones are dropped.
        let mut no_babies = profiles();
        no_babies.retain(|p| p.kind != Babies);
        let adjusted = adjust_ages(&party, "2027-03-10", &no_babies);
        assert_eq!(kinds(&adjusted), [Adults]);
    }
}
