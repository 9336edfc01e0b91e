//! What a refused bank form keeps (`ui::draft` is the codec): what was typed and each
//! field's message; a bank number never goes into the address.
use crate::ui::draft::{cut, FormDraft};
use crate::wallet::rules::BankField;

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
}

impl FormDraft for Draft {
    const COOKIE: &'static str = "rosace_wallet_form";

    fn trimmed(&self) -> Self {
        Draft {
            iban: cut(&self.iban, 64),
            bic: cut(&self.bic, 16),
            owner_name: cut(&self.owner_name, 80),
            confirmation: self.confirmation,
            errors: self.errors.iter().take(8).cloned().collect(),
        }
    }

    fn checked(mut self) -> Self {
        // Only messages of this form, whatever the cookie says.
        self.errors.retain(|(f, k)| {
            (BankField::from_wire(f).is_some() && k.starts_with("wallet.errors."))
                || (f == crate::auth::ui::reauth::FIELD && k.starts_with("reauth.error."))
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
        let encoded = crate::ui::draft::encode(&d);
        assert!(!encoded.contains(';') && !encoded.contains(' ') && !encoded.contains(','));
        let back = crate::ui::draft::decode::<Draft>(&encoded).unwrap();
        assert_eq!(back.iban, d.iban);
        assert_eq!(back.owner_name, d.owner_name);
        assert_eq!(
            back.errors,
            [(
                "iban".to_string(),
                "wallet.errors.iban_check_digits".to_string()
            )]
        );
    }
}
