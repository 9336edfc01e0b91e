//! Sign-in and registration wire types (spec 000 §3 "Sign-in and registration", §7).
use serde::{Deserialize, Serialize};

/// Login result codes (spec 000 §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub enum LoginResult {
    Success = 1,
    InvalidIdentifier = 2,
    InvalidPassword = 3,
    Locked = 4,
    NotActivated = 5,
    Deactivated = 6,
    Blacklisted = 7,
}

impl From<LoginResult> for u8 {
    fn from(r: LoginResult) -> u8 {
        r as u8
    }
}

impl TryFrom<u8> for LoginResult {
    type Error = String;
    fn try_from(v: u8) -> Result<Self, String> {
        Ok(match v {
            1 => LoginResult::Success,
            2 => LoginResult::InvalidIdentifier,
            3 => LoginResult::InvalidPassword,
            4 => LoginResult::Locked,
            5 => LoginResult::NotActivated,
            6 => LoginResult::Deactivated,
            7 => LoginResult::Blacklisted,
            _ => return Err(format!("unknown login result {v}")),
        })
    }
}

impl LoginResult {
    /// Translation key of the message shown for a result.
    pub fn message_key(self) -> &'static str {
        match self {
            LoginResult::Success => "auth.login.success",
            LoginResult::InvalidIdentifier => "auth.login.error.2",
            LoginResult::InvalidPassword => "auth.login.error.3",
            LoginResult::Locked => "auth.login.error.4",
            LoginResult::NotActivated => "auth.login.error.5",
            LoginResult::Deactivated => "auth.login.error.6",
            LoginResult::Blacklisted => "auth.login.error.7",
        }
    }
}

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
    /// The city when it is not among the zip code's (the form's one city field takes both;
    /// a call may send it apart): used when `city` is empty.
    pub other_city: String,
    /// ISO 3166-1 alpha-2, one of `GET /api/members/v1/countries`; empty: the site's.
    pub country_code: String,
    /// A job id of `GET /api/postsales/v1/account/jobs`.
    pub occupation: Option<i64>,
    pub cgv: bool,
    pub privacy_policy: bool,
    pub optin_partner: bool,
    pub sponsorship_code: String,
    /// The sponsor's member id from the share link (`godfatherid`), used when no code is given.
    #[serde(alias = "godfatherid")]
    pub godfather_id: String,
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
