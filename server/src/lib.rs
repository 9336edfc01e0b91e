//! The Rosace server: the edge around the Leptos app. Routers come from their roles
//! (`rest`, `forms`, `serve`, the Leptos pages); this file only merges them and adds the
//! layers.
pub mod admin;
pub mod backoffice;
pub mod backup;
pub mod config;
pub mod demo;
pub mod forms;
mod layers;
pub mod media;
pub mod middleware;
pub mod rest;
pub mod serve;
pub mod startup;
pub mod state;
pub mod telemetry;
pub mod test_idp;
pub mod web;

use std::sync::Arc;

use axum::Router;
use leptos::prelude::*;
use leptos_axum::{generate_route_list_with_exclusions, LeptosRoutes};
use tower_http::compression::CompressionLayer;

use app::{shell, App};

pub use startup::prepare;
pub use state::AppCtx;

/// What pages and server functions find in their Leptos context: the same state and
/// caches the REST handlers use.
#[derive(Clone)]
struct PageContext {
    state: app::platform::state::AppState,
    search: Arc<app::search::store::SearchIndexes>,
    help: Arc<app::help::kb::KnowledgeBase>,
    searches: Arc<app::search::service::SearchRecorder>,
    homes: Arc<app::home::store::HomeCache>,
    cart: Arc<app::cart::service::CartService>,
    diagnostics: app::diagnostics::settings::DiagnosticsSettings,
}

impl PageContext {
    fn provide(&self) {
        provide_context(self.state.clone());
        provide_context(self.search.clone());
        provide_context(self.help.clone());
        provide_context(self.searches.clone());
        provide_context(self.homes.clone());
        provide_context(self.cart.clone());
        provide_context(self.diagnostics.clone());
    }
}

/// The Leptos pages, with the app state in their context. Their server functions run in
/// process while a page renders; no browser code calls them (islands and page modules use
/// the REST API), so they are not routed: no public endpoint nobody uses.
fn pages(app: &AppCtx, leptos_options: &LeptosOptions) -> Router {
    let context = PageContext {
        state: app.state.clone(),
        search: app.search.clone(),
        help: app.help.clone(),
        searches: app.searches.clone(),
        homes: app.homes.clone(),
        cart: app.cart.clone(),
        diagnostics: app.settings.diagnostics.clone(),
    };
    Router::new()
        .leptos_routes_with_context(
            leptos_options,
            // leptos_axum routes every server function unless its path is excluded.
            generate_route_list_with_exclusions(
                App,
                Some(
                    leptos::server_fn::axum::server_fn_paths()
                        .map(|(path, _)| path.to_string())
                        .collect(),
                ),
            ),
            move || context.provide(),
            {
                let options = leptos_options.clone();
                move || shell(options.clone())
            },
        )
        .route_layer(axum::middleware::from_fn(middleware::metrics::mark_route))
        .with_state(leptos_options.clone())
}

/// The largest request body a route takes unless it says otherwise.
pub const BODY_MAX: usize = 64 * 1024;

/// The whole HTTP application.
pub fn router(app: Arc<AppCtx>, leptos_options: LeptosOptions) -> Router {
    router_with(app, leptos_options, true)
}

/// The router, with visitors' cached pages answered before the request steps
/// (`front_hits`) or, to compare, by the page cache's step.
pub fn router_with(app: Arc<AppCtx>, leptos_options: LeptosOptions, front_hits: bool) -> Router {
    let site_root = leptos_options.site_root.to_string();
    let pkg_dir = format!("{site_root}/{}", leptos_options.site_pkg_dir);
    let prod = leptos_options.env == leptos::config::Env::PROD;
    let edge = Router::new()
        .merge(rest::router())
        .merge(forms::router())
        .merge(backoffice::router())
        .merge(serve::router(app.state.db.clone()))
        // The matched route template, for the request metrics (`middleware::metrics`).
        .route_layer(axum::middleware::from_fn(middleware::metrics::mark_route))
        .with_state(app.clone());
    let routed = serve::static_files(
        Router::new()
            .merge(edge)
            .merge(pages(&app, &leptos_options)),
        &site_root,
        &pkg_dir,
        prod,
        leptos_options.hash_files,
    )
    .fallback(rest::not_found);
    // The layers wrap the routed app as one service rather than each route: a page served
    // from the cache then skips routing, which clones the matched route's Leptos options.
    let edge = Edge {
        app: app.clone(),
        in_flight: middleware::InFlight::new(
            app.config.max_in_flight,
            app.config.max_calls_in_flight,
            app.config.max_calls_running,
        ),
        request_timeout: std::time::Duration::from_secs(app.config.request_timeout_secs),
    };
    let router = Router::new()
        .fallback_service(routed)
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            shop_steps,
        ))
        // Pages rendered per request (cached pages come precompressed): the fastest gzip
        // level. Level 6 took a quarter of a member page's CPU (perf) for
        // about 15% fewer bytes.
        .layer(CompressionLayer::new().quality(tower_http::CompressionLevel::Fastest))
        // A request's body must arrive within the header timeout (its response must start
        // within the request timeout: `edge_steps`): slow clients cannot hold workers forever.
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            std::time::Duration::from_secs(app.config.header_timeout_secs),
        ))
        // Small by default: every call and form takes a little JSON or a few fields (the
        // DSA call, the one that takes files, raises its own limit).
        .layer(axum::extract::DefaultBodyLimit::max(BODY_MAX))
        .layer(axum::middleware::from_fn_with_state(edge, edge_steps));
    if front_hits {
        router.layer(serve::front::FrontHitsLayer(app))
    } else {
        router
    }
}

/// What the outer steps need: the app, and the count of requests being worked on.
#[derive(Clone)]
struct Edge {
    app: Arc<AppCtx>,
    in_flight: middleware::InFlight,
    request_timeout: std::time::Duration,
}

// Each step of the chain is a plain async function handed the rest of the chain, and the
// steps are composed into two layers rather than one `from_fn` layer each: every `from_fn`
// layer clones and boxes the whole service inside it per request, which made the layers
// about a fifth of the CPU of a cached page (perf, `docs/benchmarks.md`).

/// Outermost, for every request: its id and log line, its metrics (503s and 408s
/// included), load shedding, JSON bodies for the API's rejections, and the request timeout.
async fn edge_steps(
    axum::extract::State(edge): axum::extract::State<Edge>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    middleware::request_id(req, |req| {
        middleware::metrics::record(&edge.app, req, |req| {
            middleware::shed(&edge.app, &edge.in_flight, req, |req| {
                rest::error::json_rejections(req, |req| {
                    middleware::deadline(edge.request_timeout, req, |req| {
                        middleware::in_turn(&edge.in_flight, req, |req| next.run(req))
                    })
                })
            })
        })
    })
    .await
}

/// Inside the timeouts and compression: security headers, the request's site and session
/// (with the page access rules), CSRF, then the page cache.
async fn shop_steps(
    axum::extract::State(app): axum::extract::State<Arc<AppCtx>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    middleware::security_headers(&app, req, |req| {
        middleware::request_context(&app, req, |req| {
            middleware::csrf(&app, req, |req| serve::page_cache::layer(&app, req, next))
        })
    })
    .await
}
