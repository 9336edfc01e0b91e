//! The client address, for rate limits.
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use crate::state::AppCtx;

/// The client address a handler rate-limits by (the peer, or `X-Forwarded-For` when the
/// server sits behind a trusted proxy).
pub struct Client(pub String);

impl FromRequestParts<Arc<AppCtx>> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &Arc<AppCtx>,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0);
        Ok(Client(crate::middleware::context::client_key(
            app,
            &parts.headers,
            peer,
        )))
    }
}
