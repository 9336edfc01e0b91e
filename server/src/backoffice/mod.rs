//! The operators' back office, under `/backoffice`: its own accounts, roles, sessions and
//! audit log (operators are not members), and pages rendered on the server by Leptos, each
//! form a server form (`docs/backoffice.md`). Writes go through the areas' services or,
//! for what only operators change (operators, sales' settings, stock levels), through this
//! module's services, each in one transaction with its audit record.
pub mod audit;
pub mod audit_page;
pub mod brands;
pub mod campaigns;
pub mod dashboard;
pub mod demo;
pub mod experiments;
pub mod feed;
pub mod help;
pub mod home;
pub mod members;
pub mod moderation;
pub mod operations;
pub mod operators;
pub mod orders;
pub mod preview;
pub mod registrations;
pub mod roles;
pub mod sales;
pub mod session;
pub mod signin;
pub mod store;
pub mod support;
pub mod text;
pub mod totp;
pub mod travel;
pub mod ui;

use std::sync::Arc;

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::state::AppCtx;

pub const PREFIX: &str = "/backoffice";

/// Whether `path` is the back office's (the member context, page cache and member pages'
/// rules do not apply there).
pub fn is_backoffice(path: &str) -> bool {
    path == PREFIX || path.starts_with("/backoffice/")
}

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(
            PREFIX,
            get(|| async { ui::see_other(&format!("{PREFIX}/")) }),
        )
        .route(&format!("{PREFIX}/"), get(home::page))
        .route(&format!("{PREFIX}/assets/{{file}}"), get(stylesheet))
        .merge(signin::router())
        .merge(operators::router())
        .merge(audit_page::router())
        .merge(sales::router())
        .merge(brands::router())
        .merge(dashboard::router())
        .merge(feed::page::router())
        .merge(preview::router())
        .merge(travel::router())
        .merge(moderation::router())
        .merge(support::router())
        .merge(help::router())
        .merge(orders::router())
        .merge(members::router())
        .merge(campaigns::router())
        .merge(registrations::router())
        .merge(operations::router())
        .merge(experiments::router())
}

async fn stylesheet(axum::extract::Path(file): axum::extract::Path<String>) -> Response {
    if format!("{PREFIX}/assets/{file}") != ui::stylesheet_href() {
        return axum::http::StatusCode::NOT_FOUND.into_response();
    }
    let mut res = ui::STYLESHEET.into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/css; charset=utf-8"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    res
}
