//! The OpenAPI document (derived from the handlers and wire types by `utoipa`) and the
//! browsable API page, served from local files (no CDN).
use std::sync::Arc;

use axum::body::Bytes;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;
use utoipa::openapi::path::{Operation, Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::{Content, Ref, RefOr, Required, ResponseBuilder};
use utoipa::OpenApi;

use crate::state::AppCtx;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Rosace REST API",
        description = "The public contract of the shop (spec 000 and 001, section 7). Every \
            state-changing call needs the `X-XSRF-TOKEN` header echoing the `XSRF-TOKEN` cookie \
            (`__Host-XSRF-TOKEN` over HTTPS). A visitor's token is bound to the `rosace_visitor` \
            cookie (`__Host-rosace_visitor` over HTTPS), which must be sent back with it; a \
            member's token is bound to the session cookie, which member calls need. Errors answer `{error_code, error_description}` \
            where `error_description` is a translation key.",
    ),
    tags(
        (name = "authentication"), (name = "cart"), (name = "checkout"), (name = "orders"),
        (name = "catalog"), (name = "search"), (name = "content"), (name = "help"),
        (name = "onboarding"), (name = "diagnostics"), (name = "operations"), (name = "travel"), (name = "postsales"), (name = "address"),
    )
)]
pub struct ApiDoc;

/// Adds what the layers around the handlers answer to every operation they apply to, so the
/// document lists every status a client can get (schemathesis checks it, `scripts/fuzz.sh`):
///
/// - every state-changing `/api/` call (anything but GET, HEAD and OPTIONS) takes the
///   `X-XSRF-TOKEN` header and answers 403 `csrf` without a valid one (`middleware::csrf`);
/// - every call with a body answers 413 `too_large` past the body limit (`rest::error`);
/// - every call with a path parameter or a JSON body answers 400 when the parameter does not
///   parse or the body is no JSON of the documented shape (`extract::Path`, `JsonBody` and
///   the areas' own body readers).
///
/// A status an operation documents itself (with its own body or wording) is left as it is.
pub fn complete(doc: &mut utoipa::openapi::OpenApi) {
    for (path, item) in doc.paths.paths.iter_mut() {
        let guarded = path.starts_with("/api/");
        let ops = [
            (&mut item.get, false),
            (&mut item.head, false),
            (&mut item.options, false),
            (&mut item.post, guarded),
            (&mut item.put, guarded),
            (&mut item.patch, guarded),
            (&mut item.delete, guarded),
        ];
        for (op, changes_state) in ops {
            let Some(op) = op.as_mut() else { continue };
            if changes_state {
                add_xsrf(op);
            }
            let params = op.parameters.iter().flatten();
            let in_path = params
                .filter_map(|p| match p {
                    RefOr::T(p) => Some(p),
                    RefOr::Ref(_) => None,
                })
                .any(|p| matches!(p.parameter_in, ParameterIn::Path));
            if op.request_body.is_some() {
                add_error(
                    op,
                    "413",
                    "a body over the size limit (64 KB, 16 KB for the sign-in calls, 16 MB for the DSA report)",
                );
            }
            // The layers in front of every call (see `crate::router`).
            add_error(
                op,
                "503",
                "the shop is overloaded (`ROSACE_MAX_CALLS_IN_FLIGHT`): `error_code` `overloaded`, \
                 `message` in the site's language; retry after `Retry-After`",
            );
            // No JSON body.
            add_status(
                op,
                "408",
                "the response did not start within the request timeout",
            );
            if in_path || op.request_body.is_some() {
                add_error(
                    op,
                    "400",
                    "a path parameter that does not parse, or a body that is no JSON of the \
                     documented shape",
                );
            }
        }
    }
}

fn add_xsrf(op: &mut Operation) {
    let params = op.parameters.get_or_insert_with(Vec::new);
    let declared = params.iter().any(|p| {
        matches!(p, RefOr::T(Parameter { name, parameter_in: ParameterIn::Header, .. })
            if name.eq_ignore_ascii_case(app::platform::csrf::HEADER))
    });
    if !declared {
        params.push(RefOr::T(
            ParameterBuilder::new()
                .name("X-XSRF-TOKEN")
                .parameter_in(ParameterIn::Header)
                .required(Required::True)
                .description(Some(
                    "echoes the `XSRF-TOKEN` cookie (`__Host-XSRF-TOKEN` over HTTPS), sent with \
                     the cookie it is bound to: the session, or `rosace_visitor` before sign-in",
                ))
                .schema(Some(utoipa::openapi::schema::Object::with_type(
                    utoipa::openapi::schema::Type::String,
                )))
                .build(),
        ));
    }
    add_error(
        op,
        "403",
        "no valid XSRF token: the `X-XSRF-TOKEN` header must echo the `XSRF-TOKEN` cookie",
    );
}

/// Documents `status` answering the standard error body, unless the operation already does.
fn add_status(op: &mut Operation, status: &str, description: &str) {
    if op.responses.responses.contains_key(status) {
        return;
    }
    let response = ResponseBuilder::new().description(description).build();
    op.responses
        .responses
        .insert(status.to_string(), RefOr::T(response));
}

fn add_error(op: &mut Operation, status: &str, description: &str) {
    if op.responses.responses.contains_key(status) {
        return;
    }
    let body = Content::new(Some(Ref::from_schema_name("ErrorBody")));
    let response = ResponseBuilder::new()
        .description(description)
        .content("application/json", body)
        .build();
    op.responses
        .responses
        .insert(status.to_string(), RefOr::T(response));
}

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

/// Swagger UI from `/api-docs/` (copied from npm's swagger-ui-dist by the widget build),
/// started by the `api-docs` page module, so the page needs no inline script under its CSP.
async fn docs_page() -> impl IntoResponse {
    Html(format!(
        concat!(
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<title>Rosace REST API</title>",
            "<link rel=\"stylesheet\" href=\"/api-docs/swagger-ui.css\"></head>",
            "<body><main id=\"swagger-ui\"></main>",
            "<script src=\"/api-docs/swagger-ui-bundle.js\"></script>",
            "<script type=\"module\" src=\"{}\"></script></body></html>"
        ),
        app::ui::assets::script("api-docs")
    ))
}
