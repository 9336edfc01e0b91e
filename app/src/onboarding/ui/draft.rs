//! What a refused birth-date popin keeps (`ui::draft` is the codec): the date as typed and
//! the reason it was refused, so the popin comes back with both instead of empty.
use crate::ui::draft::FormDraft;

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PopinDraft {
    pub birth_date: String,
    /// A message key of the birth-date rule (`account::rules::check_birth_date`).
    pub error: String,
}

/// Longer than any date; a cookie stays small whatever was posted.
const VALUE_MAX: usize = 40;

impl PopinDraft {
    pub fn new(birth_date: &str, error: &str) -> PopinDraft {
        PopinDraft {
            birth_date: birth_date.to_string(),
            error: error.to_string(),
        }
    }
}

impl FormDraft for PopinDraft {
    const COOKIE: &'static str = "rosace_popin_form";

    fn trimmed(&self) -> Self {
        PopinDraft {
            birth_date: crate::ui::draft::cut(&self.birth_date, VALUE_MAX),
            error: self.error.clone(),
        }
    }

    fn checked(mut self) -> Self {
        // Only the birth-date rule's messages, whatever the cookie says.
        if !self.error.starts_with("myprofile.errors.birthdate") {
            self.error = "myprofile.errors.birthdate_invalid".into();
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::draft::{decode, encode};

    #[test]
    fn a_refused_date_comes_back_with_a_known_message_only() {
        let draft = PopinDraft::new("31/02/1990", "myprofile.errors.birthdate_invalid");
        assert_eq!(decode::<PopinDraft>(&encode(&draft)), Some(draft));
        let forged = PopinDraft::new("x", "<script>");
        assert_eq!(
            decode::<PopinDraft>(&encode(&forged)).unwrap().error,
            "myprofile.errors.birthdate_invalid"
        );
        let long = PopinDraft::new(&"9".repeat(500), "myprofile.errors.birthdate_future");
        assert_eq!(
            decode::<PopinDraft>(&encode(&long))
                .unwrap()
                .birth_date
                .len(),
            VALUE_MAX
        );
    }
}
