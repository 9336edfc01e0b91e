//! The brand filter's groups (spec 000 §3 brand filters: groups with sections): a long list
//! of brands is split by initial letter, accents aside (Émile is under E), with names that
//! start otherwise (a digit, a sign) under `#`, last.
use crate::model::catalog_api::{FilterGroup, FilterOption};

/// From this many brands the filter comes in sections; a shorter list reads at a glance.
pub const SECTIONED_FROM: usize = 8;

/// The section of a brand name: its first letter, upper case and without accent, or `#`.
pub fn section_of(name: &str) -> String {
    crate::text::fold::fold(name.trim())
        .chars()
        .next()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_uppercase().to_string())
        .unwrap_or_else(|| "#".to_string())
}

/// The options' groups, A to Z then `#`, each option (by id) in its section in the order
/// given; none below [`SECTIONED_FROM`] options.
pub fn brand_groups(options: &[FilterOption]) -> Vec<FilterGroup> {
    if options.len() < SECTIONED_FROM {
        return Vec::new();
    }
    let mut groups: Vec<FilterGroup> = Vec::new();
    for o in options {
        let section = section_of(&o.name);
        match groups.iter_mut().find(|g| g.section == section) {
            Some(g) => g.options.push(o.id.clone()),
            None => groups.push(FilterGroup {
                section,
                options: vec![o.id.clone()],
            }),
        }
    }
    groups.sort_by(|a, b| (a.section == "#", &a.section).cmp(&(b.section == "#", &b.section)));
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(name: &str) -> FilterOption {
        FilterOption {
            id: crate::text::slug::slug(name),
            label: name.to_string(),
            name: name.to_string(),
            slug: crate::text::slug::slug(name),
            count: 1,
        }
    }

    #[test]
    fn sections_are_initials_accents_aside() {
        assert_eq!(section_of("Émile"), "E");
        assert_eq!(section_of("  noa"), "N");
        assert_eq!(section_of("7 Jours"), "#");
        assert_eq!(section_of(""), "#");
        assert_eq!(section_of("Œillet"), "O");
    }

    #[test]
    fn a_short_list_has_no_groups() {
        let few: Vec<FilterOption> = ["Arlo", "Bleu", "Cala"].map(option).to_vec();
        assert!(brand_groups(&few).is_empty());
    }

    #[test]
    fn a_long_list_is_grouped_a_to_z_then_the_rest() {
        let names = [
            "Zéphyr", "arlo", "Atelier", "Émile", "7 Jours", "Bleu", "Boréal", "Cala",
        ];
        let options: Vec<FilterOption> = names.map(option).to_vec();
        let groups = brand_groups(&options);
        let sections: Vec<&str> = groups.iter().map(|g| g.section.as_str()).collect();
        assert_eq!(sections, ["A", "B", "C", "E", "Z", "#"]);
        assert_eq!(groups[0].options, ["arlo", "atelier"]);
        assert_eq!(groups[1].options, ["bleu", "boreal"]);
        let all: usize = groups.iter().map(|g| g.options.len()).sum();
        assert_eq!(all, names.len(), "every option in one group");
    }
}
