use leptos::prelude::get_configuration;
use tracing_subscriber::EnvFilter;

// Serving a cached page is mostly small allocations on two threads; mimalloc measured
// faster than glibc's allocator on the catalog benchmark (scripts/bench/bench-catalog.sh).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() {
    let leptos_conf = match get_configuration(None) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot read the Leptos configuration: {e}");
            std::process::exit(2);
        }
    };
    let leptos_options = leptos_conf.leptos_options;
    let config = match server::config::Config::from_env(leptos_options.site_addr) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("configuration error: {e}");
            std::process::exit(2);
        }
    };
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    if config.json_logs {
        tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .init();
    } else {
        // Colour codes only where a person reads them, not in files CI keeps.
        use std::io::IsTerminal;
        tracing_subscriber::fmt()
            .with_ansi(std::io::stdout().is_terminal())
            .with_env_filter(filter)
            .init();
    }
    let addr = config.addr;
    let header_timeout_secs = config.header_timeout_secs;
    let app = match server::prepare(config).await {
        Ok(a) => a,
        Err(e) => {
            tracing::error!(error = %e, "start-up failed");
            std::process::exit(1);
        }
    };
    let router = server::router(app, leptos_options);
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            tracing::error!(error = %e, %addr, "cannot listen");
            std::process::exit(1);
        }
    };
    tracing::info!("Rosace listening on http://{addr}");
    server::serve::listen::listen(
        listener,
        router,
        std::time::Duration::from_secs(header_timeout_secs),
        shutdown_signal(),
    )
    .await;
    tracing::info!("stopped after finishing in-flight requests");
}

/// SIGTERM or Ctrl-C: stop accepting, let in-flight requests finish.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
    tracing::info!("shutdown signal received");
}
