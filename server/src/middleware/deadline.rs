//! A request's response must start within the request timeout, else 408: slow handlers
//! cannot hold workers forever.
//!
//! Why not tower-http's `TimeoutLayer`: its future polls its timer before the handler, so
//! every request registered a timer in Tokio's wheel and took it out again, about 4% of the
//! CPU of a cached page (perf, `docs/benchmarks.md`). Tokio's own `timeout` polls the
//! handler first and registers its timer only when the handler is not done on that first
//! poll, as a page served from the cache usually is.
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

pub async fn deadline<N, F>(limit: Duration, req: axum::extract::Request, next: N) -> Response
where
    N: FnOnce(axum::extract::Request) -> F,
    F: std::future::Future<Output = Response>,
{
    match tokio::time::timeout(limit, next(req)).await {
        Ok(res) => res,
        Err(_) => StatusCode::REQUEST_TIMEOUT.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> axum::extract::Request {
        axum::extract::Request::new(axum::body::Body::empty())
    }

    #[tokio::test]
    async fn a_handler_past_the_limit_gets_408() {
        let res = deadline(Duration::from_millis(20), request(), |_| {
            std::future::pending::<Response>()
        })
        .await;
        assert_eq!(res.status(), StatusCode::REQUEST_TIMEOUT);
    }

    #[tokio::test]
    async fn a_handler_within_the_limit_is_answered() {
        let res = deadline(Duration::from_secs(5), request(), |_| async {
            tokio::time::sleep(Duration::from_millis(10)).await;
            StatusCode::CREATED.into_response()
        })
        .await;
        assert_eq!(res.status(), StatusCode::CREATED);
    }
}
