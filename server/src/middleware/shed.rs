//! Load shedding: at most `ROSACE_MAX_IN_FLIGHT` requests are worked on at once, and the
//! next ones get 503 with `Retry-After` straight away instead of queueing until every
//! request is slow. Written here rather than with tower's `ConcurrencyLimit` and
//! `LoadShed`: those turn an overload into an error that needs a `HandleError` layer to
//! become a response, and they cannot leave `/health` out (a busy shop must still say it
//! is alive, or its orchestrator restarts it at the worst moment).
use std::sync::Arc;

use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

/// The requests that may be worked on at once.
#[derive(Clone)]
pub struct InFlight(Arc<Semaphore>);

impl InFlight {
    pub fn new(max: usize) -> InFlight {
        InFlight(Arc::new(Semaphore::new(max.max(1))))
    }
}

pub async fn shed<N, F>(limit: &InFlight, req: Request, next: N) -> Response
where
    N: FnOnce(Request) -> F,
    F: std::future::Future<Output = Response>,
{
    if req.uri().path() == "/health" {
        return next(req).await;
    }
    let Ok(_permit) = limit.0.try_acquire() else {
        let path = super::request_id::loggable_path(req.uri().path());
        tracing::warn!(path = %path, "overloaded: request shed");
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [
                (header::RETRY_AFTER, HeaderValue::from_static("1")),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            ],
            "The shop is very busy: please try again in a moment.",
        )
            .into_response();
    };
    next(req).await
}
