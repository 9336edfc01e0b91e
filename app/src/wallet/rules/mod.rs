//! The wallet's pure rules (spec 001 §3 "Bank form", §5): the bank form's four fields,
//! each with its own error flag that clears when the field changes, and how a stored IBAN
//! is shown. Compiled for the server and the browser.
mod bic;
mod iban;
#[cfg(test)]
mod tests;

pub use bic::{bic_optional, is_country, parse_bic, BicError};
pub use iban::{iban_length, mask, parse_iban, Iban, IbanError};

use crate::model::error::FieldError;
use crate::wallet::model::BankDetailsRequest;

/// SEPA's limit for a name in a credit transfer.
pub const OWNER_NAME_MAX: usize = 70;

/// The bank form's fields, with their wire names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BankField {
    Iban,
    Bic,
    OwnerName,
    Confirmation,
}

impl BankField {
    pub const ALL: [BankField; 4] = [
        BankField::Iban,
        BankField::Bic,
        BankField::OwnerName,
        BankField::Confirmation,
    ];
    pub fn wire(self) -> &'static str {
        match self {
            BankField::Iban => "iban",
            BankField::Bic => "bic",
            BankField::OwnerName => "ownerName",
            BankField::Confirmation => "confirmation",
        }
    }
    pub fn from_wire(s: &str) -> Option<BankField> {
        BankField::ALL.into_iter().find(|f| f.wire() == s)
    }
}

/// Error flags of the bank form (spec 001 §3): one per field; changing a field clears
/// its own flag and no other.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BankFormErrors {
    pub iban: Option<&'static str>,
    pub bic: Option<&'static str>,
    pub owner_name: Option<&'static str>,
    pub confirmation: Option<&'static str>,
}

impl BankFormErrors {
    pub fn get(&self, field: BankField) -> Option<&'static str> {
        match field {
            BankField::Iban => self.iban,
            BankField::Bic => self.bic,
            BankField::OwnerName => self.owner_name,
            BankField::Confirmation => self.confirmation,
        }
    }
    fn slot(&mut self, field: BankField) -> &mut Option<&'static str> {
        match field {
            BankField::Iban => &mut self.iban,
            BankField::Bic => &mut self.bic,
            BankField::OwnerName => &mut self.owner_name,
            BankField::Confirmation => &mut self.confirmation,
        }
    }
    /// The member changed `field`: its flag goes, the others stay.
    pub fn field_changed(&mut self, field: BankField) {
        *self.slot(field) = None;
    }
    pub fn is_empty(&self) -> bool {
        BankField::ALL.iter().all(|f| self.get(*f).is_none())
    }
    /// As the wire's `fieldErrors`, in form order.
    pub fn to_field_errors(&self) -> Vec<FieldError> {
        BankField::ALL
            .iter()
            .filter_map(|f| {
                self.get(*f).map(|key| FieldError {
                    field: f.wire().into(),
                    message_key: key.into(),
                })
            })
            .collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnerNameError {
    Empty,
    TooLong,
    Characters,
}

impl OwnerNameError {
    pub fn message_key(self) -> &'static str {
        match self {
            OwnerNameError::Empty => "wallet.errors.owner_empty",
            OwnerNameError::TooLong => "wallet.errors.owner_too_long",
            OwnerNameError::Characters => "wallet.errors.owner_characters",
        }
    }
}

/// The account holder as typed, trimmed with inner spaces collapsed: letters of any
/// alphabet (a Greek or Bulgarian holder writes their name in it), spaces and the
/// punctuation names carry (' - . ,); no digits, symbols or emoji.
pub fn parse_owner_name(input: &str) -> Result<String, OwnerNameError> {
    if input.len() > OWNER_NAME_MAX * 8 {
        return Err(OwnerNameError::TooLong);
    }
    let name = input.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return Err(OwnerNameError::Empty);
    }
    if name.chars().count() > OWNER_NAME_MAX {
        return Err(OwnerNameError::TooLong);
    }
    let allowed = |c: char| c.is_alphabetic() || matches!(c, ' ' | '\'' | '’' | '-' | '.' | ',');
    if !name.chars().all(allowed) || !name.chars().any(char::is_alphabetic) {
        return Err(OwnerNameError::Characters);
    }
    Ok(name)
}

/// Bank details that passed every rule, normalised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidBankDetails {
    pub iban: Iban,
    pub bic: String,
    pub owner_name: String,
}

/// Checks the whole form; every faulty field gets its flag (not only the first).
pub fn check_bank_form(req: &BankDetailsRequest) -> Result<ValidBankDetails, BankFormErrors> {
    let iban = parse_iban(&req.iban);
    // An IBAN of the SEPA area needs no BIC: empty is kept as empty.
    let bic = match parse_bic(&req.bic) {
        Err(BicError::Empty) if bic_optional(&req.iban) => Ok(String::new()),
        other => other,
    };
    let owner = parse_owner_name(&req.owner_name);
    let errors = BankFormErrors {
        iban: iban.as_ref().err().map(|e| e.message_key()),
        bic: bic.as_ref().err().map(|e| e.message_key()),
        owner_name: owner.as_ref().err().map(|e| e.message_key()),
        confirmation: (!req.confirmation).then_some("wallet.errors.confirmation"),
    };
    match (iban, bic, owner) {
        (Ok(iban), Ok(bic), Ok(owner_name)) if errors.is_empty() => Ok(ValidBankDetails {
            iban,
            bic,
            owner_name,
        }),
        _ => Err(errors),
    }
}
