//! Per-request steps, outermost first: request id and logs, metrics, load shedding, the
//! request timeout (`deadline`), an API call's turn to run (`in_turn`), then security headers, site and session context (with the
//! page access rules), CSRF. Each step is an async function handed the rest of the chain
//! (`next`); `crate::router` composes them into two layers.
pub mod client_ip;
pub mod context;
pub mod cookies;
pub mod csrf;
pub mod deadline;
pub mod experiments;
pub mod headers;
pub mod metrics;
pub mod partner;
pub mod request_id;
pub mod shed;

pub use context::{redirect, request_context, SessionInfo};
pub use cookies::{
    cookie, session_cookie, session_cookie_name, xsrf_cookie, xsrf_cookie_name, SITE_COOKIE,
};
pub use csrf::{csrf, forbidden_csrf};
pub use deadline::deadline;
pub use headers::security_headers;
pub use request_id::request_id;
pub use shed::{in_turn, shed, InFlight};
