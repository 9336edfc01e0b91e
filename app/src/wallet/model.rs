//! The wallet's wire shapes (spec 001 §3 "Bank form", "Wallet wrapper"; §7 "Bank details",
//! "Wallet details", "Delete payment method"). Requests keep the spec's field names.
use serde::{Deserialize, Serialize};

/// Base path of the wallet calls.
pub const WALLET_API: &str = "/api/postsales/v1/wallet";

/// POST `/api/postsales/v1/wallet/bankdetails`: the bank form. Missing fields count as
/// empty, so they get their field's message rather than a parse failure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default, rename_all = "camelCase")]
pub struct BankDetailsRequest {
    pub iban: String,
    pub bic: String,
    pub owner_name: String,
    /// The member confirms they hold the account.
    pub confirmation: bool,
    /// The member's password (review N1); empty for a member without one, who signed in
    /// again with the provider within the last 5 minutes instead.
    pub current_password: String,
}

/// POST `/api/postsales/v1/wallet/ibaninfo`: what an IBAN says before it is saved.
#[derive(Clone, Debug, Default, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct IbanInfoRequest {
    pub iban: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct IbanInfo {
    pub valid: bool,
    /// The country of a valid IBAN.
    pub country: Option<String>,
    /// Masked, for a valid IBAN.
    pub masked: Option<String>,
    /// Translation key of the reason, for an invalid one.
    pub message_key: Option<String>,
}

/// The stored bank details as the member sees them: never the full IBAN.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct StoredIban {
    /// The id the delete call takes.
    pub id: String,
    pub masked: String,
    pub country: String,
    pub last4: String,
    pub bic: String,
    pub owner_name: String,
    pub updated_at: i64,
}

/// A card the payment provider keeps for the member (a token; only its last four digits here).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PaymentMethod {
    pub guid: String,
    pub brand: String,
    pub last4: String,
    pub created_at: i64,
}

/// GET `/api/postsales/v1/wallet`: `iban` is null until bank details are saved.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct WalletDetails {
    pub iban: Option<StoredIban>,
    pub payment_methods: Vec<PaymentMethod>,
}

/// A request body as `T`, only when it is a JSON object: serde would also read a struct
/// from an array (`[true]`), which no client of these calls sends on purpose.
pub fn json_object<T: serde::de::DeserializeOwned>(body: &str) -> Option<T> {
    match serde_json::from_str::<serde_json::Value>(body).ok()? {
        v @ serde_json::Value::Object(_) => serde_json::from_value(v).ok(),
        _ => None,
    }
}
