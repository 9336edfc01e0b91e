//! The sign-in tunables, with their defaults (defined once, here; the server reads the
//! environment over them: see the README's table).

/// Lockout, flood limits and cypher lifetime.
#[derive(Clone, Debug)]
pub struct AuthSettings {
    /// Failed passwords in a row before an account locks (ROSACE_LOCKOUT_THRESHOLD).
    pub lockout_threshold: i64,
    /// How long a locked account stays locked (ROSACE_LOCKOUT_SECS).
    pub lockout_secs: i64,
    /// Failed passwords on one account from all clients together, within
    /// `account_ceiling_secs`, before password sign-in pauses for everyone and the member
    /// is emailed (ROSACE_ACCOUNT_FAILURE_CEILING; review N8).
    pub account_failure_ceiling: i64,
    pub account_ceiling_secs: i64,
    /// Login attempts per client address and window before 429 (ROSACE_LOGIN_RATE_LIMIT).
    pub login_rate_limit: i64,
    pub login_rate_window_secs: i64,
    /// Member-exists checks per client address and window before 429
    /// (ROSACE_EXISTS_RATE_LIMIT; the server defaults it to twice the login limit: one
    /// check per sign-in, with room for typing mistakes).
    pub exists_rate_limit: i64,
    /// Registrations per client address and login window before 429
    /// (ROSACE_REGISTER_RATE_LIMIT; the server defaults it to the login limit).
    pub register_rate_limit: i64,
    /// Registrations and recovery requests naming one email address (one site) per
    /// `email_rate_window_secs` before 429 (ROSACE_EMAIL_RATE_LIMIT): each may send that
    /// address a mail, so a third party's inbox cannot be flooded.
    pub email_rate_limit: i64,
    pub email_rate_window_secs: i64,
    /// Lifetime of activation and autologin cyphers.
    pub cypher_ttl_secs: i64,
}

impl Default for AuthSettings {
    fn default() -> Self {
        AuthSettings {
            lockout_threshold: 5,
            lockout_secs: 900,
            account_failure_ceiling: 50,
            account_ceiling_secs: 3600,
            login_rate_limit: 30,
            login_rate_window_secs: 600,
            exists_rate_limit: 60,
            register_rate_limit: 30,
            email_rate_limit: 5,
            email_rate_window_secs: 3600,
            cypher_ttl_secs: 48 * 3600,
        }
    }
}
