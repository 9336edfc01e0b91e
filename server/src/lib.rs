//! The Rosace server: configuration, start-up, router, REST handlers, middleware, demo data.
pub mod api;
pub mod auth_api;
pub mod cart_api;
pub mod cart_bench;
pub mod catalog_api;
pub mod config;
pub mod demo;
pub mod home_api;
pub mod images;
pub mod middleware;
pub mod onboarding_api;
pub mod openapi;
pub mod openapi_cart;
pub mod openapi_search;
pub mod page_cache;
pub mod page_template;
pub mod precompress;
pub mod search_api;
pub mod seo;

use std::sync::Arc;

use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;

use app::platform::state::{AppState, Settings};
use app::{shell, App};

use crate::config::Config;

/// Everything handlers need, shared.
pub struct AppCtx {
    pub config: Config,
    pub state: AppState,
    pub origins: Vec<app::context::SiteOrigin>,
    /// Cart, held stock, checkout and waiting line (issue #5).
    pub cart: Arc<app::cart::service::CartService>,
    /// Pages as anonymous visitors see them, for a moment (see `page_cache`).
    pub page_cache: page_cache::PageCache,
}

/// Connects, migrates, creates demo data when asked, and returns the shared context.
pub async fn prepare(
    config: Config,
) -> Result<Arc<AppCtx>, Box<dyn std::error::Error + Send + Sync>> {
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
    if config.demo_data {
        let sites: Vec<i64> = app::site::SITES
            .iter()
            .map(|s| i64::from(s.site_id))
            .collect();
        app::cart::vouchers::seed_demo(&db, &sites).await?;
    }
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
    let ctx = Arc::new(AppCtx {
        config,
        state: AppState {
            db,
            settings: Arc::new(settings),
        },
        origins,
        cart,
        page_cache: Default::default(),
    });
    cart_bench::seed(&ctx).await?;
    Ok(ctx)
}

/// The CSRF signing key: made once, kept in the database so every instance shares it.
async fn xsrf_secret(db: &app::platform::db::Db) -> Result<Vec<u8>, sqlx::Error> {
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

/// The whole HTTP application.
pub fn router(app: Arc<AppCtx>, leptos_options: LeptosOptions) -> Router {
    let routes = generate_route_list(App);
    let state = app.state.clone();
    let site_root = leptos_options.site_root.to_string();
    let pkg_dir = format!("{site_root}/{}", leptos_options.site_pkg_dir);

    let api = Router::new()
        .route("/api/content/v1/translations", get(api::translations))
        .route("/api/content/v1/homes/{id_or_name}", get(home_api::home))
        .route(
            "/api/postsale/v1/help/dsacontactform",
            post(api::dsa_contact_form),
        )
        .route("/api/openapi.json", get(api::openapi))
        .route(
            "/api/authentication/v1/members/{email}/sites/{site_id}/exists",
            get(auth_api::member_exists),
        )
        .route("/api/authentication/v1/login", post(auth_api::login))
        .route(
            "/api/authentication/v1/webvalidate",
            post(auth_api::web_validate),
        )
        .route(
            "/api/authentication/v1/subscribe",
            post(auth_api::subscribe),
        )
        .route("/api/authentication/v1/activate", post(auth_api::activate))
        .route(
            "/api/authentication/v1/password/recover",
            post(auth_api::recover_password),
        )
        .route(
            "/api/authentication/v1/password/update",
            post(auth_api::update_password),
        )
        .route(
            "/api/authentication/v1/autologin",
            post(auth_api::autologin),
        )
        .route("/api/authentication/v1/logout", post(auth_api::logout_api))
        .route("/authentication/logout/", get(auth_api::logout_page))
        .route("/authentication/logout", get(auth_api::logout_page))
        .route(
            "/gr/authentication/autologin",
            get(auth_api::autologin_page),
        )
        .route("/gr/authentication/form", post(auth_api::auth_form))
        .route("/onboarding/form", post(onboarding_api::onboarding_form))
        .route("/api/catalog/v2/sale/{sale_id}", get(catalog_api::sale))
        .route(
            "/api/catalog/v1/sale/{sale_id}/catalogTree",
            get(catalog_api::catalog_tree),
        )
        .route(
            "/api/catalog/v2/sale/{sale_id}/catalogContent/{catalog_id}",
            get(catalog_api::catalog_content),
        )
        .route(
            "/api/catalog/v4/sale/{sale_id}/filters/{catalog_id}",
            get(catalog_api::filters),
        )
        .route(
            "/api/catalog/v2/sale/{sale_id}/item/{item_id}",
            get(catalog_api::item),
        )
        .route(
            "/api/catalog/v1/sale/{sale_id}/item/{item_id}/options",
            get(catalog_api::item_options),
        )
        .route(
            "/api/catalog/v2/sale/{sale_id}/item/{item_id}/favorite",
            axum::routing::put(catalog_api::favourite_add).delete(catalog_api::favourite_remove),
        )
        .route(
            "/api/catalog/v1/brands/{brand_id}/items",
            get(catalog_api::brand_items),
        )
        .route("/api/catalog/v1/favorites", get(catalog_api::favourites))
        .route("/api/catalog/v8/search/items", get(search_api::items))
        .route("/api/catalog/v4/search/filters", get(search_api::filters))
        .route(
            "/api/catalog/v1/search/suggestions",
            get(search_api::suggestions),
        )
        .route("/api/catalog/v1/search/recent", get(search_api::recent))
        .route(
            "/api/catalog/v1/search/recent/{id}",
            axum::routing::delete(search_api::delete_recent),
        )
        .route(
            "/find/recent/{id}/delete",
            post(search_api::delete_recent_form),
        )
        .route(
            "/api/cartproxy/v1",
            get(cart_api::get_cart).delete(cart_api::empty_cart),
        )
        .route("/api/cartproxy/v1/items", post(cart_api::add_items))
        .route(
            "/api/cartproxy/v1/item",
            post(cart_api::add_item).delete(cart_api::remove_item),
        )
        .route(
            "/api/cartproxy/v1/suspend",
            get(cart_api::suspended).post(cart_api::suspend),
        )
        .route("/api/cartproxy/v1/vouchers", post(cart_api::apply_voucher))
        .route(
            "/api/cartproxy/v1/vouchers/print",
            post(cart_api::print_vouchers),
        )
        .route(
            "/api/cartproxy/v1/vouchers/{voucher_id}",
            axum::routing::delete(cart_api::remove_voucher),
        )
        .route("/vouchers/print/{token}", get(cart_api::print_page))
        .route(
            "/api/cartproxy/orderpiper/cart/v3",
            get(cart_api::cart_hash),
        )
        .route("/api/cartproxy/orderpiper/cart/v3/pay", post(cart_api::pay))
        .route(
            "/api/cartproxy/orderpiper/cart/v3/cancel-order",
            post(cart_api::cancel_order),
        )
        .route(
            "/api/cartproxy/orderpiper/cart/v3/recover",
            post(cart_api::recover),
        )
        .route(
            "/api/cartproxy/orderpiper/cart/v3/cancel-recovery",
            post(cart_api::cancel_recovery),
        )
        .route(
            "/api/cartproxy/orderpiper/cart/v3/item",
            axum::routing::delete(cart_api::remove_loyalty),
        )
        .route(
            "/api/cartproxy/v3/loyalty-item",
            post(cart_api::add_loyalty),
        )
        .route(
            "/api/catalog/v1/waiting-line/{ticket}",
            get(cart_api::waiting_line),
        )
        .route("/api/orders/v1/orders", get(cart_api::orders))
        .route("/api/orders/v1/orders/{id}", get(cart_api::order))
        .route("/api/popins/v1", get(onboarding_api::popins))
        .route(
            "/api/popins/v1/{popin_type}/{version}",
            post(onboarding_api::answer_popin),
        )
        .route(
            "/api/partner/v1/adot-optin",
            post(onboarding_api::adot_optin),
        )
        .route(
            "/api/frontend-logger/v1/metrics",
            post(onboarding_api::metrics),
        )
        .route("/health", get(api::health))
        .route("/robots.txt", get(seo::robots))
        .route("/sitemap.xml", get(seo::sitemap))
        .route("/img/logo/{file}", get(images::logo))
        .route("/img/favicon/{file}", get(images::favicon))
        .route("/img/sale/{id}/{file}", get(images::sale_image))
        .route("/img/product/{file}", get(images::product_image))
        .with_state(app.clone());

    let leptos = Router::new()
        .leptos_routes_with_context(
            &leptos_options,
            routes,
            {
                let state = state.clone();
                move || provide_context(state.clone())
            },
            {
                let options = leptos_options.clone();
                move || shell(options.clone())
            },
        )
        .route(
            "/api/fn/{*fn_name}",
            axum::routing::get({
                let state = state.clone();
                move |req| {
                    leptos_axum::handle_server_fns_with_context(
                        move || provide_context(state.clone()),
                        req,
                    )
                }
            })
            .post({
                let state = state.clone();
                move |req| {
                    leptos_axum::handle_server_fns_with_context(
                        move || provide_context(state.clone()),
                        req,
                    )
                }
            }),
        )
        .with_state(leptos_options.clone());

    // Built files get compressed copies beside them (precompress.rs), sent as they are. Not in
    // development, where cargo-leptos may rebuild the files under a running server.
    let widgets_dir = format!("{site_root}/widgets");
    let prod = leptos_options.env == leptos::config::Env::PROD;
    if prod {
        precompress::spawn(vec![pkg_dir.clone().into(), widgets_dir.clone().into()]);
    }
    let static_dir = |dir: String| {
        let files = ServeDir::new(dir);
        if prod {
            files.precompressed_br().precompressed_gzip()
        } else {
            files
        }
    };
    let routed = Router::new()
        .merge(api)
        .merge(leptos)
        .nest_service("/pkg", static_dir(pkg_dir))
        .nest_service("/widgets", static_dir(widgets_dir))
        .nest_service("/js", static_dir(format!("{site_root}/js")))
        .fallback(api::api_not_found);
    // The layers wrap the routed app as one service rather than each route: a page served
    // from the cache then skips routing, which clones the matched route's Leptos options.
    Router::new()
        .fallback_service(routed)
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            page_cache::layer,
        ))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            middleware::csrf,
        ))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            middleware::request_context,
        ))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            middleware::security_headers,
        ))
        .layer(CompressionLayer::new())
        .layer(axum::extract::DefaultBodyLimit::max(20 * 1024 * 1024))
        .layer(axum::middleware::from_fn(middleware::request_id))
}
