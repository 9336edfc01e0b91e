//! What a refused account form keeps (`ui::draft` is the codec): which form, what was
//! typed, each field's message. Passwords are never kept.
use crate::ui::draft::FormDraft;

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
}

impl FormDraft for Draft {
    const COOKIE: &'static str = "rosace_account_form";

    /// Values were cut when the draft was made (`Draft::new`).
    fn trimmed(&self) -> Self {
        self.clone()
    }

    fn checked(mut self) -> Self {
        // Only messages of these forms, whatever the cookie says.
        self.errors.retain(|(_, k)| {
            [
                "myprofile.",
                "auth.email.",
                "auth.password.",
                "reauth.error.",
            ]
            .iter()
            .any(|p| k.starts_with(p))
        });
        self
    }
}

/// The draft of this request, when the page was reached by a refused post.
pub fn read() -> Draft {
    crate::ui::draft::read().unwrap_or_default()
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
        let encoded = crate::ui::draft::encode(&d);
        assert!(!encoded.contains(';') && !encoded.contains(' ') && !encoded.contains(','));
        let back = crate::ui::draft::decode::<Draft>(&encoded).unwrap();
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
    }
}
