use leptos::prelude::get_configuration;
use tracing_subscriber::EnvFilter;

// Serving a cached page is mostly small allocations on two threads; mimalloc measured
// faster than glibc's allocator on the catalog benchmark (scripts/bench/bench-catalog.sh).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() {
    if std::env::args().nth(1).as_deref() == Some("backup") {
        std::process::exit(backup(std::env::args().nth(2)).await);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(code) = server::admin::run(&args).await {
        std::process::exit(code);
    }
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
    let config_front_threads = config.front_threads;
    let app = match server::prepare(config).await {
        Ok(a) => a,
        Err(e) => {
            tracing::error!(error = %e, "start-up failed");
            std::process::exit(1);
        }
    };
    // `server prepare`: the start-up without serving (migrations, demo data). scripts/run.sh
    // runs it as soon as the server is built, while the tools are still installing, so the
    // first start on a fresh machine no longer creates the demo data (14 s) after them.
    if args.first().map(String::as_str) == Some("prepare") {
        tracing::info!("prepared: migrations and demo data are in place");
        return;
    }
    let listener = match bind(addr) {
        Ok(l) => l,
        Err(e) => {
            tracing::error!(error = %e, %addr, "cannot listen");
            std::process::exit(1);
        }
    };
    tracing::info!("Rosace listening on http://{addr}");
    let header_timeout = std::time::Duration::from_secs(header_timeout_secs);
    if config_front_threads {
        // Cached pages are answered on the front threads, not in the router.
        let router = server::router_with(app.clone(), leptos_options, false);
        server::serve::listen::listen_per_core(
            listener,
            app,
            router,
            header_timeout,
            shutdown_signal(),
        )
        .await;
    } else {
        let router = server::router(app, leptos_options);
        server::serve::listen::listen(listener, router, header_timeout, shutdown_signal()).await;
    }
    tracing::info!("stopped after finishing in-flight requests");
}

/// The listening socket, with an accept queue as long as the kernel allows (it caps it at
/// `net.core.somaxconn`). Tokio's `TcpListener::bind` asks for 1,024: at a sale opening
/// thousands of members connect within seconds, and a connection past a full queue has its
/// handshake dropped and retried by the client after 1, 3, 7, 15 s (the sale-opening bench
/// saw members wait 14 s for their first page the server then answered in milliseconds).
fn bind(addr: std::net::SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(ACCEPT_QUEUE)
}

/// Connections waiting to be accepted.
const ACCEPT_QUEUE: u32 = 16_384;

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

/// `server backup <file>`: a consistent copy of the SQLite database named by the same
/// settings as the shop (DATABASE_URL, ROSACE_DATA_DIR), taken while it serves.
async fn backup(dest: Option<String>) -> i32 {
    let Some(dest) = dest else {
        eprintln!("usage: server backup <file>");
        return 2;
    };
    let config = match server::config::Config::from_env(([127, 0, 0, 1], 3000).into()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("configuration error: {e}");
            return 2;
        }
    };
    if let Some(file) = config.database_url.strip_prefix("sqlite://") {
        let file = file.split('?').next().unwrap_or(file);
        if !std::path::Path::new(file).exists() {
            eprintln!("no database at {file}: nothing to back up");
            return 1;
        }
    }
    let db = match app::platform::db::Db::connect(&config.database_url, 1).await {
        Ok(db) => db,
        Err(e) => {
            eprintln!("cannot open the database: {e}");
            return 1;
        }
    };
    match server::backup::sqlite_online_backup(&db, std::path::Path::new(&dest)).await {
        Ok(()) => {
            println!("backup written to {dest}");
            println!(
                "the saved bank details in it are encrypted: keep the wallet key (ROSACE_WALLET_KEY, \
                 or {}/{}) too, stored apart from the backups",
                config.data_dir,
                app::wallet::crypto::KEY_FILE
            );
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}
