//! Accepts connections and serves the router over HTTP/1.1 with hyper, as `axum::serve`
//! does, plus what it lacks: a header-read timeout (a client that sends its headers a
//! byte at a time is cut off instead of holding a connection forever), TCP_NODELAY, and
//! a graceful stop that lets in-flight requests finish.
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
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
use tokio::net::{TcpListener, TcpStream};
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
    serve_connections(
        listener,
        make,
        |service| service,
        None,
        None,
        header_timeout,
        stop,
    )
    .await;
}

/// The accept loop: each connection served over HTTP/1.1 by `wrap` of the router's service,
/// or, when `members` is given and the connection's first request carries a session
/// cookie, by the router's service on the main runtime (`Members`). With `share`, this
/// loop is front thread `share.1` and takes its share of new connections (`Share`).
async fn serve_connections<S>(
    listener: TcpListener,
    mut make: axum::extract::connect_info::IntoMakeServiceWithConnectInfo<Router, SocketAddr>,
    wrap: impl Fn(RouterService) -> S,
    members: Option<Members>,
    share: Option<(Arc<Share>, usize)>,
    header_timeout: Duration,
    stop: impl Future<Output = ()>,
) where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        if let Some((share, me)) = &share {
            share.turn(*me).await;
        }
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
        let held = share.as_ref().map(|(share, me)| share.hold(*me));
        let Some(members) = &members else {
            let conn = graceful.watch(connection(tcp, wrap(service), header_timeout));
            tokio::spawn(async move {
                // A client that goes away or times out is not an error of the shop.
                let _ = conn.await;
                drop(held);
            });
            continue;
        };
        let (members, front, watcher) =
            (members.clone(), wrap(service.clone()), graceful.watcher());
        tokio::spawn(async move {
            if !first_request_has(&tcp, &members.cookie, header_timeout).await {
                let _ = watcher.watch(connection(tcp, front, header_timeout)).await;
                drop(held);
                return;
            }
            // Served by the main runtime from here: no longer this thread's load.
            drop(held);
            let Ok(tcp) = tcp.into_std() else { return };
            let main = members.main.clone();
            main.spawn(async move {
                let Ok(tcp) = TcpStream::from_std(tcp) else {
                    return;
                };
                let service = FrontHits::new(members.app.clone(), service);
                let _ = watcher
                    .watch(connection(tcp, service, header_timeout))
                    .await;
            });
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

/// A connection served by hyper with `S`.
type Connection<S> = hyper::server::conn::http1::Connection<
    TokioIo<TcpStream>,
    TowerToHyperService<tower::util::MapRequest<S, fn(Request<Incoming>) -> Request>>,
>;

/// One connection served over HTTP/1.1 by `service`.
fn connection<S>(tcp: TcpStream, service: S, header_timeout: Duration) -> Connection<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    fn to_body(req: Request<Incoming>) -> Request {
        req.map(Body::new)
    }
    let service =
        TowerToHyperService::new(service.map_request(to_body as fn(Request<Incoming>) -> Request));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(true);
    http.serve_connection(TokioIo::new(tcp), service)
}

/// Where a member's connection goes from a front thread: the main runtime, where its pages
/// are made. Each of their requests would otherwise cross from the front thread to the
/// main runtime and back; on a machine busy with a sale opening those two extra wake-ups
/// doubled the members' slowest pages (bench-sale-opening, two instances).
#[derive(Clone)]
struct Members {
    main: tokio::runtime::Handle,
    app: Arc<AppCtx>,
    /// `name=` of the session cookie.
    cookie: Arc<[u8]>,
}

/// How much of a connection's first bytes is looked at for the session cookie.
const PEEK: usize = 8 * 1024;

/// Whether the first request's head on `tcp` (as far as its first `PEEK` bytes go) holds
/// `cookie` (`name=`). Waits for its first bytes at most `header_timeout` (then the
/// connection's own header timeout applies); reads nothing off the connection.
async fn first_request_has(tcp: &TcpStream, cookie: &[u8], header_timeout: Duration) -> bool {
    let mut buf = vec![0u8; PEEK];
    let peeked = tokio::time::timeout(header_timeout, async {
        let mut seen = 0;
        // A peek that finds bytes returns at once, so waiting for more of a head means
        // sleeping: a few times, longer each time, so that a client sending its head a
        // byte at a time costs a handful of peeks, not one a millisecond until its timeout.
        for pause in [5, 20, 100, 0] {
            match tcp.peek(&mut buf).await {
                // The whole head, all the room there is, or the client is done.
                Ok(n) if n == 0 || n == buf.len() || head_ends_at(&buf[..n]).is_some() => return n,
                Ok(n) => seen = n,
                Err(_) => return 0,
            }
            tokio::time::sleep(Duration::from_millis(pause)).await;
        }
        // Still not the whole head: decided on what came (at worst a member's connection
        // stays here and its requests are handed over one by one).
        seen
    })
    .await
    .unwrap_or(0);
    let head = &buf[..peeked];
    let head = head_ends_at(head).map_or(head, |end| &head[..end]);
    head.windows(cookie.len()).any(|w| w == cookie)
}

fn head_ends_at(bytes: &[u8]) -> Option<usize> {
    bytes.windows(4).position(|w| w == b"\r\n\r\n")
}

/// The connections each front thread serves, so that new ones are spread between the
/// threads. They all wait on one listening socket, and the first to wake takes every
/// connection that is there: when a load tool (or a proxy's pool) opened its 64
/// connections at once, one thread often took them all and the other core stayed idle
/// (the cached catalog page at 105,000 req/s instead of 150,000). A thread with more than
/// `SLACK` connections above the least loaded one lets the others take the next
/// connections, for up to `WAIT`: a thread that is stuck does not keep new clients out.
/// nginx does the same with `ngx_accept_disabled`.
struct Share {
    live: Box<[AtomicUsize]>,
}

/// Extra connections a front thread may have over the least loaded one before it defers.
const SLACK: usize = 1;
/// The longest a front thread defers before it accepts anyway.
const WAIT: Duration = Duration::from_millis(10);

impl Share {
    fn new(threads: usize) -> Share {
        Share {
            live: (0..threads).map(|_| AtomicUsize::new(0)).collect(),
        }
    }

    /// Whether thread `me` may accept now.
    fn may_accept(&self, me: usize) -> bool {
        let mine = self.live[me].load(Ordering::Relaxed);
        let fewest = (self.live.iter().enumerate())
            .filter(|(n, _)| *n != me)
            .map(|(_, live)| live.load(Ordering::Relaxed))
            .min()
            .unwrap_or(mine);
        mine <= fewest + SLACK
    }

    /// Waits until thread `me` may accept, or `WAIT` has passed.
    async fn turn(&self, me: usize) {
        let deadline = tokio::time::Instant::now() + WAIT;
        while !self.may_accept(me) && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// One more connection on thread `me`, until the guard is dropped.
    fn hold(self: &Arc<Share>, me: usize) -> Held {
        self.live[me].fetch_add(1, Ordering::Relaxed);
        Held(self.clone(), me)
    }
}

struct Held(Arc<Share>, usize);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.live[self.1].fetch_sub(1, Ordering::Relaxed);
    }
}

/// Serves `router` as [`listen`] does, but with one single-threaded runtime per core
/// accepting connections, the way nginx runs one worker per core: a visitor's cached page
/// (`page_cache::front_hit`) is answered on the connection's own thread, with no wake-up of
/// another thread. A visitor's other requests are handed to the calling (multi-threaded)
/// runtime, which balances renders, calls and the database between its workers (`Offload`);
/// a connection whose first request carries a session cookie, a member's, is handed there
/// whole (`Members`). On 2 cores the cached catalog page took 12.0 µs of CPU per request
/// with every connection on the multi-threaded runtime, and 8.3-9.9 on the front threads
/// (docs/benchmarks.md, session 75).
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
    let share = Arc::new(Share::new(threads));
    let mut fronts = Vec::new();
    for n in 0..threads {
        let shared = match listener.try_clone() {
            Ok(l) => l,
            Err(e) => {
                tracing::error!(error = %e, "cannot share the listening socket");
                break;
            }
        };
        let (router, app, main, mut stop_rx, share) = (
            router.clone(),
            app.clone(),
            main.clone(),
            stop_rx.clone(),
            share.clone(),
        );
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
                        Some(Members {
                            main: main.clone(),
                            app: app.clone(),
                            cookie: format!("{}=", crate::middleware::session_cookie_name(&app))
                                .into_bytes()
                                .into(),
                        }),
                        Some((share, n)),
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
            serve_connections(listener, make, wrap, None, None, header_timeout, stop).await;
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
        let request = self.inner.call(req);
        let task = AbortOnDrop(self.main.spawn(async move {
            let Ok(res) = request.await;
            body_on_this_runtime(res)
        }));
        Box::pin(async move {
            let mut task = task;
            match (&mut task.0).await {
                Ok(res) => Ok(res),
                // A panic in a request: its answer, not a dropped connection.
                Err(e) => {
                    tracing::error!(error = %e, "a request's task failed");
                    Ok(StatusCode::INTERNAL_SERVER_ERROR.into_response())
                }
            }
        })
    }
}

/// `res` with its body read on the runtime this is called on. A body whose bytes are all
/// there (a cached page, a member's filled template) is left as it is; any other (a page
/// compressed as it is sent, a file) is read by a task here and handed over as it comes:
/// polled on a front thread, its work (compression above all) would run there, one thread
/// with no one to share it with, and the sale-opening benchmark saw members' pages wait
/// up to a second behind it.
fn body_on_this_runtime(res: Response) -> Response {
    use futures_util::StreamExt;
    use http_body::Body as _;
    let (parts, body) = res.into_parts();
    if body.is_end_stream() || body.size_hint().exact().is_some() {
        return Response::from_parts(parts, body);
    }
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Result<bytes::Bytes, axum::Error>>(4);
    tokio::spawn(async move {
        let mut data = body.into_data_stream();
        while let Some(chunk) = data.next().await {
            // The client went away: stop reading (and making) the rest.
            if tx.send(chunk).await.is_err() {
                break;
            }
        }
    });
    let stream = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx));
    Response::from_parts(parts, Body::from_stream(stream))
}

struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    /// A connection accepted on a loopback port, and its client's end.
    async fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap())
            .await
            .unwrap();
        let (server, _) = listener.accept().await.unwrap();
        (server, client)
    }

    const SESSION: &[u8] = b"rosace_session=";

    #[test]
    fn a_thread_defers_to_the_others_only_beyond_its_slack() {
        let share = Arc::new(Share::new(2));
        assert!(share.may_accept(0) && share.may_accept(1));
        let first = share.hold(0);
        assert!(
            share.may_accept(0),
            "one over the other is within the slack"
        );
        let second = share.hold(0);
        assert!(!share.may_accept(0) && share.may_accept(1));
        let other = share.hold(1);
        assert!(share.may_accept(0));
        drop((first, second, other));
        assert_eq!(share.live[0].load(Ordering::Relaxed), 0);
        // Alone, a thread always accepts.
        let alone = Arc::new(Share::new(1));
        let _held: Vec<_> = (0..5).map(|_| alone.hold(0)).collect();
        assert!(alone.may_accept(0));
    }

    #[test]
    fn a_burst_of_connections_is_spread_between_the_front_threads() {
        const CONNECTIONS: usize = 64;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let share = Arc::new(Share::new(2));
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let threads: Vec<_> = (0..2)
            .map(|n| {
                let (shared, share, mut stop_rx) = (
                    listener.try_clone().unwrap(),
                    share.clone(),
                    stop_rx.clone(),
                );
                std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .unwrap();
                    rt.block_on(async move {
                        let router =
                            Router::new().route("/", axum::routing::get(|| async { "ok" }));
                        serve_connections(
                            TcpListener::from_std(shared).unwrap(),
                            router.into_make_service_with_connect_info::<SocketAddr>(),
                            |service| service,
                            None,
                            Some((share, n)),
                            Duration::from_secs(10),
                            async move {
                                let _ = stop_rx.wait_for(|stopped| *stopped).await;
                            },
                        )
                        .await;
                    });
                })
            })
            .collect();
        // Both threads wait on the socket before the burst comes.
        std::thread::sleep(Duration::from_millis(200));
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            use tokio::io::AsyncReadExt;
            let mut clients = Vec::new();
            for _ in 0..CONNECTIONS {
                clients.push(TcpStream::connect(addr).await.unwrap());
            }
            for client in &mut clients {
                client
                    .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                    .await
                    .unwrap();
            }
            for client in &mut clients {
                let mut buf = [0u8; 512];
                let n = client.read(&mut buf).await.unwrap();
                assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
            }
            let live: Vec<usize> = share
                .live
                .iter()
                .map(|l| l.load(Ordering::Relaxed))
                .collect();
            assert_eq!(live.iter().sum::<usize>(), CONNECTIONS, "{live:?}");
            // Evenly, unless a thread was kept off its core past the wait (a busy test
            // machine): never all on one.
            assert!(live.iter().all(|&l| l >= CONNECTIONS / 4), "{live:?}");
            drop(clients);
        });
        let _ = stop_tx.send(true);
        for thread in threads {
            thread.join().unwrap();
        }
    }

    #[tokio::test]
    async fn a_members_connection_is_told_by_its_first_requests_cookie() {
        let wait = Duration::from_secs(5);
        let (server, mut client) = pair().await;
        client
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nCookie: site=1; rosace_session=abc\r\n\r\n")
            .await
            .unwrap();
        assert!(first_request_has(&server, SESSION, wait).await);
        // Nothing was taken from the connection: the request is still there for hyper.
        let mut buf = [0u8; 3];
        server.peek(&mut buf).await.unwrap();
        assert_eq!(&buf, b"GET");

        let (server, mut client) = pair().await;
        client
            .write_all(b"GET /?rosace_visitor=1 HTTP/1.1\r\nCookie: site=1\r\n\r\n")
            .await
            .unwrap();
        assert!(!first_request_has(&server, SESSION, wait).await);

        // A head sent in pieces is waited for; a cookie named after its end is not the
        // head's (a body or the next request).
        let (server, mut client) = pair().await;
        client.write_all(b"GET / HTTP/1.1\r\nCoo").await.unwrap();
        let told = tokio::spawn(async move { first_request_has(&server, SESSION, wait).await });
        tokio::time::sleep(Duration::from_millis(50)).await;
        client
            .write_all(b"kie: rosace_session=abc\r\n\r\n")
            .await
            .unwrap();
        assert!(told.await.unwrap());
        let (server, mut client) = pair().await;
        client
            .write_all(b"POST / HTTP/1.1\r\nContent-Length: 18\r\n\r\nrosace_session=abc")
            .await
            .unwrap();
        assert!(!first_request_has(&server, SESSION, wait).await);

        // A head sent a byte at a time is looked at a few times, then decided on what came.
        let (server, mut client) = pair().await;
        let trickle = tokio::spawn(async move {
            for b in b"GET / HTTP/1.1\r\nCookie: rosace_session=abc\r\n\r\n" {
                client.write_all(&[*b]).await.unwrap();
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            client
        });
        let started = std::time::Instant::now();
        assert!(!first_request_has(&server, SESSION, wait).await);
        assert!(started.elapsed() < Duration::from_secs(1));
        trickle.abort();

        // A client that sends nothing is given up on after the wait, as a visitor.
        let (server, _client) = pair().await;
        let started = std::time::Instant::now();
        assert!(!first_request_has(&server, SESSION, Duration::from_millis(200)).await);
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}
