//! What a sensitive form needs to ask for the right proof (review N1).
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReauthView {
    /// The member has a password: the form asks for it.
    pub has_password: bool,
    /// A provider sign-in of this session still counts (no password needed now).
    pub fresh: bool,
    /// The providers linked to the account (slugs), for "sign in again with …".
    pub providers: Vec<String>,
}
