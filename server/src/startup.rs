//! Start-up: connect, migrate, demo data, services and background jobs, in that order.
use std::sync::Arc;

use app::platform::state::AppState;

use crate::config::{Config, Settings};
use crate::demo;
use crate::state::AppCtx;

pub type StartError = Box<dyn std::error::Error + Send + Sync>;

/// Connects, migrates, creates demo data when asked, and returns the shared context.
pub async fn prepare(config: Config) -> Result<Arc<AppCtx>, StartError> {
    for w in &config.warnings {
        tracing::warn!("{w}");
    }
    if config.database_url.starts_with("sqlite:") {
        std::fs::create_dir_all(&config.data_dir)?;
    }
    let db =
        app::platform::db::Db::connect(&config.database_url, config.db_max_connections).await?;
    db.migrate().await?;
    if config.demo_data {
        demo::ensure(&db, app::platform::state::now()).await?;
    }
    let settings = Settings {
        xsrf_secret: xsrf_secret(&db).await?,
        wallet_key: config
            .settings
            .wallet_key
            .clone()
            .or_from_data_dir(&config.data_dir)?,
        ..config.settings.clone()
    };
    let origins = config.origins();
    let cart = Arc::new(
        app::cart::service::CartService::connect(db.clone(), settings.cart.clone()).await?,
    );
    // Holds that expired while the server was down go back at once, then every few seconds.
    cart.sweep(app::platform::state::now()).await?;
    tokio::spawn(app::cart::service::sweeper(
        cart.clone(),
        std::time::Duration::from_secs(config.cart_sweep_secs.max(1)),
    ));
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
    // Ended rate-limit windows are deleted now and on a schedule (their rows would pile up,
    // one per address ever seen).
    app::platform::ratelimit::purge(&db, app::platform::state::now()).await?;
    tokio::spawn(app::platform::ratelimit::purger(
        db.clone(),
        std::time::Duration::from_secs(config.rate_limit_purge_secs.max(1)),
    ));
    let page_cache = Arc::new(crate::serve::page_cache::PageCache::new(
        std::time::Duration::from_millis(config.page_cache_ms),
    ));
    Ok(Arc::new(AppCtx {
        config,
        state: AppState { db },
        settings,
        origins,
        cart,
        travel,
        page_cache,
        translations: Default::default(),
        search: Default::default(),
        homes: Default::default(),
    }))
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
