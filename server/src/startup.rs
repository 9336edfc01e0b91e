//! Start-up: connect, migrate, demo data, services and background jobs, in that order.
use std::sync::Arc;

use app::platform::state::AppState;

use crate::config::{Config, Settings};
use crate::demo;
use crate::state::AppCtx;

/// How often an instance rereads the experiments' controls (see `docs/backoffice.md`).
pub const EXPERIMENTS_RELOAD: std::time::Duration = std::time::Duration::from_secs(30);
/// How often an instance reads the help articles' edits again, for those made on another
/// instance (one small query and a re-index of some sixty short articles).
const HELP_RELOAD: std::time::Duration = std::time::Duration::from_secs(60);

pub type StartError = Box<dyn std::error::Error + Send + Sync>;

/// Connects, migrates, creates demo data when asked, and returns the shared context.
pub async fn prepare(config: Config) -> Result<Arc<AppCtx>, StartError> {
    for w in &config.warnings {
        tracing::warn!("{w}");
    }
    if config.database_url.starts_with("sqlite:") {
        std::fs::create_dir_all(&config.data_dir)?;
    }
    let db = app::platform::db::Db::connect_split(
        &config.database_url,
        config.db_max_connections,
        config
            .db_contended_connections
            .unwrap_or(app::platform::db::contended_share(
                config.db_max_connections,
            )),
    )
    .await?;
    db.migrate().await?;
    app::auth::social::set_enabled(config.social.enabled());
    app::auth::social::set_form_origins(config.social.providers.iter().map(|p| p.issuer.as_str()));
    let present = demo_accounts_present(&db).await?;
    match demo_policy(
        config.production,
        config.demo_data,
        present,
        config.allow_demo_accounts,
        config.addr.ip().is_loopback(),
    ) {
        Err(refusal) => return Err(refusal.into()),
        Ok(Some(warning)) => tracing::warn!("{warning}"),
        Ok(None) => {}
    }
    if config.demo_data {
        demo::ensure(&db, app::platform::state::now()).await?;
        crate::backoffice::demo::ensure(&db, app::platform::state::now()).await?;
    }
    let settings = Settings {
        xsrf_secret: xsrf_secret(&db).await?,
        wallet_key: config
            .settings
            .wallet_key
            .clone()
            .or_from_data_dir(&config.data_dir)?,
        upload_quota: app::platform::upload_quota::QuotaSettings {
            disk_dir: sqlite_folder(&config.database_url),
            ..config.settings.upload_quota.clone()
        },
        ..config.settings.clone()
    };
    let origins = Arc::new(config.origins());
    let home_settings = settings.home.clone();
    let cart = Arc::new(
        app::cart::service::CartService::connect(db.clone(), settings.cart.clone()).await?,
    );
    // Holds that expired while the server was down go back at once, then every few seconds.
    cart.sweep(app::platform::state::now()).await?;
    tokio::spawn(app::cart::service::sweeper(
        cart.clone(),
        std::time::Duration::from_secs(config.cart_sweep_secs.max(1)),
    ));
    // The sale-opening counters of this instance go to the database every 2 seconds.
    {
        let cart = cart.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(std::time::Duration::from_secs(2)).await;
                if let Err(e) = cart.flush_opening_counts(app::platform::state::now()).await {
                    tracing::warn!(error = %e, "sale-opening counters not written");
                }
            }
        });
    }
    let travel = Arc::new(app::travel::service::TravelService::new(cart.clone()));
    // Places held by bookings that were never paid go back, now and every few seconds.
    travel.sweep(app::platform::state::now()).await?;
    {
        let travel = travel.clone();
        let every = std::time::Duration::from_secs(config.cart_sweep_secs.max(1));
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                if let Err(e) = travel.sweep(app::platform::state::now()).await {
                    tracing::warn!(error = %e, "travel hold sweep failed");
                }
            }
        });
    }
    // Trips' "from" prices: those never computed (a database from before them) now;
    // then all follow the calendar as days pass (the cheapest day may leave the bookable
    // window). Bookings and imports refresh theirs at once.
    app::travel::store::from_price::refresh_missing(&db, app::platform::state::now()).await?;
    {
        let db = db.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
                let now = app::platform::state::now();
                if let Err(e) = app::travel::store::from_price::refresh_all(&db, now).await {
                    tracing::warn!(error = %e, "travel from prices not refreshed");
                }
            }
        });
    }
    // Expired rows (rate-limit windows, sessions, links, old sign-in events) are deleted
    // now and on a schedule: they would pile up, one per visit or address ever seen.
    app::platform::retention::purge(&db, app::platform::state::now()).await?;
    tokio::spawn(app::platform::retention::purger(
        db.clone(),
        std::time::Duration::from_secs(config.rate_limit_purge_secs.max(1)),
    ));
    // The fulfilment simulator, when asked for: paid orders move one step every N seconds.
    if config.fulfilment_secs > 0 {
        tokio::spawn(app::orders::service::fulfilment_job(
            db.clone(),
            std::time::Duration::from_secs(config.fulfilment_secs),
        ));
    }
    let page_cache = Arc::new(crate::serve::page_cache::PageCache::new(
        std::time::Duration::from_millis(config.page_cache_ms),
    ));
    // The help articles with customer care's edits. An edit swaps this instance's copy at
    // once; other instances read the edits again every minute.
    let help = Arc::new(app::help::kb::KnowledgeBase::load(&db).await?);
    {
        let (help, db) = (help.clone(), db.clone());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(HELP_RELOAD).await;
                if let Err(e) = help.reload(&db).await {
                    tracing::warn!(error = %e, "help articles not reloaded");
                }
            }
        });
    }
    let exposures = app::experiments::writer::ExposureWriter::start(db.clone());
    let experiments = Arc::new(app::experiments::service::Live::new(
        app::experiments::rules::Settings::current().clone(),
    ));
    experiments.reload(&db).await?;
    // A change made in the back office of another instance (or with `server experiments
    // start|stop`) reaches this one within this period: one small read.
    {
        let (experiments, db) = (experiments.clone(), db.clone());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(EXPERIMENTS_RELOAD).await;
                if let Err(e) = experiments.reload(&db).await {
                    tracing::warn!(error = %e, "experiment controls not reloaded");
                }
            }
        });
    }
    let searches = Arc::new(app::search::service::SearchRecorder::start(db.clone()));
    let sessions = app::platform::session_lookups::SessionLookups::start(db.clone());
    let page_sessions = app::platform::session_lookups::SessionLookups::start_with(
        db.clone(),
        crate::middleware::context::page_columns(),
        crate::middleware::context::page_values_of,
    );
    Ok(Arc::new(AppCtx {
        config,
        state: AppState { db },
        settings,
        origins,
        cart,
        travel,
        page_cache,
        exposures,
        sessions,
        page_sessions,
        experiments,
        translations: Default::default(),
        telemetry: Default::default(),
        search: Default::default(),
        help,
        searches,
        homes: Arc::new(app::home::store::HomeCache::new(home_settings)),
    }))
}

/// Whether the demo members or demo operators (published credentials) can sign in on this
/// database.
async fn demo_accounts_present(db: &app::platform::db::Db) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM members WHERE email IN ($1, $2) AND password_hash <> ''",
    )
    .bind(demo::DEMO_EMAIL)
    .bind(demo::DEMO_EMAIL_2)
    .fetch_one(&db.pool)
    .await?;
    Ok(n > 0 || crate::backoffice::demo::present(db).await?)
}

/// Demo accounts sign in on every site with a password printed in the README (review M5).
/// They exist only with demo data (`ROSACE_DEMO_DATA`, on in development, off in
/// production), and whenever they can sign in the log says so at WARN level. A production
/// server (`ROSACE_ENV=production`) refuses to start with them, whether demo data is on or
/// an earlier run left them in the database, unless `ROSACE_ALLOW_DEMO_ACCOUNTS=1`. So does
/// any server that listens beyond loopback (review M5-R): a shop started with only
/// `DATABASE_URL` and a public address is not a demo unless it says so.
/// Answers the warning to log, or the refusal.
pub fn demo_policy(
    production: bool,
    demo_data: bool,
    accounts_present: bool,
    allow: bool,
    loopback: bool,
) -> Result<Option<String>, String> {
    if !demo_data && !accounts_present {
        return Ok(None);
    }
    let accounts = format!(
        "{} and {}, on every site, password in the README, and the back office's demo \
         operators (docs/backoffice.md)",
        demo::DEMO_EMAIL,
        demo::DEMO_EMAIL_2
    );
    if !production && !loopback && !allow {
        return Err(format!(
            "refusing to start: demo accounts ({accounts}) on a server that listens beyond \
             loopback (ROSACE_ADDR); set ROSACE_DEMO_DATA=false and remove them, listen on \
             127.0.0.1, or set ROSACE_ALLOW_DEMO_ACCOUNTS=1 for a demo server"
        ));
    }
    if production && !allow {
        return Err(format!(
            "refusing to start: production mode (ROSACE_ENV=production) with demo accounts \
             ({accounts}); set ROSACE_DEMO_DATA=false and remove them, or \
             ROSACE_ALLOW_DEMO_ACCOUNTS=1 for a demo server"
        ));
    }
    Ok(Some(format!(
        "DEMO ACCOUNTS ARE ON: anyone can sign in as {accounts}. Never expose this server \
         to real customers (ROSACE_DEMO_DATA=false, ROSACE_ENV=production)"
    )))
}

/// The folder holding the embedded database's file (`sqlite://path/rosace.db?mode=rwc`),
/// whose disk the uploads' free-space check reads; `None` on PostgreSQL.
fn sqlite_folder(database_url: &str) -> Option<String> {
    let file = database_url
        .strip_prefix("sqlite://")
        .or_else(|| database_url.strip_prefix("sqlite:"))?;
    let file = file.split('?').next().unwrap_or(file);
    let folder = std::path::Path::new(file)
        .parent()?
        .to_string_lossy()
        .into_owned();
    Some(if folder.is_empty() {
        ".".into()
    } else {
        folder
    })
}

/// The CSRF signing key: made once, kept in the database so every instance shares it.
pub async fn xsrf_secret(db: &app::platform::db::Db) -> Result<Vec<u8>, sqlx::Error> {
    let fresh = app::platform::session::new_token() + &app::platform::session::new_token();
    sqlx::query(
        "INSERT INTO app_meta (key, value) VALUES ('xsrf_secret', $1) ON CONFLICT (key) DO NOTHING",
    )
    .bind(&fresh)
    .execute(&db.pool)
    .await?;
    let stored: String = sqlx::query_scalar("SELECT value FROM app_meta WHERE key = 'xsrf_secret'")
        .fetch_one(&db.pool)
        .await?;
    Ok(stored.into_bytes()[..32].to_vec())
}

#[cfg(test)]
mod tests {
    use super::demo_policy;

    #[test]
    fn the_uploads_disk_is_the_database_files() {
        use super::sqlite_folder;
        assert_eq!(
            sqlite_folder("sqlite:///var/lib/rosace/db/rosace.db?mode=rwc").as_deref(),
            Some("/var/lib/rosace/db")
        );
        assert_eq!(
            sqlite_folder("sqlite://data/rosace.db").as_deref(),
            Some("data")
        );
        assert_eq!(sqlite_folder("sqlite://rosace.db").as_deref(), Some("."));
        assert_eq!(sqlite_folder("postgres://u@h/db"), None);
    }

    #[test]
    fn demo_accounts_are_announced_and_refused_in_production() {
        for loopback in [true, false] {
            assert_eq!(demo_policy(false, false, false, false, loopback), Ok(None));
            assert_eq!(demo_policy(true, false, false, false, loopback), Ok(None));
        }
        // Development on loopback: allowed, loudly.
        let warning = demo_policy(false, true, true, false, true)
            .unwrap()
            .unwrap();
        assert!(warning.contains("DEMO ACCOUNTS ARE ON"), "{warning}");
        assert!(demo_policy(false, false, true, false, true)
            .unwrap()
            .is_some());
        // Development listening beyond loopback: refused (review M5-R).
        assert!(demo_policy(false, true, false, false, false).is_err());
        assert!(demo_policy(false, false, true, false, false).is_err());
        // Production: refused, whether demo data is on or accounts were left behind.
        assert!(demo_policy(true, true, false, false, true).is_err());
        assert!(demo_policy(true, false, true, false, true).is_err());
        // Unless explicitly allowed (still loudly).
        assert!(demo_policy(true, true, true, true, false)
            .unwrap()
            .is_some());
        assert!(demo_policy(false, true, true, true, false)
            .unwrap()
            .is_some());
    }
}
