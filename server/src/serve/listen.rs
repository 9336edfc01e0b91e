//! Accepts connections and serves the router over HTTP/1.1 with hyper, as `axum::serve`
//! does, plus what it lacks: a header-read timeout (a client that sends its headers a
//! byte at a time is cut off instead of holding a connection forever), TCP_NODELAY, and
//! a graceful stop that lets in-flight requests finish.
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::{Service, ServiceExt};

use super::front::FrontHits;
use crate::state::AppCtx;

/// The router's service for one connection (with the peer's address).
type RouterService = <axum::extract::connect_info::IntoMakeServiceWithConnectInfo<
    Router,
    SocketAddr,
> as Service<SocketAddr>>::Response;

/// How long a stop waits for in-flight requests before closing their connections.
const DRAIN: Duration = Duration::from_secs(20);

pub async fn listen(
    listener: TcpListener,
    router: Router,
    header_timeout: Duration,
    stop: impl Future<Output = ()>,
) {
    let make = router.into_make_service_with_connect_info::<SocketAddr>();
    serve_connections(listener, make, |service| service, header_timeout, stop).await;
}

/// The accept loop: each connection served over HTTP/1.1 by `wrap` of the router's service.
async fn serve_connections<S>(
    listener: TcpListener,
    mut make: axum::extract::connect_info::IntoMakeServiceWithConnectInfo<Router, SocketAddr>,
    wrap: impl Fn(RouterService) -> S,
    header_timeout: Duration,
    stop: impl Future<Output = ()>,
) where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(conn) => conn,
                Err(e) => {
                    // Out of file descriptors and the like: wait a moment, keep serving.
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // Without TCP_NODELAY a response written in two pieces can wait for the client's
        // delayed ACK (40 ms on Linux) before its last piece leaves.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!(error = %e, "cannot set TCP_NODELAY");
        }
        let service = match make.call(peer).await {
            Ok(s) => s,
            Err(never) => match never {},
        };
        let service = TowerToHyperService::new(
            wrap(service).map_request(|req: Request<Incoming>| req.map(Body::new)),
        );
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .keep_alive(true);
        let conn = graceful.watch(http.serve_connection(TokioIo::new(tcp), service));
        tokio::spawn(async move {
            // A client that goes away or times out is not an error of the shop.
            let _ = conn.await;
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("some requests were still running when the stop's wait ended");
    }
}

/// Serves `router` as [`listen`] does, but with one single-threaded runtime per core
/// accepting and answering connections, the way nginx runs one worker per core: a
/// visitor's cached page (`page_cache::front_hit`, answered on the connection's own thread)
/// then costs no wake-up of another thread. Every other request is handed to the calling
/// (multi-threaded) runtime, which balances renders, calls and the database between its
/// workers as before. On 2 cores the cached catalog page took 12.0 µs of CPU per request
/// with connections on the multi-threaded runtime and 10.5 with one thread (bench-catalog).
pub async fn listen_per_core(
    listener: TcpListener,
    app: Arc<AppCtx>,
    router: Router,
    header_timeout: Duration,
    stop: impl Future<Output = ()>,
) {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let main = tokio::runtime::Handle::current();
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let listener = match listener.into_std() {
        Ok(l) => l,
        Err(e) => {
            tracing::error!(error = %e, "cannot share the listening socket");
            return;
        }
    };
    let mut fronts = Vec::new();
    for n in 0..threads {
        let shared = match listener.try_clone() {
            Ok(l) => l,
            Err(e) => {
                tracing::error!(error = %e, "cannot share the listening socket");
                break;
            }
        };
        let (router, app, main, mut stop_rx) =
            (router.clone(), app.clone(), main.clone(), stop_rx.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("front-{n}"))
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        tracing::error!(error = %e, "cannot start a front thread");
                        return;
                    }
                };
                rt.block_on(async move {
                    let listener = match TcpListener::from_std(shared) {
                        Ok(l) => l,
                        Err(e) => {
                            tracing::error!(error = %e, "cannot listen on a front thread");
                            return;
                        }
                    };
                    let make = router.into_make_service_with_connect_info::<SocketAddr>();
                    serve_connections(
                        listener,
                        make,
                        |service| {
                            FrontHits::new(
                                app.clone(),
                                Offload {
                                    main: main.clone(),
                                    inner: service,
                                },
                            )
                        },
                        header_timeout,
                        async move {
                            let _ = stop_rx.wait_for(|stopped| *stopped).await;
                        },
                    )
                    .await;
                });
            });
        match spawned {
            Ok(handle) => fronts.push(handle),
            Err(e) => tracing::error!(error = %e, "cannot start a front thread"),
        }
    }
    if fronts.is_empty() {
        // No thread could start: serve on this runtime rather than not at all.
        if let Ok(listener) = TcpListener::from_std(listener) {
            let make = router.into_make_service_with_connect_info::<SocketAddr>();
            let wrap = |service| FrontHits::new(app.clone(), service);
            serve_connections(listener, make, wrap, header_timeout, stop).await;
        }
        return;
    }
    drop(listener);
    stop.await;
    let _ = stop_tx.send(true);
    let _ = tokio::task::spawn_blocking(move || {
        for front in fronts {
            let _ = front.join();
        }
    })
    .await;
}

/// Runs each request the front thread does not answer itself on the main runtime, and
/// waits for its response there. Dropped before the response (the client went away), it
/// cancels the request's task, as a request served on the connection's own task would be.
#[derive(Clone)]
struct Offload<S> {
    main: tokio::runtime::Handle,
    inner: S,
}

impl<S> Service<Request> for Offload<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        let task = AbortOnDrop(self.main.spawn(self.inner.call(req)));
        Box::pin(async move {
            let mut task = task;
            match (&mut task.0).await {
                Ok(Ok(res)) => Ok(res),
                Ok(Err(never)) => match never {},
                // A panic in a request: its answer, not a dropped connection.
                Err(e) => {
                    tracing::error!(error = %e, "a request's task failed");
                    Ok(StatusCode::INTERNAL_SERVER_ERROR.into_response())
                }
            }
        })
    }
}

struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}
