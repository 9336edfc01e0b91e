//! My account's wire types (spec 001 §3 "Member", §7 "User profile", "Update email",
//! "Update password", "Jobs", "Deactivation reasons", "Deactivate account", "Delete account").
use serde::{Deserialize, Serialize};

use crate::account::rules::Gender;

/// The member as the account pages show it. `pendingEmail` is an address waiting for its
/// confirmation link to be opened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MemberProfile {
    pub member_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub gender: Gender,
    /// `DD/MM/YYYY`, empty when unknown.
    pub birth_date: String,
    pub phone: String,
    pub email: String,
    pub job_id: Option<i64>,
    pub pending_email: Option<String>,
    /// Completed purchases: the member's orders still paid (not cancelled or reopened).
    pub order_number: i64,
    /// 1 when the member accepts personalisation (`isOptinPerso` of the communications
    /// page), else 0.
    #[serde(rename = "persoStatusGDPR")]
    pub perso_status_gdpr: i64,
    /// `prospect`, `first_order`, `regular` or `lapsed` (`account::rules::Segment`): what
    /// the browser sends the A/B call as `segmentId`.
    pub segment_id: String,
}

/// POST body of "User profile": firstName, lastName, gender, birthDate, phone (and the job).
/// Missing fields read as empty, so they are refused by the rules, not by the parser.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct ProfileRequest {
    pub first_name: String,
    pub last_name: String,
    /// `Other`, `Male` or `Female`.
    pub gender: String,
    /// `DD/MM/YYYY`; empty clears it where the site does not require one.
    pub birth_date: String,
    /// Digits only; empty clears it.
    pub phone: String,
    /// One of `GET .../account/jobs`; absent or null clears it.
    pub job_id: Option<i64>,
}

/// POST body of "Update email" (`Email`, and the form's confirmation).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct EmailChangeRequest {
    #[serde(rename = "Email", alias = "email")]
    pub email: String,
    #[serde(rename = "ConfirmEmail", alias = "confirmEmail")]
    pub confirm_email: String,
    /// The member's password; empty for a member without one, who signed in again with the
    /// provider within the last minutes instead (review N1).
    #[serde(rename = "currentPassword")]
    pub current_password: String,
}

/// The link of the confirmation email, sent back by the member's signed-in browser.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct EmailConfirmRequest {
    pub cypher: String,
}

/// POST body of "Update password": oldPassword, newPassword (the form's currentPassword and
/// password are accepted too) and the confirmation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct PasswordChangeRequest {
    #[serde(rename = "oldPassword", alias = "currentPassword")]
    pub old_password: String,
    #[serde(rename = "newPassword", alias = "password")]
    pub new_password: String,
    /// When absent, the new password counts as confirmed (the spec's call has no such field).
    #[serde(rename = "confirmPassword")]
    pub confirm_password: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Job {
    pub id: i64,
    pub title: String,
}

/// GET "Jobs": `jobs`, titled in the member's language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct JobsResponse {
    pub jobs: Vec<Job>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct DeactivationReason {
    pub label: String,
    pub value: String,
}

/// GET "Deactivation reasons": `reasons`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct DeactivationReasons {
    pub reasons: Vec<DeactivationReason>,
}

/// POST body of "Deactivate account": the reason's value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct DeactivateRequest {
    pub reason: String,
    /// As for an email change: the password, or a fresh provider sign-in.
    #[serde(rename = "currentPassword")]
    pub current_password: String,
}

/// Body of "Delete account" (and of ending the other sessions): the proof that the member
/// is at the keyboard, as for an email change.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct ReauthRequest {
    #[serde(rename = "currentPassword")]
    pub current_password: String,
}

/// What a successful account call says: the message to show, the profile where it changed,
/// and the step a multi-step flow moves to (`STEP2` once the account is deleted).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AccountConfirmation {
    pub msg_key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<MemberProfile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
}

impl AccountConfirmation {
    pub fn new(msg_key: &str) -> AccountConfirmation {
        AccountConfirmation {
            msg_key: msg_key.into(),
            member: None,
            step: None,
        }
    }
}

/// Everything the account pages render from, read once per page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountView {
    pub profile: MemberProfile,
    pub jobs: Vec<Job>,
    pub reasons: Vec<DeactivationReason>,
    pub birth_date_required: bool,
}
