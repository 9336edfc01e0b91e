//! Browser calls to our REST API (spec 000 §7) from hydrated pages: the XSRF header on every
//! call (spec §9), `X-VP-Origin: web`, and errors mapped as the spec's HTTP client does
//! (401/403 → authorization error). On the server these calls are never made: pages render
//! their data through server functions, so the `ssr` build only has the signature.
use serde::Deserialize;

pub use crate::model::error::ErrorBody;

#[derive(Clone, Debug, PartialEq)]
pub enum CallError {
    /// 401 or 403: the session is gone or the token is stale; the member signs in again.
    Unauthorized,
    /// Another error status, with the error body when there is one.
    Status(u16, ErrorBody),
    /// No answer: offline, or the connection failed.
    Network,
    /// No answer within [`CALL_TIMEOUT_MS`] (the call was aborted by its timer).
    Timeout,
    /// Aborted by the browser before an answer (the page is going away).
    Cancelled,
}

/// What a call that got no answer failed of (spec 000 §7's client: network, timeout and
/// cancelled apart): its timer fired, or the fetch was aborted otherwise, or neither.
pub fn no_answer(timed_out: bool, aborted: bool) -> CallError {
    match (timed_out, aborted) {
        (true, _) => CallError::Timeout,
        (false, true) => CallError::Cancelled,
        (false, false) => CallError::Network,
    }
}

/// How long a browser call waits for its answer (spec 000's HTTP client: 10 s in
/// production, 60 s otherwise: a debug build's WASM and server answer far slower). A hung
/// call would leave its button busy for good; after this the member is told to retry.
pub const CALL_TIMEOUT_MS: i32 = if cfg!(debug_assertions) {
    60_000
} else {
    10_000
};

/// A signal that aborts a browser fetch after [`CALL_TIMEOUT_MS`].
#[cfg(feature = "hydrate")]
pub fn timeout_signal() -> Option<web_sys::AbortSignal> {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let controller = web_sys::AbortController::new().ok()?;
    let signal = controller.signal();
    let abort = Closure::once_into_js(move || controller.abort());
    web_sys::window()?
        .set_timeout_with_callback_and_timeout_and_arguments_0(
            abort.unchecked_ref(),
            CALL_TIMEOUT_MS,
        )
        .ok()?;
    Some(signal)
}

/// The error of a browser fetch that got no answer, `signal` being its [`timeout_signal`].
#[cfg(feature = "hydrate")]
pub fn failed(e: &gloo_net::Error, signal: Option<&web_sys::AbortSignal>) -> CallError {
    let aborted = matches!(e, gloo_net::Error::JsError(js) if js.name == "AbortError");
    no_answer(signal.is_some_and(|s| s.aborted()), aborted)
}

/// The keys [`CallError::message_key`] gives for a call of any area: the edge's own answers
/// (a stale XSRF token, no such path) and the fallback. An island that shows a call's error
/// ships them with its area's keys (`site::i18n::shown_later`).
pub const EDGE_ERROR_KEYS: [&str; 3] = [
    "errors.general_retry.notification",
    "errors.csrf.notification",
    "errors.not_found",
];

impl CallError {
    /// The translation key to show the member.
    pub fn message_key(&self) -> String {
        match self {
            CallError::Status(_, body) if !body.error_description.is_empty() => {
                body.error_description.clone()
            }
            _ => "errors.general_retry.notification".into(),
        }
    }
}

/// A successful answer: any 2xx status (the cart uses 260–263 as states) and its body.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub body: String,
}

impl Reply {
    pub fn json<T: for<'de> Deserialize<'de>>(&self) -> Option<T> {
        serde_json::from_str(&self.body).ok()
    }
}

/// Maps a status and body to the call's outcome.
pub fn outcome(status: u16, body: String) -> Result<Reply, CallError> {
    match status {
        200..=299 => Ok(Reply { status, body }),
        401 | 403 => Err(CallError::Unauthorized),
        _ => Err(CallError::Status(
            status,
            serde_json::from_str(&body).unwrap_or_default(),
        )),
    }
}

#[cfg(feature = "hydrate")]
pub async fn call(method: &str, url: &str, body: Option<String>) -> Result<Reply, CallError> {
    use gloo_net::http::{Method, RequestBuilder};
    let method = match method {
        "POST" => Method::POST,
        "PUT" => Method::PUT,
        "DELETE" => Method::DELETE,
        _ => Method::GET,
    };
    let xsrf = crate::context::RequestCtx::current().xsrf;
    let signal = timeout_signal();
    let builder = RequestBuilder::new(url)
        .method(method)
        .abort_signal(signal.as_ref())
        .header("X-XSRF-TOKEN", &xsrf)
        .header("X-VP-Origin", "web")
        .header("Accept", "application/json");
    let request = match body {
        Some(b) => builder
            .header("Content-Type", "application/json")
            .body(b)
            .map_err(|_| CallError::Network)?,
        None => builder.build().map_err(|_| CallError::Network)?,
    };
    let response = request
        .send()
        .await
        .map_err(|e| failed(&e, signal.as_ref()))?;
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    outcome(status, text)
}

#[cfg(not(feature = "hydrate"))]
pub async fn call(method: &str, url: &str, body: Option<String>) -> Result<Reply, CallError> {
    let _ = (method, url, body);
    Err(CallError::Network)
}

/// A full navigation (the next page is rendered by the server with fresh data).
pub fn navigate(path: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window() {
        let _ = window.location().assign(path);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = path;
}

/// Sends the member to sign in and come back here (spec 000 §4 session expiry).
pub fn to_sign_in() {
    to_sign_in_returning(|path, search| format!("{path}{search}"));
}

/// Sends the member to sign in and come back to the address `here` makes of this page's
/// path and query (`?` included when there is one).
pub fn to_sign_in_returning(here: impl FnOnce(&str, &str) -> String) {
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window() {
        let loc = window.location();
        let here = here(
            &loc.pathname().unwrap_or_default(),
            &loc.search().unwrap_or_default(),
        );
        let _ = loc.assign(&crate::routes::login_redirect(&here));
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = here;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_as_the_spec_client_does() {
        assert_eq!(outcome(204, String::new()).unwrap().status, 204);
        assert_eq!(outcome(260, "{}".into()).unwrap().status, 260);
        assert_eq!(outcome(401, String::new()), Err(CallError::Unauthorized));
        assert_eq!(outcome(403, String::new()), Err(CallError::Unauthorized));
        let err = outcome(
            409,
            r#"{"error_code":"incompatible_cart_types","error_description":"cart.errors.incompatible"}"#.into(),
        )
        .unwrap_err();
        assert_eq!(err.message_key(), "cart.errors.incompatible");
        assert_eq!(
            outcome(500, "not json".into()).unwrap_err().message_key(),
            "errors.general_retry.notification"
        );
        let camel =
            outcome(412, r#"{"errorDescription":"cart.errors.invalid"}"#.into()).unwrap_err();
        assert_eq!(camel.message_key(), "cart.errors.invalid");
    }

    #[test]
    fn a_call_without_answer_is_a_timeout_a_cancellation_or_the_network() {
        // The timer's abort is also an AbortError: the timer decides.
        assert_eq!(no_answer(true, true), CallError::Timeout);
        assert_eq!(no_answer(true, false), CallError::Timeout);
        assert_eq!(no_answer(false, true), CallError::Cancelled);
        assert_eq!(no_answer(false, false), CallError::Network);
        for e in [CallError::Timeout, CallError::Cancelled, CallError::Network] {
            assert_eq!(e.message_key(), "errors.general_retry.notification");
        }
    }
}
