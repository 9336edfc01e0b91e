//! The outermost layer: a visitor's cached page is answered here (`page_cache::front_hit`),
//! everything else goes through the request steps. Written as a plain service, not with
//! `from_fn`, which clones and boxes the whole service inside it on every request.
use std::convert::Infallible;
use std::future::{ready, Ready};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::Request;
use axum::response::Response;
use futures_util::future::Either;

use crate::state::AppCtx;

#[derive(Clone)]
pub struct FrontHitsLayer(pub Arc<AppCtx>);

impl<S> tower::Layer<S> for FrontHitsLayer {
    type Service = FrontHits<S>;

    fn layer(&self, inner: S) -> FrontHits<S> {
        FrontHits {
            app: self.0.clone(),
            inner,
        }
    }
}

#[derive(Clone)]
pub struct FrontHits<S> {
    app: Arc<AppCtx>,
    inner: S,
}

impl<S> FrontHits<S> {
    pub fn new(app: Arc<AppCtx>, inner: S) -> FrontHits<S> {
        FrontHits { app, inner }
    }
}

impl<S> tower::Service<Request> for FrontHits<S>
where
    S: tower::Service<Request, Response = Response, Error = Infallible>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Either<Ready<Result<Response, Infallible>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        match super::page_cache::front_hit(&self.app, &req) {
            Some(res) => Either::Left(ready(Ok(res))),
            None => Either::Right(self.inner.call(req)),
        }
    }
}
