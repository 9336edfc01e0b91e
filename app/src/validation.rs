//! Input rules of spec 000 §5 shared by every form.

/// Email format (spec 000 §5): `^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$`.
pub fn is_valid_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._%+-".contains(&b));
    let Some((host, tld)) = domain.rsplit_once('.') else {
        return false;
    };
    // The host part may itself contain dots; the regex backtracks to the last dot whose
    // tail is letters only, which is what rsplit_once on a letters-only tail gives.
    local_ok
        && !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        && tld.len() >= 2
        && tld.bytes().all(|b| b.is_ascii_alphabetic())
}

/// The slug rule (spec 000 §5): lower case, no accents, spaces to hyphens, other
/// characters dropped.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().flat_map(char::to_lowercase) {
        let c = match c {
            'à' | 'á' | 'â' | 'ä' | 'ã' | 'å' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            'ß' => {
                out.push_str("ss");
                continue;
            }
            c => c,
        };
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

    #[derive(serde::Deserialize)]
    struct Vectors {
        valid: Vec<String>,
        invalid: Vec<String>,
    }

    /// Same vectors as the React widget's test (principle: one rule, one set of cases).
    #[test]
    fn email_rule_matches_the_shared_vectors() {
        let v: Vectors = serde_json::from_str(include_str!("../tests/vectors/email.json")).unwrap();
        for e in &v.valid {
            assert!(is_valid_email(e), "should accept {e:?}");
        }
        for e in &v.invalid {
            assert!(!is_valid_email(e), "should refuse {e:?}");
        }
    }
}
