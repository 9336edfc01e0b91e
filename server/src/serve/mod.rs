//! Serving what is not an API call: the page cache and its template splicer, built files
//! with their precompressed copies, demo images, robots.txt and the sitemap.
mod crc_shift;
pub mod front;
pub mod images;
pub mod listen;
pub mod member_pages;
pub mod page_cache;
pub mod page_template;
pub mod precompress;
pub mod seo;

use axum::http::{header, HeaderValue};
use axum::routing::get;
use axum::Router;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

use app::platform::db::Db;

/// Robots, sitemap, demo images and uploaded product pictures (from `db`); the sitemap
/// reads the live sales from `db`.
pub fn router<S: Clone + Send + Sync + 'static>(db: Db) -> Router<S> {
    Router::new()
        .route("/robots.txt", get(seo::robots))
        .route(
            "/sitemap.xml",
            get({
                let db = db.clone();
                move |req| seo::sitemap(db.clone(), req)
            }),
        )
        .route("/img/logo/{file}", get(images::logo))
        .route("/img/favicon/{file}", get(images::favicon))
        .route("/img/popin/{file}", get(images::popin_image))
        .route("/img/flag/{file}", get(images::flag))
        .route("/img/sale/{id}/{file}", get(images::sale_image))
        .route(
            "/img/product/{file}",
            get({
                let db = db.clone();
                move |path| images::product_image(db.clone(), path)
            }),
        )
        .route(
            "/img/p/{id}",
            get({
                let db = db.clone();
                move |path, query, headers| {
                    images::uploaded(db.clone(), images::PRODUCT_PICTURES, path, query, headers)
                }
            }),
        )
        .route(
            "/img/s/{id}",
            get({
                let db = db.clone();
                move |path, query, headers| {
                    images::uploaded(db.clone(), images::SALE_PICTURES, path, query, headers)
                }
            }),
        )
}

/// The built files under the site root: `/pkg` (WASM, JS, CSS), `/widgets` (React),
/// `/js`, and `/api-docs` (Swagger UI). In production they get compressed copies beside
/// them (precompress.rs), sent as they are; not in development, where cargo-leptos may
/// rebuild the files under a running server.
pub fn static_files<S: Clone + Send + Sync + 'static>(
    router: Router<S>,
    site_root: &str,
    pkg_dir: &str,
    prod: bool,
    hashed: bool,
) -> Router<S> {
    let widgets_dir = format!("{site_root}/widgets");
    let js_dir = format!("{site_root}/js");
    if !app::ui::assets::load(site_root) && prod {
        tracing::warn!(dir = %js_dir, "no manifest of the page scripts: run `npm run build` in frontend-react");
    }
    if prod {
        precompress::spawn(vec![
            pkg_dir.into(),
            widgets_dir.clone().into(),
            js_dir.clone().into(),
        ]);
    }
    let dir = |dir: String| {
        let files = ServeDir::new(dir);
        if prod {
            files.precompressed_br().precompressed_gzip()
        } else {
            files
        }
    };
    // Built with content-hashed names (cargo-leptos `hash-files`), a /pkg file never changes
    // under its name: browsers keep it a year. Without hashing (local builds) they revalidate.
    let pkg_cache = if hashed {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let pkg = tower::ServiceBuilder::new()
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static(pkg_cache),
        ))
        .service(dir(pkg_dir.to_string()));
    router
        .nest_service("/pkg", pkg)
        .nest_service(
            "/widgets",
            tower::ServiceBuilder::new()
                .layer(axum::middleware::from_fn(|req, next| {
                    built_cache("/widgets", req, next)
                }))
                .service(dir(widgets_dir)),
        )
        .nest_service(
            "/js",
            tower::ServiceBuilder::new()
                .layer(axum::middleware::from_fn(|req, next| {
                    built_cache("/js", req, next)
                }))
                .service(dir(js_dir)),
        )
        .nest_service("/api-docs", dir(format!("{site_root}/api-docs")))
}

/// A script Vite built with a content-hashed name never changes under it: kept a year.
/// Anything else under `/js` and `/widgets` is revalidated.
async fn built_cache(
    folder: &'static str,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    // Nested: the path here is the one inside the folder.
    let address = format!("{folder}{}", req.uri().path());
    let mut resp = next.run(req).await;
    let value = if app::ui::assets::is_built(&address) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    resp
}

/// Paths of files and machine endpoints: no page rules, no page cache, no XSRF cookie.
pub fn is_static(path: &str) -> bool {
    [
        "/pkg/",
        "/img/",
        "/widgets/",
        "/js/",
        "/api-docs/",
        "/favicon",
    ]
    .iter()
    .any(|p| path.starts_with(p))
        || matches!(
            path,
            "/robots.txt" | "/sitemap.xml" | "/health" | "/metrics"
        )
}
