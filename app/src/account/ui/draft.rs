//! A form refused without scripts comes back filled in with its messages: the form target
//! keeps them for five minutes in an HttpOnly cookie scoped to `/myaccount` (not in the
//! address, where personal data would reach histories and logs), and the page reads it
//! when the redirect says `?retry=1`. Passwords are never kept.

pub const COOKIE: &str = "rosace_account_form";
/// The cookie's path: every page of this area lives under it (without the `/gr` prefix,
/// which the form target's redirects never use).
pub const COOKIE_PATH: &str = "/myaccount";

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Draft {
    /// `profile` or `email`: which form the values and messages belong to.
    pub form: String,
    /// (input name, value) pairs.
    pub values: Vec<(String, String)>,
    /// (field, message key) pairs.
    pub errors: Vec<(String, String)>,
}

/// Longest value a draft keeps per field: enough for any real input, small for a cookie.
const VALUE_MAX: usize = 120;

impl Draft {
    pub fn new(form: &str, values: &[(&str, &str)], errors: Vec<(String, String)>) -> Draft {
        Draft {
            form: form.into(),
            values: values
                .iter()
                .map(|(k, v)| ((*k).into(), v.chars().take(VALUE_MAX).collect()))
                .collect(),
            errors,
        }
    }

    pub fn value(&self, form: &str, name: &str) -> Option<String> {
        (self.form == form)
            .then(|| {
                self.values
                    .iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.clone())
            })
            .flatten()
    }

    pub fn error(&self, form: &str, field: &str) -> Option<String> {
        (self.form == form)
            .then(|| {
                self.errors
                    .iter()
                    .find(|(f, _)| f == field)
                    .map(|(_, k)| k.clone())
            })
            .flatten()
    }

    pub fn has_errors(&self, form: &str) -> bool {
        self.form == form && !self.errors.is_empty()
    }

    /// As a cookie value (JSON, percent-encoded: cookie-safe).
    pub fn encode(&self) -> String {
        crate::routes::encode_query_value(&serde_json::to_string(self).unwrap_or_default())
    }

    pub fn decode(value: &str) -> Option<Draft> {
        let mut d: Draft = serde_json::from_str(&percent_decode(value)?).ok()?;
        // Only messages of these forms, whatever the cookie says.
        d.errors.retain(|(_, k)| {
            ["myprofile.", "auth.email.", "auth.password."]
                .iter()
                .any(|p| k.starts_with(p))
        });
        Some(d)
    }
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The draft of this request, when the page was reached by a refused post.
pub fn read() -> Draft {
    #[cfg(feature = "ssr")]
    {
        use leptos::prelude::use_context;
        let Some(parts) = use_context::<axum::http::request::Parts>() else {
            return Draft::default();
        };
        let retry = parts
            .uri
            .query()
            .is_some_and(|q| q.split('&').any(|p| p == "retry=1"));
        if !retry {
            return Draft::default();
        }
        parts
            .headers
            .get_all(axum::http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().strip_prefix(COOKIE)?.strip_prefix('='))
            .find_map(Draft::decode)
            .unwrap_or_default()
    }
    #[cfg(not(feature = "ssr"))]
    Draft::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafts_round_trip_cookie_safe_and_keep_only_form_messages() {
        let d = Draft::new(
            "profile",
            &[
                ("firstName", "Zoé; Γιώργος 🌹"),
                ("phone", &"9".repeat(500)),
            ],
            vec![
                ("NAME".into(), "myprofile.errors.name".into()),
                ("NAME".into(), "<script>".into()),
            ],
        );
        let encoded = d.encode();
        assert!(!encoded.contains(';') && !encoded.contains(' ') && !encoded.contains(','));
        let back = Draft::decode(&encoded).unwrap();
        assert_eq!(
            back.value("profile", "firstName").unwrap(),
            "Zoé; Γιώργος 🌹"
        );
        assert_eq!(back.value("profile", "phone").unwrap().len(), VALUE_MAX);
        assert_eq!(
            back.value("email", "firstName"),
            None,
            "another form's values stay"
        );
        assert_eq!(
            back.error("profile", "NAME").unwrap(),
            "myprofile.errors.name"
        );
        assert_eq!(back.errors.len(), 1);
        assert_eq!(Draft::decode("%zz"), None);
        assert_eq!(Draft::decode("not json"), None);
    }
}
