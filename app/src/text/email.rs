//! The email format of spec 000 §5, shared by every form (and by the React widget's twin).

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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Vectors {
        valid: Vec<String>,
        invalid: Vec<String>,
    }

    /// Same vectors as the React widget's test (principle: one rule, one set of cases).
    #[test]
    fn email_rule_matches_the_shared_vectors() {
        let v: Vectors =
            serde_json::from_str(include_str!("../../tests/vectors/email.json")).unwrap();
        for e in &v.valid {
            assert!(is_valid_email(e), "should accept {e:?}");
        }
        for e in &v.invalid {
            assert!(!is_valid_email(e), "should refuse {e:?}");
        }
    }
}
