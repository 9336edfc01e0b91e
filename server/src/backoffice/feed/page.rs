//! The import page: upload a JSON feed or a CSV of products and stock, check it (a dry run,
//! the default) or apply it. The answer lists every error with its path or line, or what
//! was (or would be) created, updated and left unchanged. The schema and an example are
//! linked from the page.
use std::sync::Arc;

use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use leptos::prelude::*;

use app::platform::state::now;

use super::super::roles::Permission;
use super::super::session::{equal, Operator};
use super::super::{ui, PREFIX};
use super::{import, parse, Outcome, PictureFiles};
use crate::media;
use crate::state::AppCtx;

/// The largest feed file the page takes (a 10,000-product feed is about 3 MB).
pub const FEED_MAX: usize = 16 * 1024 * 1024;
/// The largest form: the feed and the pictures sent with it (each at most
/// `media::MAX_BYTES`). A feed with more pictures is imported in parts, or by
/// `server import` from a folder.
pub const FORM_MAX: usize = 64 * 1024 * 1024;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(
            &format!("{PREFIX}/import"),
            get(page)
                .post(upload)
                .layer(axum::extract::DefaultBodyLimit::max(FORM_MAX + 64 * 1024)),
        )
        .route(&format!("{PREFIX}/feed.schema.json"), get(schema))
}

async fn schema(_op: Operator) -> Response {
    let mut res = axum::Json(super::schema::json_schema()).into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn view_page(op: &Operator, outcome: Option<(&Outcome, bool)>, status: StatusCode) -> Response {
    let t = |k: &str| op.t(k);
    let report = outcome.map(|(o, dry_run)| {
        let counts = format!(
            "{}: {} / {} / {} · {}: {} / {} / {} · {}: {} / {} · {}: {} / {} · {}: {} / {} · {}: {}",
            t("import.created"),
            o.created.sales,
            o.created.products,
            o.created.options,
            t("import.updated"),
            o.updated.sales,
            o.updated.products,
            o.updated.options,
            t("import.pictures_count"),
            o.created.pictures,
            o.updated.pictures,
            t("import.travel_count"),
            o.created.travel,
            o.updated.travel,
            t("import.bundles_count"),
            o.created.bundles,
            o.updated.bundles,
            t("import.unchanged"),
            o.unchanged
        );
        if !o.errors.is_empty() {
            let items = o.errors.iter().map(|e| view! { <li>{e.clone()}</li> }).collect_view();
            view! {
                <div role="alert" class="bo-error" id="import-errors">
                    <p>{format!("{} ({})", t("import.refused"), o.errors.len())}</p>
                    <ul>{items}</ul>
                </div>
            }
            .into_any()
        } else {
            let head = if o.applied { t("import.applied") } else if dry_run { t("import.checked") } else { t("import.refused") };
            view! { <p class="bo-notice" role="status" id="import-report">{format!("{head} {counts}")}</p> }.into_any()
        }
    });
    let body = view! {
        {report}
        <p>{t("import.help")}" "<a href=format!("{PREFIX}/feed.schema.json")>"feed.schema.json"</a></p>
        <form method="post" enctype="multipart/form-data" action=format!("{PREFIX}/import")>
            {ui::xsrf_field(op)}
            {ui::field(t("import.file"), "feed", view! { <input id="feed" name="feed" type="file" accept=".json,.csv,application/json,text/csv" required /> }.into_any(), None)}
            {ui::field(t("import.pictures"), "pictures", view! { <input id="pictures" name="pictures" type="file" multiple accept="image/jpeg,image/png,image/webp" /> }.into_any(), None)}
            <p class="bo-check"><input type="checkbox" id="apply" name="apply" /><label for="apply">{t("import.apply")}</label></p>
            <button type="submit">{t("import.submit")}</button>
        </form>
    }
    .into_any();
    ui::page(status, op.lang(), Some(op), t("import.title"), None, body)
}

pub async fn page(op: Operator) -> Response {
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    view_page(&op, None, StatusCode::OK)
}

/// The multipart form: the session's token first (checked before the file is read), then
/// the feed, the pictures it names, and the "apply" box.
pub async fn upload(State(app): State<Arc<AppCtx>>, op: Operator, request: Request) -> Response {
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let refused = |status: StatusCode| {
        ui::message_page(op.lang(), Some(&op), status, op.t("signin.form_expired"))
    };
    let Ok(mut multipart) = Multipart::from_request(request, &app).await else {
        return refused(StatusCode::BAD_REQUEST);
    };
    let mut token_ok = false;
    let mut text: Option<String> = None;
    let mut apply = false;
    let mut sent = std::collections::HashMap::new();
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(_) => {
                return ui::message_page(
                    op.lang(),
                    Some(&op),
                    StatusCode::PAYLOAD_TOO_LARGE,
                    op.t("import.too_large"),
                )
            }
        };
        let name = field.name().unwrap_or("").to_string();
        match name.as_str() {
            "_xsrf" => token_ok = field.text().await.is_ok_and(|t| equal(&t, &op.xsrf)),
            "feed" if token_ok => match field.bytes().await {
                Ok(bytes) if bytes.len() <= FEED_MAX => {
                    text = Some(String::from_utf8_lossy(&bytes).into_owned())
                }
                _ => {
                    return ui::message_page(
                        op.lang(),
                        Some(&op),
                        StatusCode::PAYLOAD_TOO_LARGE,
                        op.t("import.too_large"),
                    )
                }
            },
            "pictures" if token_ok => {
                let file_name = field.file_name().unwrap_or("").to_string();
                let too_large = || {
                    ui::message_page(
                        op.lang(),
                        Some(&op),
                        StatusCode::PAYLOAD_TOO_LARGE,
                        op.t("import.too_large"),
                    )
                };
                match field.bytes().await {
                    // An empty file input sends one nameless, empty part.
                    Ok(bytes) if file_name.is_empty() && bytes.is_empty() => {}
                    Ok(bytes) if bytes.len() > media::MAX_BYTES => return too_large(),
                    Ok(bytes) => {
                        sent.insert(file_name, bytes.to_vec());
                    }
                    Err(_) => return too_large(),
                }
            }
            "apply" if token_ok => apply = true,
            _ if !token_ok => return refused(StatusCode::FORBIDDEN),
            _ => {}
        }
    }
    if !token_ok {
        return refused(StatusCode::FORBIDDEN);
    }
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        let outcome = Outcome {
            errors: vec![op.t("import.empty").to_string()],
            ..Default::default()
        };
        return view_page(
            &op,
            Some((&outcome, !apply)),
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    };
    let outcome = match parse(&text) {
        Err(errors) => Outcome {
            errors,
            ..Default::default()
        },
        Ok(input) => {
            let files = PictureFiles::Sent(sent);
            match import(
                &app.state.db,
                &op.actor(),
                input,
                files,
                super::Run {
                    dry_run: !apply,
                    lang: op.lang(),
                    now: now(),
                    ids: super::Ids::Next,
                },
            )
            .await
            {
                Ok(o) => o,
                Err(e) => return ui::db_error(e),
            }
        }
    };
    let status = if outcome.errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    view_page(&op, Some((&outcome, !apply)), status)
}
