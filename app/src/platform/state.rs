//! What every request handler and server function can reach.
use std::sync::Arc;

use leptos::prelude::{use_context, ServerFnError};

use crate::model::error::WireError;
use crate::platform::db::Db;

#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
    pub settings: Arc<Settings>,
}

/// Tunables read from the environment by the server (see the README's table).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Reports accepted per client address and window before 429.
    pub dsa_rate_limit: i64,
    pub dsa_rate_window_secs: i64,
    /// Key of the CSRF token signatures (stored in the database, shared by instances).
    pub xsrf_secret: Vec<u8>,
    /// Where emails are written when no SMTP server is configured.
    pub outbox_dir: String,
    /// `smtp://host:port`: send emails through this relay instead of the outbox.
    pub smtp_url: Option<String>,
    /// Cookies get `Secure` and the `__Host-` prefix (served over HTTPS).
    pub secure_cookies: bool,
    /// Failed passwords in a row before an account locks, and for how long.
    pub lockout_threshold: i64,
    pub lockout_secs: i64,
    /// Login attempts per client address and window before 429.
    pub login_rate_limit: i64,
    pub login_rate_window_secs: i64,
    /// Lifetime of activation and autologin cyphers.
    pub cypher_ttl_secs: i64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dsa_rate_limit: 5,
            dsa_rate_window_secs: 600,
            xsrf_secret: vec![7; 32],
            outbox_dir: "data/outbox".into(),
            smtp_url: None,
            secure_cookies: false,
            lockout_threshold: 5,
            lockout_secs: 900,
            login_rate_limit: 30,
            login_rate_window_secs: 600,
            cypher_ttl_secs: 48 * 3600,
        }
    }
}

pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// The application state inside a server function (provided by the server's Leptos routes).
pub fn app_state() -> Result<AppState, ServerFnError> {
    use_context::<AppState>().ok_or_else(|| ServerFnError::new("no state"))
}

/// A service or cache of the application state inside a server function: the server puts
/// the same `Arc` its REST handlers use into the Leptos context.
pub fn shared<T: Send + Sync + 'static>() -> Result<Arc<T>, ServerFnError> {
    use_context::<Arc<T>>().ok_or_else(|| ServerFnError::new("no state"))
}

/// `result.wire::<CatalogError>()?` in a server function: the failure becomes the area's
/// error, then a `ServerFnError` carrying only its translation key (the cause is logged).
/// (`ServerFnError` has a blanket `From<E: Error>` that would send `Display` text to the
/// browser, so area errors must go through this, not through a bare `?`.)
pub trait WireResult<T, X> {
    fn wire<E: WireError + From<X>>(self) -> Result<T, ServerFnError>;
}

impl<T, X> WireResult<T, X> for Result<T, X> {
    fn wire<E: WireError + From<X>>(self) -> Result<T, ServerFnError> {
        self.map_err(|x| server_fn_error(&E::from(x)))
    }
}

/// An area error as a server function's error: the cause goes to the log, the member
/// gets the translation key.
pub fn server_fn_error(e: &dyn WireError) -> ServerFnError {
    if let Some(cause) = e.cause() {
        tracing::error!(error = %cause, code = e.code(), "server function failed");
    }
    ServerFnError::new(e.message_key())
}
