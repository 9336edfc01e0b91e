//! Frontend diagnostics (spec 000 §7 "Diagnostics"): the browser's log entries and metric
//! batches are checked (app::diagnostics::rules), rate-limited per client address, written
//! to the structured log and counted for the Prometheus scrape, which `GET /metrics` serves
//! to whoever holds `ROSACE_METRICS_TOKEN` (404 while none is set, 401 to anyone else).
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use utoipa_axum::{router::OpenApiRouter, routes};

use app::diagnostics::error::DiagnosticsError;
use app::diagnostics::model::{FrontendLogEntry, FrontendMetricsBatch};
use app::diagnostics::service;
use app::diagnostics::tracking::{self, TrackingBatch};
use app::model::error::{ErrorBody, WireError};
use app::platform::state::now;

use super::error::ApiError;
use super::extract::{Client, SiteId};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    // The tracking batch states its own limit (the shop's default, 64 KiB, today): the
    // browser's library keeps a batch under it.
    let tracking = OpenApiRouter::new()
        .routes(routes!(events))
        .layer(DefaultBodyLimit::max(tracking::BODY_MAX));
    OpenApiRouter::new()
        .routes(routes!(log))
        .routes(routes!(metrics))
        .routes(routes!(scrape))
        .merge(tracking)
}

/// The content type of the scrape (OpenMetrics text, which Prometheus reads).
pub const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// A refusal with its message in the site's language too.
fn refused(site_id: u16, e: DiagnosticsError) -> ApiError {
    let lang = app::site::i18n::lang_of(app::site::by_id_or_default(site_id).locale);
    let mut body = e.body();
    body.message = Some(app::site::i18n::t(lang, &body.error_description));
    ApiError::Wire {
        status: StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        body: Box::new(body),
        cause: e.cause(),
        what: "frontend diagnostics failed",
    }
}

/// The body as `T`; anything else is a localized 400 `invalid_body`.
fn read<T: serde::de::DeserializeOwned>(site_id: u16, body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|_| refused(site_id, DiagnosticsError::unreadable()))
}

/// Counts the call against the client's flood limit (429 past it).
async fn admit(app: &AppCtx, site_id: u16, client: &str) -> Result<(), ApiError> {
    service::admit(&app.state.db, &app.settings.diagnostics, client, now())
        .await
        .map_err(|e| refused(site_id, e))
}

/// Writes one frontend log entry to the server's structured log (browsers only post it
/// with the performance consent, and never from a development shop).
#[utoipa::path(post, path = "/api/frontend-logger/v1/log", tag = "diagnostics",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = FrontendLogEntry,
    responses(
        (status = 204, description = "logged"),
        (status = 400, body = ErrorBody, description = "invalid_body, unknown_level, invalid_field, too_many or context_too_large, with `fieldErrors` and the localized `message`"),
        (status = 429, body = ErrorBody, description = "too_many_requests: the client's diagnostics limit for the window")))]
async fn log(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    Client(client): Client,
    body: Bytes,
) -> Result<StatusCode, ApiError> {
    admit(&app, site_id, &client).await?;
    let entry: FrontendLogEntry = read(site_id, &body)?;
    let level = service::log(&entry).map_err(|e| refused(site_id, e))?;
    app.telemetry.log(level);
    Ok(StatusCode::NO_CONTENT)
}

/// Logs a batch of frontend measures (Core Web Vitals and others) and counts them for the
/// Prometheus scrape.
#[utoipa::path(post, path = "/api/frontend-logger/v1/metrics", tag = "diagnostics",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = FrontendMetricsBatch,
    responses(
        (status = 204, description = "logged"),
        (status = 400, body = ErrorBody, description = "invalid_body, unknown_type, invalid_field or too_many, with `fieldErrors` and the localized `message`"),
        (status = 429, body = ErrorBody, description = "too_many_requests: the client's diagnostics limit for the window")))]
async fn metrics(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    Client(client): Client,
    body: Bytes,
) -> Result<StatusCode, ApiError> {
    admit(&app, site_id, &client).await?;
    let batch: FrontendMetricsBatch = read(site_id, &body)?;
    service::metrics(&batch).map_err(|e| refused(site_id, e))?;
    app.telemetry.metrics(&batch);
    Ok(StatusCode::NO_CONTENT)
}

/// Takes a batch of analytics events from the browser's tracking library (only with the
/// performance consent, never from a development shop): at most 50 events of at most 30
/// properties, written to the structured log (target `rosace::tracking`) and counted by
/// name for the Prometheus scrape. Our path: spec 000 names none for the tracking library.
#[utoipa::path(post, path = "/api/tracking/v1/events", tag = "diagnostics",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = TrackingBatch,
    responses(
        (status = 204, description = "logged"),
        (status = 400, body = ErrorBody, description = "invalid_body, invalid_field or too_many (more than 50 events, more than 30 properties), with `fieldErrors` and the localized `message`"),
        (status = 413, body = ErrorBody, description = "too_large: a body over 64 KiB"),
        (status = 429, body = ErrorBody, description = "too_many_requests: the client's diagnostics limit for the window (shared with the frontend log and metrics)")))]
async fn events(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    Client(client): Client,
    body: Bytes,
) -> Result<StatusCode, ApiError> {
    admit(&app, site_id, &client).await?;
    let batch: TrackingBatch = read(site_id, &body)?;
    tracking::record(&batch, site_id).map_err(|e| refused(site_id, e))?;
    app.telemetry.events(&batch);
    Ok(StatusCode::NO_CONTENT)
}

/// Equal texts, compared in a time that depends on neither where they differ nor their
/// lengths: their digests, of one length, are compared whole (review I7).
fn same_secret(a: &str, b: &str) -> bool {
    use app::platform::session::hash_token;
    let (a, b) = (hash_token(a), hash_token(b));
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Wrong metrics tokens one client may send per window before it gets 429 without its
/// token being compared (review I7: the scrape is on the public listener). A scraper with
/// the right token is never counted.
const METRICS_FAILURES: (i64, i64) = (10, 600);

/// The Prometheus scrape (OpenMetrics text): request counts and durations by method, route
/// template and status; browsers' log entries by level, measures by name and kind, Core
/// Web Vitals histograms and ratings. Send `Authorization: Bearer <ROSACE_METRICS_TOKEN>`.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses(
        (status = 200, body = String, content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8", description = "the exposition"),
        (status = 401, body = ErrorBody, description = "no or another bearer token"),
        (status = 429, body = ErrorBody, description = "too many wrong tokens from this client in 10 minutes"),
        (status = 404, body = ErrorBody, description = "no ROSACE_METRICS_TOKEN is set: the scrape is off")))]
async fn scrape(
    State(app): State<Arc<AppCtx>>,
    Client(client): Client,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Some(token) = app.config.metrics_token.as_deref() else {
        return Err(ApiError::NotFound);
    };
    let (limit, window) = METRICS_FAILURES;
    let bucket = format!("metrics-fail:{client}");
    let now = app::platform::state::now();
    let db = &app.state.db;
    if app::platform::ratelimit::current(db, &bucket, window, now).await? >= limit {
        return Err(ApiError::Wire {
            status: StatusCode::TOO_MANY_REQUESTS,
            body: Box::new(ErrorBody::new(
                "too_many_requests",
                "diagnostics.errors.metrics_token",
            )),
            cause: None,
            what: "",
        });
    }
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if !same_secret(given.trim(), token) {
        app::platform::ratelimit::count(db, &bucket, window, now).await?;
        let mut res = ApiError::Wire {
            status: StatusCode::UNAUTHORIZED,
            body: Box::new(ErrorBody::new(
                "unauthorized",
                "diagnostics.errors.metrics_token",
            )),
            cause: None,
            what: "",
        }
        .into_response();
        res.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"metrics\""),
        );
        return Ok(res);
    }
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(OPENMETRICS)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        app.telemetry.encode(),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    #[test]
    fn secrets_compare_whole() {
        assert!(super::same_secret("abc", "abc"));
        assert!(!super::same_secret("abc", "abd"));
        assert!(!super::same_secret("abc", "abcd"));
        assert!(!super::same_secret("", "a"));
    }
}
