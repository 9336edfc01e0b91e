//! Request facts as extractors: the site of a call, the signed-in member, the cart's
//! member, the client address. The site and session are resolved once per request by
//! `middleware::context`; these read what it stored.
use std::collections::HashMap;

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use axum::http::HeaderMap;

use app::cart::rules::CartError;
use app::cart::service::Member as CartMemberId;
use app::context::RequestCtx;
use app::platform::session::SessionMember;

use super::error::ApiError;
use crate::middleware::SessionInfo;

fn valid_site(v: &str) -> Option<u16> {
    v.trim()
        .parse::<u16>()
        .ok()
        .filter(|id| app::site::by_id(*id).is_some())
}

/// The site of a REST call: `siteId` in the query, then the `x-vp-siteid` header, then the
/// request's site (host, `?site=`, cookie). An unknown site id is ignored, not an error.
#[derive(Clone, Copy, Debug)]
pub struct SiteId(pub u16);

impl SiteId {
    pub fn resolve(ctx_site: u16, headers: &HeaderMap, query: Option<&str>) -> SiteId {
        let from_query = query.and_then(|q| {
            serde_urlencoded::from_str::<HashMap<String, String>>(q)
                .ok()?
                .get("siteId")
                .and_then(|v| valid_site(v))
        });
        let from_header = || {
            headers
                .get("x-vp-siteid")
                .and_then(|v| v.to_str().ok())
                .and_then(valid_site)
        };
        SiteId(from_query.or_else(from_header).unwrap_or(ctx_site))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for SiteId {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let ctx_site = parts
            .extensions
            .get::<RequestCtx>()
            .map(|c| c.site_id)
            .unwrap_or(app::site::DEFAULT_SITE_ID);
        Ok(SiteId::resolve(ctx_site, &parts.headers, parts.uri.query()))
    }
}

/// The time a catalog read is made at: now, or the time of an operator's preview of the
/// call's site (the back office's signed cookie, read by `middleware::context` for page
/// views and catalog reads only), so the pages a preview shows load their parts as of
/// that time too. Writes never read it.
#[derive(Clone, Copy, Debug)]
pub struct ShownAt(pub i64);

impl<S: Send + Sync> FromRequestParts<S> for ShownAt {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let now = app::platform::state::now();
        let Some(ctx) = parts.extensions.get::<RequestCtx>() else {
            return Ok(ShownAt(now));
        };
        let SiteId(site) = SiteId::resolve(ctx.site_id, &parts.headers, parts.uri.query());
        Ok(ShownAt(
            ctx.preview_at
                .filter(|_| site == ctx.site_id)
                .unwrap_or(now),
        ))
    }
}

fn session(parts: &Parts) -> Option<&SessionInfo> {
    parts.extensions.get::<SessionInfo>()
}

/// The session's member, when the call is for the member's own site. Accounts belong to
/// one site: the session layer already drops a member whose site is not the request's
/// (host, `?site=`, cookie); a call that names another site (`siteId`, `x-vp-siteid`) is
/// anonymous too, so favourites, recent searches and the cart are never filed under a
/// site the account does not belong to.
fn member(parts: &Parts) -> Option<&SessionMember> {
    let m = session(parts)?.member.as_ref()?;
    let ctx_site = parts
        .extensions
        .get::<RequestCtx>()
        .map(|c| c.site_id)
        .unwrap_or(m.site_id);
    let SiteId(site) = SiteId::resolve(ctx_site, &parts.headers, parts.uri.query());
    (site == m.site_id).then_some(m)
}

/// The signed-in member, if any.
#[derive(Clone, Debug)]
pub struct MaybeMember(pub Option<SessionMember>);

impl<S: Send + Sync> FromRequestParts<S> for MaybeMember {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(MaybeMember(member(parts).cloned()))
    }
}

impl MaybeMember {
    pub fn id(&self) -> Option<i64> {
        self.0.as_ref().map(|m| m.member_id)
    }
}

/// The signed-in member; anyone else gets 401 (`errors.session_expired`).
#[derive(Clone, Debug)]
pub struct SignedIn(pub SessionMember);

impl<S: Send + Sync> FromRequestParts<S> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        member(parts)
            .cloned()
            .map(SignedIn)
            .ok_or(ApiError::Unauthorized)
    }
}

/// The signed-in member of a cart call; anyone else gets 401 with the cart's error body.
pub struct CartMember(pub CartMemberId);

impl<S: Send + Sync> FromRequestParts<S> for CartMember {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        member(parts)
            .map(|m| {
                CartMember(CartMemberId {
                    id: m.member_id,
                    site_id: i64::from(m.site_id),
                })
            })
            .ok_or_else(|| CartError::Unauthorized.into())
    }
}

pub use super::client::Client;

/// A query string as typed parameters; a malformed one is a 400 with the standard body
/// instead of axum's plain-text rejection.
pub struct Params<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(q)| Params(q))
            .map_err(|_| ApiError::bad_request("bad_query", "errors.general_retry.notification"))
    }
}

/// Path parameters as typed values; one that does not parse (a number out of range, bytes
/// that are not UTF-8) is a 400 with the standard body instead of axum's plain-text
/// rejection. The OpenAPI document lists that 400 on every operation with a path parameter.
pub struct Path<T>(pub T);

impl<T: serde::de::DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(p)| Path(p))
            .map_err(|_| ApiError::bad_request("bad_path", "errors.general_retry.notification"))
    }
}

/// A JSON request body; a missing, unreadable or mistyped one is a 400 with the standard
/// body instead of axum's plain-text 415 or 422. The OpenAPI document lists that 400 on
/// every operation with a request body.
pub struct JsonBody<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> axum::extract::FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        axum::Json::<T>::from_request(req, state)
            .await
            .map(|axum::Json(b)| JsonBody(b))
            .map_err(|e| {
                if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                    too_large()
                } else {
                    ApiError::bad_request("bad_body", "errors.general_retry.notification")
                }
            })
    }
}

/// 413 in the standard body: a request body past the size limit (documented on every call
/// with a body).
pub fn too_large() -> ApiError {
    ApiError::Wire {
        status: axum::http::StatusCode::PAYLOAD_TOO_LARGE,
        body: Box::new(app::model::error::ErrorBody::new(
            "too_large",
            "errors.general_retry.notification",
        )),
        cause: None,
        what: "request body too large",
    }
}
