//! Test harness: starts the real server on a free port against a fresh database.
//! SQLite always; PostgreSQL from `ROSACE_TEST_PG_URL` (an admin URL; `scripts/test.sh`
//! starts a local server and sets it), one new database per test.
//!
//! A flow that must hold on both backends is an `async fn(TestApp)` turned into two tests
//! by [`both!`].
pub mod cart;
pub mod logs;

use std::net::SocketAddr;
use std::sync::Arc;

use leptos::prelude::LeptosOptions;
use server::config::Config;
use server::AppCtx;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub base: String,
    pub app: Arc<AppCtx>,
    pub client: reqwest::Client,
    _dir: tempdir::Dir,
}

/// A seeded SQLite database to start from. Seeding the demo data of 11 sites takes SQLite
/// several seconds of CPU, and nextest runs every test in a process of its own, so each
/// SQLite test paid for it. The first test of a build seeds a template on disk (keyed by
/// the test binary, so a rebuild seeds anew, and by the hour, so date-based demo rows are
/// those of a fresh seed); the others copy it and start as the shop does on a restart
/// (migrations checked, sale dates moved to now, missing demo rows added).
mod sqlite_template {
    use std::path::{Path, PathBuf};

    fn path() -> PathBuf {
        std::env::temp_dir().join(format!("rosace-template-{}.db", key()))
    }

    /// The template's key: the test binary (a rebuild seeds anew) and the hour.
    pub fn key() -> String {
        use std::hash::{Hash, Hasher};
        let exe = std::env::current_exe().expect("test binary path");
        let meta = std::fs::metadata(&exe).expect("test binary");
        let mut h = std::collections::hash_map::DefaultHasher::new();
        exe.hash(&mut h);
        meta.len().hash(&mut h);
        meta.modified().ok().hash(&mut h);
        (app::platform::state::now() / 3600).hash(&mut h);
        format!("{:016x}", h.finish())
    }

    pub async fn copy_to(db: &Path) {
        let template = path();
        if !template.exists() {
            build(&template).await;
        }
        std::fs::copy(&template, db).expect("copy the seeded template");
    }

    /// Seeds a throwaway database and writes a compact copy of it (`VACUUM INTO`: one file,
    /// no WAL), renamed into place so a reader never sees half of it. Two first tests may
    /// both build one; the last rename wins and both are whole.
    async fn build(template: &Path) {
        let dir = std::env::temp_dir().join(format!("rosace-seed-{}", super::unique()));
        std::fs::create_dir_all(&dir).unwrap();
        let _cleanup = super::tempdir::Dir(dir.clone());
        let url = format!("sqlite://{}/rosace.db?mode=rwc", dir.display());
        let app = server::prepare(super::test_config(url, &dir.display().to_string()))
            .await
            .expect("seed the template");
        let pool = &app.state.db.pool;
        // Each test's shop makes its own XSRF secret, as a new shop does.
        sqlx::query("DELETE FROM app_meta WHERE key = 'xsrf_secret'")
            .execute(pool)
            .await
            .expect("template: forget the XSRF secret");
        let partial = dir.join("template.db");
        let target = partial.display().to_string().replace('\'', "''");
        sqlx::query(&format!("VACUUM INTO '{target}'"))
            .execute(pool)
            .await
            .expect("template: VACUUM INTO");
        std::fs::rename(&partial, template).expect("template in place");
        drop_older();
    }

    /// Removes the templates of earlier builds and hours (5 MB each, one per build and
    /// hour). Only those untouched for two hours: a template's key holds its hour, so no
    /// test still running reads one that old, while another build's of this hour may be
    /// (the one just written is new).
    fn drop_older() {
        let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
            return;
        };
        let old = std::time::Duration::from_secs(2 * 3600);
        for entry in entries.flatten() {
            let path = entry.path();
            let ours = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("rosace-template-") && n.ends_with(".db"));
            let aged = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > old);
            if ours && aged {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

/// The PostgreSQL twin of the SQLite template: the demo data comes in through the feed
/// import, which takes PostgreSQL several seconds per database, and a hundred and more
/// PostgreSQL tests each want a seeded one. The first test of a build (and hour) seeds a
/// template database, under a lock that the others wait on; each test then gets a copy
/// (`CREATE DATABASE ... TEMPLATE`, a file copy on the server).
mod postgres_template {
    use sqlx::AnyPool;

    const PREFIX: &str = "rosacetpl_";

    /// The template's name, seeded if it is not there yet.
    pub async fn ensure(admin_pool: &AnyPool, admin_url: &str) -> String {
        let name = format!("{PREFIX}{}", super::sqlite_template::key());
        let mut lock = admin_pool.acquire().await.expect("template: a connection");
        sqlx::query("SELECT pg_advisory_lock(hashtext('rosace-test-template'))")
            .execute(&mut *lock)
            .await
            .expect("template: lock");
        let there: Option<String> =
            sqlx::query_scalar("SELECT datname::text FROM pg_database WHERE datname = $1")
                .bind(&name)
                .fetch_optional(&mut *lock)
                .await
                .expect("template: look");
        if there.is_none() {
            drop_older(&mut lock, &name).await;
            build(&mut lock, admin_url, &name).await;
        }
        sqlx::query("SELECT pg_advisory_unlock(hashtext('rosace-test-template'))")
            .execute(&mut *lock)
            .await
            .expect("template: unlock");
        name
    }

    /// Seeds `name` as a shop's first start does, under another name until it is whole.
    async fn build(conn: &mut sqlx::AnyConnection, admin_url: &str, name: &str) {
        let building = format!("{name}_building");
        let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)"))
            .execute(&mut *conn)
            .await;
        sqlx::query(&format!("CREATE DATABASE {building}"))
            .execute(&mut *conn)
            .await
            .expect("template: create");
        let dir = std::env::temp_dir().join(format!("rosace-pgseed-{}", super::unique()));
        std::fs::create_dir_all(&dir).unwrap();
        let _cleanup = super::tempdir::Dir(dir.clone());
        let (prefix, _) = admin_url.rsplit_once('/').expect("URL has a database part");
        let config = super::test_config(format!("{prefix}/{building}"), &dir.display().to_string());
        let app = server::prepare(config).await.expect("seed the template");
        let pool = app.state.db.pool.clone();
        // Each test's shop makes its own XSRF secret, as a new shop does.
        sqlx::query("DELETE FROM app_meta WHERE key = 'xsrf_secret'")
            .execute(&pool)
            .await
            .expect("template: forget the XSRF secret");
        pool.close().await;
        drop(app);
        // A copy needs a template nobody is connected to: the seeding shop's background
        // tasks keep connections of their own. Only those: an autovacuum worker busy with
        // the freshly seeded tables belongs to a superuser, which a test role may not end
        // (CI failed on that once), and the rename below makes it stop by itself.
        sqlx::query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE datname = $1 AND pid <> pg_backend_pid()
                AND backend_type = 'client backend' AND usename = current_user",
        )
        .bind(&building)
        .execute(&mut *conn)
        .await
        .expect("template: end the seeding shop's connections");
        sqlx::query(&format!("ALTER DATABASE {building} RENAME TO {name}"))
            .execute(&mut *conn)
            .await
            .expect("template: rename");
    }

    /// Drops the templates of earlier builds and hours (one in use stays until next time).
    async fn drop_older(conn: &mut sqlx::AnyConnection, current: &str) {
        let names: Vec<String> = sqlx::query_scalar(
            "SELECT datname::text FROM pg_database WHERE starts_with(datname, $1)",
        )
        .bind(PREFIX)
        .fetch_all(&mut *conn)
        .await
        .unwrap_or_default();
        for name in names {
            if name != current && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
                    .execute(&mut *conn)
                    .await;
            }
        }
    }
}

mod tempdir {
    pub struct Dir(pub std::path::PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn unique() -> String {
    format!("{}_{:08x}", std::process::id(), rand::random::<u32>())
}

fn postgres_admin_url() -> String {
    std::env::var("ROSACE_TEST_PG_URL").expect(
        "ROSACE_TEST_PG_URL must point at a PostgreSQL server (scripts/test.sh starts one and sets it)",
    )
}

/// A new test database's name and URL.
fn postgres_url() -> (String, String) {
    let admin = postgres_admin_url();
    let name = format!("rosace_t_{}", unique());
    let (prefix, _) = admin.rsplit_once('/').expect("URL has a database part");
    let url = format!("{prefix}/{name}");
    (name, url)
}

/// Creates test database `name`: a copy of the seeded template when `seeded`, else empty.
async fn create_postgres(name: &str, seeded: bool) {
    let admin = postgres_admin_url();
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&admin)
        .await
        .expect("connect to test PostgreSQL");
    drop_orphans(&pool).await;
    let sql = if seeded {
        let template = postgres_template::ensure(&pool, &admin).await;
        format!("CREATE DATABASE {name} TEMPLATE {template}")
    } else {
        format!("CREATE DATABASE {name}")
    };
    sqlx::query(&sql)
        .execute(&pool)
        .await
        .expect("create test database");
    pool.close().await;
}

/// Drops the test databases of test processes that have ended. Each test runs in a process
/// of its own (nextest) and its database outlives it: without this, a few hundred runs
/// filled the disk. A database of a live process (its pid in the name) is left alone.
async fn drop_orphans(pool: &sqlx::AnyPool) {
    use sqlx::Row;
    let Ok(rows) = sqlx::query(
        "SELECT datname::text AS name FROM pg_database WHERE datname LIKE 'rosace_t_%'",
    )
    .fetch_all(pool)
    .await
    else {
        return;
    };
    for row in rows {
        let Ok(name) = row.try_get::<String, _>("name") else {
            continue;
        };
        let pid = name.trim_start_matches("rosace_t_").split('_').next();
        let alive = pid.is_some_and(|pid| std::path::Path::new(&format!("/proc/{pid}")).exists());
        if !alive && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            // Another test process may be dropping it too: errors are of no consequence.
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .execute(pool)
                .await;
        }
    }
}

pub fn test_config(database_url: String, data_dir: &str) -> Config {
    let mut config = Config::from_env("127.0.0.1:0".parse().unwrap()).expect("default config");
    config.database_url = database_url;
    config.data_dir = data_dir.to_string();
    config.settings.mail.outbox_dir = format!("{data_dir}/outbox");
    config.settings.mail.smtp_url = None;
    config.site_hosts = Default::default();
    config.public_origin = "http://shop.test".into();
    config.demo_data = true;
    config.settings.dsa.rate_limit = 2;
    // The limiter's windows are fixed and aligned to the clock (a 600 s window ends at every
    // tenth minute): a test's few attempts that straddled an edge were counted in two windows
    // (one failed at 07:00:00). One window longer than the clock has run keeps them in one.
    const ONE_WINDOW: i64 = 1 << 40;
    config.settings.dsa.rate_window_secs = ONE_WINDOW;
    config.settings.auth.login_rate_window_secs = ONE_WINDOW;
    config.settings.auth.email_rate_window_secs = ONE_WINDOW;
    config.settings.diagnostics.rate_window_secs = ONE_WINDOW;
    config.db_max_connections = 8;
    // Some tests send hundreds of requests at once from this process (members' pages
    // interleaved, for one): on a 2-core machine the default (64 per core) would shed some.
    // Shedding has its own test (limits.rs).
    config.max_in_flight = 512;
    config.max_calls_in_flight = 2048;
    config.max_calls_running = 2048;
    // Tests read pages right after changing data; page_cache.rs has its own test.
    config.page_cache_ms = 0;
    config
}

/// The Leptos options the test shops serve pages with (the built site, if any, in target/site).
pub fn leptos_options() -> LeptosOptions {
    LeptosOptions::builder()
        .output_name("rosace")
        .site_root("target/site")
        .site_pkg_dir("pkg")
        .build()
}

pub async fn start_with(backend: Backend, tweak: impl FnOnce(&mut Config)) -> TestApp {
    let dir = std::env::temp_dir().join(format!("rosace-test-{}", unique()));
    std::fs::create_dir_all(&dir).unwrap();
    let (pg_name, url) = match backend {
        Backend::Sqlite => (
            None,
            format!("sqlite://{}/rosace.db?mode=rwc", dir.display()),
        ),
        Backend::Postgres => {
            let (name, url) = postgres_url();
            (Some(name), url)
        }
    };
    let mut config = test_config(url.clone(), &dir.display().to_string());
    tweak(&mut config);
    let seeded = config.demo_data && config.database_url == url;
    match pg_name {
        Some(name) => create_postgres(&name, seeded).await,
        None if seeded => sqlite_template::copy_to(&dir.join("rosace.db")).await,
        None => {}
    }
    let app = server::prepare(config).await.expect("server prepares");
    let options = leptos_options();
    let header_timeout = std::time::Duration::from_secs(app.config.header_timeout_secs);
    let base = serve_shop(&app, options, header_timeout).await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    TestApp {
        base,
        app,
        client,
        _dir: tempdir::Dir(dir),
    }
}

/// Serves `router` on a free loopback port as the shop does; its base URL.
pub async fn serve(router: axum::Router) -> String {
    serve_with(router, std::time::Duration::from_secs(10)).await
}

pub async fn serve_with(router: axum::Router, header_timeout: std::time::Duration) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    tokio::spawn(server::serve::listen::listen(
        listener,
        router,
        header_timeout,
        std::future::pending(),
    ));
    format!("http://{addr}")
}

/// Serves the whole shop as the server binary does (one front thread per core answering
/// cached pages, the rest on the test's runtime); its base URL.
pub async fn serve_shop(
    app: &Arc<AppCtx>,
    options: LeptosOptions,
    header_timeout: std::time::Duration,
) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    tokio::spawn(server::serve::listen::listen_per_core(
        listener,
        app.clone(),
        server::router_with(app.clone(), options, false),
        header_timeout,
        std::future::pending(),
    ));
    format!("http://{addr}")
}

/// The URL of a SQLite database in `dir` holding a copy of the seeded template, for a test
/// that builds its shop itself.
pub async fn seeded_sqlite(dir: &std::path::Path) -> String {
    sqlite_template::copy_to(&dir.join("rosace.db")).await;
    format!("sqlite://{}/rosace.db?mode=rwc", dir.display())
}

pub async fn start(backend: Backend) -> TestApp {
    start_with(backend, |_| {}).await
}

/// Two tests from one flow, `async fn(TestApp)`: `$sqlite` runs it on a fresh SQLite app,
/// `$postgres` on a fresh PostgreSQL one. An optional last argument adjusts the
/// configuration of both (`impl FnOnce(&mut Config)`); an optional leading attribute
/// replaces `#[tokio::test]` (for example a multi-thread runtime).
///
/// ```ignore
/// both!(checkout, checkout_on_sqlite, checkout_on_postgres);
/// both!(hold_expiry, hold_expiry_on_sqlite, hold_expiry_on_postgres, |c| c.settings.cart.hold_secs = 2);
/// both!(#[tokio::test(flavor = "multi_thread")] sale_opening, on_sqlite, on_postgres);
/// ```
macro_rules! both {
    (@tweak) => {
        |_: &mut server::config::Config| {}
    };
    (@tweak $tweak:expr) => {
        $tweak
    };
    (#[$test:meta] $flow:ident, $sqlite:ident, $postgres:ident $(, $tweak:expr)? $(,)?) => {
        #[$test]
        async fn $sqlite() {
            let app = $crate::helpers::start_with(
                $crate::helpers::Backend::Sqlite,
                $crate::helpers::both!(@tweak $($tweak)?),
            );
            $flow(app.await).await;
        }

        #[$test]
        async fn $postgres() {
            let app = $crate::helpers::start_with(
                $crate::helpers::Backend::Postgres,
                $crate::helpers::both!(@tweak $($tweak)?),
            );
            $flow(app.await).await;
        }
    };
    ($flow:ident, $sqlite:ident, $postgres:ident $(, $tweak:expr)? $(,)?) => {
        $crate::helpers::both!(#[tokio::test] $flow, $sqlite, $postgres $(, $tweak)?);
    };
}
pub(crate) use both;

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    pub async fn get_with_cookie(&self, path: &str, cookie: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .header("cookie", cookie)
            .send()
            .await
            .unwrap()
    }

    /// A second shop on the same database (another instance's view), configured as this
    /// one but for `tweak`; its base URL.
    pub async fn second_instance(&self, tweak: impl FnOnce(&mut Config)) -> String {
        let mut config = self.app.config.clone();
        tweak(&mut config);
        let app = server::prepare(config)
            .await
            .expect("the second shop prepares");
        let options = leptos_options();
        let header_timeout = std::time::Duration::from_secs(app.config.header_timeout_secs);
        serve_shop(&app, options, header_timeout).await
    }

    /// A member with a valid session row, as sign-in will create (members issue).
    pub async fn member_session(&self, site_id: u16) -> String {
        let member_id: i64 =
            sqlx::query_scalar("SELECT id FROM members WHERE site_id = $1 ORDER BY id LIMIT 1")
                .bind(i64::from(site_id))
                .fetch_one(&self.app.state.db.pool)
                .await
                .unwrap();
        let token = app::platform::session::create(
            &self.app.state.db,
            member_id,
            false,
            app::platform::state::now(),
        )
        .await
        .unwrap();
        format!("{}={token}", app::platform::session::COOKIE)
    }

    /// A fresh anonymous XSRF token, as a page visit hands it out.
    pub async fn xsrf(&self) -> String {
        let res = self.get("/gr/aboutus").await;
        cookie_value(&res, "XSRF-TOKEN")
            .or_else(|| cookie_value(&res, "__Host-XSRF-TOKEN"))
            .expect("pages set the XSRF cookie")
    }

    /// Status and JSON body (`Null` when there is none) of an anonymous POST of `body` as
    /// JSON text, with a fresh XSRF token: what a browser without a session sends.
    pub async fn post_anonymous(&self, path: &str, body: String) -> (u16, serde_json::Value) {
        let xsrf = self.xsrf().await;
        let res = self
            .client
            .post(self.url(path))
            .header("cookie", xsrf_cookie(&xsrf))
            .header("X-XSRF-TOKEN", &xsrf)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or_default())
    }

    pub async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sql)
            .fetch_one(&self.app.state.db.pool)
            .await
            .unwrap()
    }
}

/// Status and JSON body (`Null` when there is none) of a GET with these cookies.
pub async fn json(t: &TestApp, path: &str, cookie: &str) -> (u16, serde_json::Value) {
    let res = t.get_with_cookie(path, cookie).await;
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(serde_json::Value::Null))
}

/// Value of a cookie set by a response. An XSRF token read this way is remembered with
/// the pre-session id the same response set (anonymous tokens are bound to it): see
/// [`xsrf_cookie`].
/// A response body as text, gunzipped when the server sent it compressed (`gzip`).
pub fn body_text(bytes: &[u8], gzip: bool) -> String {
    if !gzip {
        return String::from_utf8(bytes.to_vec()).expect("a UTF-8 body");
    }
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(bytes), &mut text)
        .expect("a gzip body");
    text
}

pub fn cookie_value(res: &reqwest::Response, name: &str) -> Option<String> {
    let value = set_cookie_value(res, name)?;
    if name.ends_with("XSRF-TOKEN") {
        let mut line = format!("{name}={value}");
        for visitor in ["rosace_visitor", "__Host-rosace_visitor"] {
            if let Some(id) = set_cookie_value(res, visitor) {
                line = format!("{visitor}={id}; {line}");
            }
        }
        XSRF_COOKIES.lock().unwrap().insert(value.clone(), line);
    }
    Some(value)
}

/// Every `Set-Cookie` of a response, whole.
pub fn set_cookies(res: &reqwest::Response) -> Vec<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect()
}

fn set_cookie_value(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| {
            v.strip_prefix(&format!("{name}="))
                .map(|rest| rest.split(';').next().unwrap_or("").to_string())
        })
}

static XSRF_COOKIES: std::sync::Mutex<std::collections::BTreeMap<String, String>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// The cookies a browser holding this XSRF token sends with it: the token, and for an
/// anonymous one the pre-session id it is bound to (as the response that set it gave).
/// A token made up by a test (a member's) is sent alone.
pub fn xsrf_cookie(token: &str) -> String {
    XSRF_COOKIES
        .lock()
        .unwrap()
        .get(token)
        .cloned()
        .unwrap_or_else(|| format!("XSRF-TOKEN={token}"))
}

/// Every email in the shop's outbox (none yet: empty), as written.
pub fn outbox(t: &TestApp) -> Vec<String> {
    std::fs::read_dir(&t.app.settings.mail.outbox_dir)
        .map(|d| {
            d.filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
                .collect()
        })
        .unwrap_or_default()
}
