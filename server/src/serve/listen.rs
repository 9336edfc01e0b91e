//! Accepts connections and serves the router over HTTP/1.1 with hyper, as `axum::serve`
//! does, plus what it lacks: a header-read timeout (a client that sends its headers a
//! byte at a time is cut off instead of holding a connection forever), TCP_NODELAY, and
//! a graceful stop that lets in-flight requests finish.
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::{Service, ServiceExt};

/// How long a stop waits for in-flight requests before closing their connections.
const DRAIN: Duration = Duration::from_secs(20);

pub async fn listen(
    listener: TcpListener,
    router: Router,
    header_timeout: Duration,
    stop: impl Future<Output = ()>,
) {
    let mut make = router.into_make_service_with_connect_info::<SocketAddr>();
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
            service.map_request(|req: Request<Incoming>| req.map(Body::new)),
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
