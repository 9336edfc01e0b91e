//! The slug rule of spec 000 §5: lower case, no accents, spaces to hyphens, other
//! characters dropped. Accents go through the one fold of `text::fold`.
use crate::text::fold::fold;

/// The slug of a name: `Maison & Déco` -> `maison-deco`.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in fold(s).chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if (c == ' ' || c == '-') && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_rule_of_the_spec() {
        assert_eq!(slug("Maison & Déco"), "maison-deco");
        assert_eq!(slug("Léna Paris · Mode femme"), "lena-paris-mode-femme");
        assert_eq!(slug("  Écharpe  été! "), "echarpe-ete");
        assert_eq!(slug("Größe XL"), "grosse-xl");
    }

    /// Slugs and search fold letters the same way (they used to disagree on `æ`).
    #[test]
    fn slugs_fold_like_search() {
        assert_eq!(slug("Cæsar Øre"), "caesar-ore");
        assert_eq!(slug("Łódź"), "lodz");
    }
}
