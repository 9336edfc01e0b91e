//! What a refused address form keeps (`ui::draft` is the codec): the request as typed, its
//! errors, or why the save failed; scoped to the page the form came from.
use serde::{Deserialize, Serialize};

use crate::ui::draft::FormDraft;

use crate::address::model::{AddressFieldError, AddressRequest};
use crate::address::rules::{error_message, field_errors, AddressField, ErrorMessage};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    pub request: AddressRequest,
    pub errors: Vec<AddressFieldError>,
    /// The save failed without faulty fields (`errors.address.not_saved.notification` or
    /// the address limit).
    pub failure_key: Option<String>,
}

impl Draft {
    pub fn is_refused(&self) -> bool {
        !self.errors.is_empty() || self.failure_key.is_some()
    }

    /// The message above the form (spec 001 §5), with its key.
    pub fn message(&self) -> Option<(ErrorMessage, Option<&'static str>)> {
        if !self.errors.is_empty() {
            return Some((error_message(&self.errors), None));
        }
        let key = self.failure_key.as_deref()?;
        let known = ["address.errors.limit", "errors.general_retry.notification"]
            .into_iter()
            .find(|k| *k == key);
        Some((ErrorMessage::NotSaved, known))
    }

    /// The message key beside one field, if it is faulty.
    pub fn field_error(&self, field: AddressField) -> Option<String> {
        field_errors(&self.errors)
            .into_iter()
            .find(|e| e.field == field.wire())
            .map(|e| e.message_key)
    }

    pub fn value(&self, field: AddressField) -> String {
        let r = &self.request;
        match field {
            AddressField::FirstName => r.first_name.clone(),
            AddressField::LastName => r.last_name.clone(),
            AddressField::Details => r.details.clone(),
            AddressField::Extras => r.extras.clone(),
            AddressField::ZipCode => r.zip_code.clone(),
            AddressField::City => r.city.clone(),
            AddressField::Country => r.country.clone(),
            AddressField::Phone => r.phone.clone(),
        }
    }
}

impl FormDraft for Draft {
    const COOKIE: &'static str = "rosace_address_form";

    /// Each value cut to what the form accepts.
    fn trimmed(&self) -> Self {
        let mut d = self.clone();
        let cut = |s: &mut String, n: usize| *s = s.chars().take(n).collect();
        let r = &mut d.request;
        cut(&mut r.first_name, AddressField::FirstName.max_length() + 10);
        cut(&mut r.last_name, AddressField::LastName.max_length() + 10);
        cut(&mut r.details, AddressField::Details.max_length() + 10);
        cut(&mut r.extras, AddressField::Extras.max_length() + 10);
        cut(&mut r.zip_code, AddressField::ZipCode.max_length() + 4);
        cut(&mut r.city, AddressField::City.max_length() + 10);
        cut(&mut r.country, 4);
        cut(&mut r.phone, AddressField::Phone.max_length() + 4);
        d.errors.truncate(8);
        d
    }

    /// The page shows known messages only (`message`, `field_error`).
    fn checked(self) -> Self {
        self
    }
}

/// The draft of this request, when the page was reached by a refused post.
pub fn read() -> Option<Draft> {
    crate::ui::draft::read()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafts_round_trip_cut_and_choose_their_message() {
        let d = Draft {
            request: AddressRequest {
                id: Some(7),
                first_name: "Zoë; O'Neil 😀".into(),
                city: "x".repeat(10_000),
                zip_code: "97400".into(),
                ..Default::default()
            },
            errors: vec![AddressFieldError {
                field_type: "zipCode".into(),
                error_type: 4,
            }],
            failure_key: None,
        };
        let encoded = crate::ui::draft::encode(&d);
        assert!(!encoded.contains(';') && !encoded.contains(' ') && !encoded.contains(','));
        assert!(encoded.len() < 2000);
        let back = crate::ui::draft::decode::<Draft>(&encoded).unwrap();
        assert_eq!(back.request.first_name, d.request.first_name);
        assert_eq!(back.request.id, Some(7));
        assert_eq!(back.request.city.chars().count(), 50);
        assert_eq!(back.message(), Some((ErrorMessage::ForbiddenZip, None)));
        assert_eq!(
            back.field_error(AddressField::ZipCode).as_deref(),
            Some("address.errors.zip_forbidden")
        );
        assert_eq!(back.field_error(AddressField::City), None);
        let failed = Draft {
            failure_key: Some("anything.else".into()),
            ..Default::default()
        };
        assert_eq!(failed.message(), Some((ErrorMessage::NotSaved, None)));
    }
}
