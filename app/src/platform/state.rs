//! What every request handler and server function can reach.
use std::sync::Arc;

use leptos::prelude::{use_context, ServerFnError};

use crate::model::error::WireError;
use crate::platform::db::Db;

#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
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
