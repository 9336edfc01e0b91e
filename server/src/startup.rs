//! Start-up: connect, migrate, demo data, services and background jobs, in that order.
use std::sync::Arc;

use app::platform::state::{AppState, Settings};

use crate::config::Config;
use crate::demo;
use crate::state::AppCtx;

pub type StartError = Box<dyn std::error::Error + Send + Sync>;

/// Connects, migrates, creates demo data when asked, and returns the shared context.
pub async fn prepare(config: Config) -> Result<Arc<AppCtx>, StartError> {
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
        dsa_rate_limit: config.dsa_rate_limit,
        dsa_rate_window_secs: config.dsa_rate_window_secs,
        xsrf_secret: xsrf_secret(&db).await?,
        outbox_dir: config.outbox_dir.clone(),
        smtp_url: config.smtp_url.clone(),
        secure_cookies: config.secure_cookies,
        lockout_threshold: config.lockout_threshold,
        lockout_secs: config.lockout_secs,
        login_rate_limit: config.login_rate_limit,
        ..Settings::default()
    };
    let origins = config.origins();
    let cart = Arc::new(
        app::cart::service::CartService::connect(
            db.clone(),
            app::cart::settings::CartSettings {
                hold_secs: config.cart_hold_secs,
                max_per_member: config.cart_max_per_member,
                checkout_capacity: config.checkout_capacity,
                ..Default::default()
            },
        )
        .await?,
    );
    // Holds that expired while the server was down go back at once, then every few seconds.
    cart.sweep(app::platform::state::now()).await?;
    tokio::spawn(app::cart::service::sweeper(
        cart.clone(),
        std::time::Duration::from_secs(config.cart_sweep_secs.max(1)),
    ));
    let page_cache = Arc::new(crate::serve::page_cache::PageCache::new(
        std::time::Duration::from_millis(config.page_cache_ms),
    ));
    Ok(Arc::new(AppCtx {
        config,
        state: AppState {
            db,
            settings: Arc::new(settings),
        },
        origins,
        cart,
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
