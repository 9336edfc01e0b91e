//! The server's connections on one thread per core (`serve::listen::listen_per_core`):
//! what the front threads do not answer runs on the main runtime, a request that panics is
//! answered 500 without taking the server down, and a stop ends the threads.
use std::time::Duration;

use axum::routing::get;

use crate::helpers::{start, start_with, Backend};

/// Serves `router` on the front threads with `t`'s shop; its base URL and the stop.
async fn serve_per_core(
    app: &std::sync::Arc<server::AppCtx>,
    router: axum::Router,
) -> (
    String,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(server::serve::listen::listen_per_core(
        listener,
        app.clone(),
        router,
        Duration::from_secs(10),
        async move {
            let _ = stopped.await;
        },
    ));
    (base, stop, served)
}

fn thread_name() -> String {
    std::thread::current().name().unwrap_or("").to_string()
}

#[tokio::test]
async fn requests_run_on_the_main_runtime_and_a_panic_is_answered_500() {
    let t = start(Backend::Sqlite).await;
    let test_thread = thread_name();
    let router = axum::Router::new()
        .route("/where", get(|| async { thread_name() }))
        .route(
            "/panic",
            get(|| async {
                if thread_name() != "never" {
                    panic!("a handler fails");
                }
                "unreachable"
            }),
        );
    let (base, stop, served) = serve_per_core(&t.app, router).await;
    let client = reqwest::Client::new();
    for _ in 0..8 {
        let res = client.get(format!("{base}/where")).send().await.unwrap();
        assert_eq!(res.status(), 200);
        let ran_on = res.text().await.unwrap();
        assert_eq!(
            ran_on, test_thread,
            "the handler ran on the caller's runtime"
        );
        assert!(!ran_on.starts_with("front-"));
    }
    let res = client.get(format!("{base}/panic")).send().await.unwrap();
    assert_eq!(res.status(), 500);
    let res = client.get(format!("{base}/where")).send().await.unwrap();
    assert_eq!(res.status(), 200, "the server still answers after a panic");
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(30), served)
        .await
        .expect("the front threads stop")
        .unwrap();
    assert!(
        client.get(format!("{base}/where")).send().await.is_err(),
        "no connection is accepted after the stop"
    );
}

/// A visitor's cached page is answered on the front threads: the page cache counts a hit
/// before the steps, and the copy is the one the steps made.
#[tokio::test]
async fn a_cached_page_is_answered_on_the_front_threads() {
    let t = start_with(Backend::Sqlite, |c| c.page_cache_ms = 60_000).await;
    let page = "/c/vente/1001/0?site=1";
    let first = t.get(page).await;
    assert_eq!(first.status(), 200);
    let before = t.app.page_cache.front_hits();
    let second = t
        .client
        .get(format!("{}{page}", t.base))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(second.status(), 200);
    assert!(second.headers().contains_key("age"));
    assert_eq!(second.headers()["content-encoding"], "gzip");
    assert_eq!(t.app.page_cache.front_hits(), before + 1);
}
