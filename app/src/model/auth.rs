//! Sign-in and registration wire types (spec 000 §3 "Sign-in and registration", §7).
use serde::{Deserialize, Serialize};

use crate::auth::rules::LoginResult;

pub use super::error::FieldError;

/// Email check answer: `result` 1 unknown (register), 2 known (authenticate), 3 invalid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EmailCheckResponse {
    pub result: u8,
    pub msg_key: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
    pub remember_me: bool,
    pub return_url: Option<String>,
    pub site_id: u16,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LoginResponse {
    #[cfg_attr(feature = "ssr", schema(value_type = u8))]
    pub result: LoginResult,
    pub msg_key: String,
    pub redirect_url: Option<String>,
    /// Unix seconds when a locked account opens again (code 4).
    pub locked_until: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MemberSummary {
    pub member_id: i64,
    pub first_name: String,
    pub site_id: u16,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct WebValidateResponse {
    pub member: Option<MemberSummary>,
    #[cfg_attr(feature = "ssr", schema(value_type = u8))]
    pub result: LoginResult,
}

/// Registration (subscribe member). Civility: 0 other, 1 man, 2 woman.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct SubscribeRequest {
    pub site_id: u16,
    pub email: String,
    pub password: String,
    pub civility: Option<u8>,
    pub first_name: String,
    pub last_name: String,
    /// DD/MM/YYYY
    pub birth_date: String,
    pub zip_code: String,
    pub city: String,
    pub cgv: bool,
    pub privacy_policy: bool,
    pub optin_partner: bool,
    pub sponsorship_code: String,
    pub return_url: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SubscribeResponse {
    pub member_id: i64,
    pub msg_key: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct RecoverPasswordRequest {
    pub email: String,
    pub site_id: u16,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct UpdatePasswordRequest {
    pub site_id: u16,
    pub cypher: String,
    pub member_id: i64,
    pub new_password: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct CypherRequest {
    pub site_id: u16,
    pub cypher: String,
    pub return_url: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AutologinResponse {
    #[cfg_attr(feature = "ssr", schema(value_type = u8))]
    pub result: LoginResult,
    pub redirect_url: String,
}
