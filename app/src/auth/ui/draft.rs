//! What a refused registration keeps (`ui::draft` is the codec): everything typed but the
//! password, and every error with its field, so the form comes back as it was left with
//! each message by its field.
use serde::{Deserialize, Serialize};

use crate::model::error::FieldError;
use crate::ui::draft::{cut, FormDraft};

/// The registration form's fields that can carry an error, in form order.
pub const FIELDS: [&str; 13] = [
    "email",
    "password",
    "civility",
    "firstName",
    "lastName",
    "birthDate",
    "zipCode",
    "city",
    "countryCode",
    "occupation",
    "sponsorshipCode",
    "cgv",
    "privacyPolicy",
];

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    pub email: String,
    pub civility: Option<u8>,
    pub first_name: String,
    pub last_name: String,
    pub birth_date: String,
    pub zip_code: String,
    pub city: String,
    #[serde(default)]
    pub country_code: String,
    #[serde(default)]
    pub occupation: Option<i64>,
    pub sponsorship_code: String,
    pub cgv: bool,
    pub privacy_policy: bool,
    pub optin_partner: bool,
    pub errors: Vec<FieldError>,
}

impl Draft {
    /// The message key beside `field`, if it is faulty.
    pub fn error(&self, field: &str) -> Option<String> {
        self.errors
            .iter()
            .find(|e| e.field == field)
            .map(|e| e.message_key.clone())
    }

    /// The first faulty field in form order: it takes the focus.
    pub fn first_faulty(&self) -> Option<&'static str> {
        FIELDS.into_iter().find(|f| self.error(f).is_some())
    }
}

impl FormDraft for Draft {
    const COOKIE: &'static str = "rosace_registration_form";

    fn trimmed(&self) -> Self {
        let mut d = self.clone();
        d.email = cut(&d.email, 254);
        d.first_name = cut(&d.first_name, 70);
        d.last_name = cut(&d.last_name, 70);
        d.birth_date = cut(&d.birth_date, 12);
        d.zip_code = cut(&d.zip_code, 12);
        d.city = cut(&d.city, 70);
        d.country_code = cut(&d.country_code, 2);
        d.sponsorship_code = cut(&d.sponsorship_code, 40);
        d.errors.truncate(FIELDS.len());
        d
    }

    /// Only this form's fields, and messages the sign-in pages may show.
    fn checked(mut self) -> Self {
        self.errors.retain(|e| {
            FIELDS.contains(&e.field.as_str())
                && crate::auth::rules::page_message_key(&e.message_key).is_some()
        });
        self
    }
}

/// The draft of this request, when the page was reached by a refused registration.
pub fn read() -> Option<Draft> {
    crate::ui::draft::read()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draft_keeps_what_was_typed_and_only_known_messages() {
        let d = Draft {
            email: "zoe@example.com".into(),
            civility: Some(2),
            first_name: "Jean-Pierre".into(),
            last_name: "x".repeat(5_000),
            birth_date: "14/07/1989".into(),
            cgv: true,
            errors: vec![
                FieldError {
                    field: "zipCode".into(),
                    message_key: "auth.zipcode.invalid".into(),
                },
                FieldError {
                    field: "firstName".into(),
                    message_key: "auth.name.invalid".into(),
                },
                FieldError {
                    field: "lastName".into(),
                    message_key: "<script>".into(),
                },
                FieldError {
                    field: "admin".into(),
                    message_key: "auth.error.required".into(),
                },
            ],
            ..Default::default()
        };
        let encoded = crate::ui::draft::encode(&d);
        assert!(encoded.len() < 1500, "{}", encoded.len());
        let back = crate::ui::draft::decode::<Draft>(&encoded).unwrap();
        assert_eq!(back.first_name, "Jean-Pierre");
        assert_eq!(back.civility, Some(2));
        assert!(back.cgv && !back.privacy_policy);
        assert_eq!(back.last_name.chars().count(), 70);
        assert_eq!(back.errors.len(), 2);
        assert_eq!(back.error("lastName"), None);
        assert_eq!(
            back.error("zipCode").as_deref(),
            Some("auth.zipcode.invalid")
        );
        // Form order, not the order the errors came in.
        assert_eq!(back.first_faulty(), Some("firstName"));
    }
}
