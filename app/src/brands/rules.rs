//! The brands place's pure rules: the index letter of a brand, the A–Z grouping and the
//! search match (accent- and case-blind, the one fold every text rule uses).
use crate::text::fold::fold;

/// The letter a brand is listed under: its first letter without accent, `#` for a digit
/// or anything else.
pub fn index_letter(name: &str) -> char {
    match fold(name.trim()).chars().next() {
        Some(c) if c.is_ascii_lowercase() => c.to_ascii_uppercase(),
        _ => '#',
    }
}

/// Whether a brand's name matches a search: every word of the query is in the name.
pub fn matches(name: &str, query: &str) -> bool {
    let name = fold(name);
    fold(query).split_whitespace().all(|w| name.contains(w))
}

/// A search as the page keeps it: trimmed, at most 60 characters.
pub fn clean_query(raw: &str) -> String {
    raw.trim().chars().take(60).collect()
}

/// Brands by letter, letters in order (`#` last), brands by folded name within a letter.
pub fn by_letter<T>(items: Vec<T>, name: impl Fn(&T) -> &str) -> Vec<(char, Vec<T>)> {
    let mut keyed: Vec<(char, String, T)> = items
        .into_iter()
        .map(|t| (index_letter(name(&t)), fold(name(&t)), t))
        .collect();
    keyed.sort_by(|a, b| {
        let rank = |c: char| if c == '#' { 1 } else { 0 };
        (rank(a.0), a.0, &a.1).cmp(&(rank(b.0), b.0, &b.1))
    });
    let mut groups: Vec<(char, Vec<T>)> = Vec::new();
    for (letter, _, t) in keyed {
        match groups.last_mut() {
            Some((l, list)) if *l == letter => list.push(t),
            _ => groups.push((letter, vec![t])),
        }
    }
    groups
}

/// The index: every letter A–Z and `#`, with whether any brand is listed under it.
pub fn index(letters: &[char]) -> Vec<(char, bool)> {
    ('A'..='Z')
        .chain(std::iter::once('#'))
        .map(|c| (c, letters.contains(&c)))
        .collect()
}

/// The anchor id of a letter's section.
pub fn anchor(letter: char) -> String {
    if letter == '#' {
        "brands-other".into()
    } else {
        format!("brands-{letter}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_fold_accents_and_group_the_rest() {
        assert_eq!(index_letter("Léna Paris"), 'L');
        assert_eq!(index_letter("  écume"), 'E');
        assert_eq!(index_letter("Ørsted"), 'O');
        assert_eq!(index_letter("3 Suisses"), '#');
        assert_eq!(index_letter(""), '#');
    }

    #[test]
    fn search_is_accent_and_case_blind() {
        assert!(matches("Léna Paris", "lena"));
        assert!(matches("Léna Paris", "PARIS léna"));
        assert!(!matches("Léna Paris", "lena rome"));
        assert!(matches("Kira", ""));
    }

    #[test]
    fn queries_are_trimmed_and_capped() {
        assert_eq!(clean_query("  kira "), "kira");
        assert_eq!(clean_query(&"x".repeat(100)).len(), 60);
    }

    #[test]
    fn brands_are_grouped_a_to_z_then_other() {
        let names = vec![
            "vento",
            "Atelier Nuit",
            "3 Suisses",
            "Élan",
            "alpha",
            "Bellamare",
        ];
        let groups = by_letter(names, |n| n);
        let letters: Vec<char> = groups.iter().map(|g| g.0).collect();
        assert_eq!(letters, vec!['A', 'B', 'E', 'V', '#']);
        assert_eq!(groups[0].1, vec!["alpha", "Atelier Nuit"]);
        let idx = index(&letters);
        assert_eq!(idx.len(), 27);
        assert_eq!(idx[0], ('A', true));
        assert_eq!(idx[2], ('C', false));
        assert_eq!(idx[26], ('#', true));
        assert_eq!(anchor('#'), "brands-other");
        assert_eq!(anchor('K'), "brands-K");
    }
}
