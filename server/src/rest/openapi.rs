//! The OpenAPI document (derived from the handlers and wire types by `utoipa`) and the
//! browsable API page, served from local files (no CDN).
use std::sync::Arc;

use axum::body::Bytes;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;
use utoipa::OpenApi;

use crate::state::AppCtx;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Rosace REST API",
        description = "The public contract of the shop (spec 000 and 001, section 7). Every \
            state-changing call needs the `X-XSRF-TOKEN` header echoing the `XSRF-TOKEN` cookie; \
            member calls need the session cookie. Errors answer `{error_code, error_description}` \
            where `error_description` is a translation key.",
    ),
    tags(
        (name = "authentication"), (name = "cart"), (name = "checkout"), (name = "orders"),
        (name = "catalog"), (name = "search"), (name = "content"), (name = "help"),
        (name = "onboarding"), (name = "diagnostics"), (name = "operations"), (name = "travel"), (name = "postsales"), (name = "address"),
    )
)]
pub struct ApiDoc;

/// `GET /api/openapi.json` (the document, serialised once) and `GET /api/docs` (the page).
pub fn router(doc: utoipa::openapi::OpenApi) -> Router<Arc<AppCtx>> {
    let json = Bytes::from(doc.to_json().unwrap_or_default());
    Router::new()
        .route(
            "/api/openapi.json",
            get(move || {
                let json = json.clone();
                async move {
                    (
                        [
                            (header::CONTENT_TYPE, "application/json"),
                            (header::CACHE_CONTROL, "public, max-age=300"),
                        ],
                        json,
                    )
                }
            }),
        )
        .route("/api/docs", get(docs_page))
}

/// Swagger UI from `/api-docs/` (copied from npm's swagger-ui-dist by the widget build);
/// the initializer is a file too, so the page needs no inline script under our CSP.
async fn docs_page() -> impl IntoResponse {
    Html(concat!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        "<title>Rosace REST API</title>",
        "<link rel=\"stylesheet\" href=\"/api-docs/swagger-ui.css\"></head>",
        "<body><main id=\"swagger-ui\"></main>",
        "<script src=\"/api-docs/swagger-ui-bundle.js\"></script>",
        "<script src=\"/api-docs/initializer.js\"></script></body></html>"
    ))
}
