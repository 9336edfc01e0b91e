//! Request metrics for the Prometheus scrape: every answer is counted and timed by method,
//! route template and status (`telemetry::Telemetry::request`). The router marks the
//! template it matched on the response (`mark_route`, a route layer); pages are named by
//! their kind in the route table (`page:Catalog`), which also names the answers the page
//! cache gives without routing; built files by their folder. The label set stays small
//! whatever paths visitors ask for.
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;

use crate::state::AppCtx;

/// The route template a request matched, carried from the router to the outer layer.
#[derive(Clone, Debug)]
pub struct RouteTemplate(pub Arc<str>);

/// Route layer: puts the matched template on the response.
pub async fn mark_route(matched: Option<MatchedPath>, req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    if let Some(m) = matched {
        res.extensions_mut()
            .insert(RouteTemplate(m.as_str().into()));
    }
    res
}

/// The route label of a request: its template, else its page kind, built-file folder or
/// `(unmatched)`. Leptos' own catch-all templates (`/`, `/{*any}`) say nothing: pages go by
/// their kind.
pub fn route_label(template: Option<&str>, path: &str) -> Cow<'static, str> {
    if let Some(t) = template.filter(|t| !matches!(*t, "/" | "/{*any}")) {
        return Cow::Owned(t.to_string());
    }
    for (folder, label) in [
        ("/pkg/", "/pkg/*"),
        ("/widgets/", "/widgets/*"),
        ("/js/", "/js/*"),
        ("/api-docs/", "/api-docs/*"),
        ("/img/", "/img/*"),
    ] {
        if path.starts_with(folder) {
            return Cow::Borrowed(label);
        }
    }
    if !path.starts_with("/api/") {
        if let Some(route) = app::routes::resolve(path) {
            return page_label(route.kind);
        }
    }
    Cow::Borrowed("(unmatched)")
}

/// `page:{kind}`, written once per kind (every page view is counted under one) and kept
/// for the process's life: one string per kind.
pub fn page_label(kind: app::routes::PageKind) -> Cow<'static, str> {
    static LABELS: [OnceLock<&'static str>; 64] = [const { OnceLock::new() }; 64];
    match LABELS.get(kind as usize) {
        Some(slot) => Cow::Borrowed(slot.get_or_init(|| format!("page:{kind:?}").leak())),
        None => Cow::Owned(format!("page:{kind:?}")),
    }
}

/// Outer layer: times and counts every request.
pub async fn record<N, F>(app: &AppCtx, req: Request, next: N) -> Response
where
    N: FnOnce(Request) -> F,
    F: std::future::Future<Output = Response>,
{
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let res = next(req).await;
    let template = res.extensions().get::<RouteTemplate>().map(|t| t.0.clone());
    app.telemetry.request(
        &method,
        route_label(template.as_deref(), &path),
        res.status().as_u16(),
        started.elapsed().as_secs_f64(),
    );
    res
}

#[cfg(test)]
mod tests {
    use super::route_label;

    #[test]
    fn labels_are_templates_page_kinds_or_folders() {
        assert_eq!(
            route_label(
                Some("/api/catalog/v2/sale/{saleId}"),
                "/api/catalog/v2/sale/12"
            ),
            "/api/catalog/v2/sale/{saleId}"
        );
        assert_eq!(
            route_label(Some("/{*any}"), "/gr/authentication"),
            "page:Authentication"
        );
        assert_eq!(
            route_label(None, "/gr/authentication"),
            "page:Authentication"
        );
        assert_eq!(route_label(None, "/pkg/rosace-abc.wasm"), "/pkg/*");
        assert_eq!(route_label(None, "/api/nothing/here"), "(unmatched)");
    }
}
