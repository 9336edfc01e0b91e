//! A bank form refused without scripts comes back filled in, with its error flags: the
//! form target keeps them for five minutes in a cookie scoped to the wallet page (not in
//! the address, where a bank number would reach histories and logs), and the page reads
//! it once when the redirect says `?retry=1`.
use crate::wallet::rules::BankField;

pub const COOKIE: &str = "rosace_wallet_form";

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Draft {
    pub iban: String,
    pub bic: String,
    pub owner_name: String,
    pub confirmation: bool,
    /// (field, message key) pairs.
    pub errors: Vec<(String, String)>,
}

impl Draft {
    pub fn value(&self, f: BankField) -> String {
        match f {
            BankField::Iban => self.iban.clone(),
            BankField::Bic => self.bic.clone(),
            BankField::OwnerName => self.owner_name.clone(),
            BankField::Confirmation => String::new(),
        }
    }

    /// As a cookie value (JSON, percent-encoded: cookie-safe).
    pub fn encode(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        crate::routes::encode_query_value(&json)
    }

    pub fn decode(value: &str) -> Option<Draft> {
        let json = percent_decode(value)?;
        let mut d: Draft = serde_json::from_str(&json).ok()?;
        // Only messages of this form, whatever the cookie says.
        d.errors
            .retain(|(f, k)| BankField::from_wire(f).is_some() && k.starts_with("wallet.errors."));
        Some(d)
    }
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
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
    fn drafts_round_trip_and_keep_only_form_messages() {
        let d = Draft {
            iban: "DE89 3704; ΔΕ 😀".into(),
            bic: "x".into(),
            owner_name: "O'Neil, Jr.".into(),
            confirmation: true,
            errors: vec![
                ("iban".into(), "wallet.errors.iban_check_digits".into()),
                ("iban".into(), "auth.anything".into()),
                ("nope".into(), "wallet.errors.bic_empty".into()),
            ],
        };
        let encoded = d.encode();
        assert!(!encoded.contains(';') && !encoded.contains(' ') && !encoded.contains(','));
        let back = Draft::decode(&encoded).unwrap();
        assert_eq!(back.iban, d.iban);
        assert_eq!(back.owner_name, d.owner_name);
        assert_eq!(
            back.errors,
            [(
                "iban".to_string(),
                "wallet.errors.iban_check_digits".to_string()
            )]
        );
        assert_eq!(Draft::decode("%zz"), None);
        assert_eq!(Draft::decode("not json"), None);
    }
}
