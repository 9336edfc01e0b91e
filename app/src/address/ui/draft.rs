//! An address form refused without scripts comes back filled in, with its errors: the form
//! target keeps them five minutes in an HttpOnly cookie scoped to the page the form came
//! from (not in the URL, where a home address would reach histories and logs), and that
//! page reads it when the redirect says `?retry=1`.
use serde::{Deserialize, Serialize};

use crate::address::model::{AddressFieldError, AddressRequest};
use crate::address::rules::{error_message, field_errors, AddressField, ErrorMessage};

pub const COOKIE: &str = "rosace_address_form";
/// How long a refused form is kept for the page to show it again.
pub const MAX_AGE_SECS: i64 = 300;

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

    /// As a cookie value (JSON, percent-encoded), with each value cut to what the form
    /// accepts so the cookie stays small whatever was posted.
    pub fn encode(&self) -> String {
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
        let json = serde_json::to_string(&d).unwrap_or_default();
        crate::routes::encode_query_value(&json)
    }

    pub fn decode(value: &str) -> Option<Draft> {
        let json = percent_decode(value)?;
        serde_json::from_str(&json).ok()
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

/// Whether a page's query says it was reached by a refused post (`retry=1`): it then shows
/// the draft. Pages that do are rendered for the request, never from a shared template.
pub fn is_retry(query: Option<&str>) -> bool {
    query.is_some_and(|q| q.split('&').any(|p| p == "retry=1"))
}

/// The draft of this request, when the page was reached by a refused post.
pub fn read() -> Option<Draft> {
    #[cfg(feature = "ssr")]
    {
        use leptos::prelude::use_context;
        let parts = use_context::<axum::http::request::Parts>()?;
        if !is_retry(parts.uri.query()) {
            return None;
        }
        parts
            .headers
            .get_all(axum::http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().strip_prefix(COOKIE)?.strip_prefix('='))
            .find_map(Draft::decode)
    }
    #[cfg(not(feature = "ssr"))]
    None
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
        let encoded = d.encode();
        assert!(!encoded.contains(';') && !encoded.contains(' ') && !encoded.contains(','));
        assert!(encoded.len() < 2000);
        let back = Draft::decode(&encoded).unwrap();
        assert_eq!(back.request.first_name, d.request.first_name);
        assert_eq!(back.request.id, Some(7));
        assert_eq!(back.request.city.chars().count(), 50);
        assert_eq!(back.message(), Some((ErrorMessage::ForbiddenZip, None)));
        assert_eq!(
            back.field_error(AddressField::ZipCode).as_deref(),
            Some("address.errors.zip_forbidden")
        );
        assert_eq!(back.field_error(AddressField::City), None);
        assert_eq!(Draft::decode("%zz"), None);
        let failed = Draft {
            failure_key: Some("anything.else".into()),
            ..Default::default()
        };
        assert_eq!(failed.message(), Some((ErrorMessage::NotSaved, None)));
    }
}
