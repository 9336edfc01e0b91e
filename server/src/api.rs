//! REST handlers at the spec's paths (section 7). Thin: they translate HTTP to services.
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use axum::body::Bytes;
use axum::extract::{Multipart, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;

use app::dsa::{
    error::DsaError,
    service::{self, Upload},
};
use app::model::dsa::{DsaFieldError, DsaFormRequest, DSA_MAX_FILES, DSA_MAX_FILE_BYTES};

use crate::middleware::Client;
use crate::AppCtx;

/// The error body of every REST call (spec 000 §8): `error_description` is a translation key.
pub(crate) fn error(status: StatusCode, code: &str, description: &str) -> Response {
    let body = serde_json::json!({ "error_code": code, "error_description": description });
    (status, Json(body)).into_response()
}

/// 500, with the failure logged under `what` (the spec's log message where it names one).
pub(crate) fn failed(e: sqlx::Error, what: &str) -> Response {
    tracing::error!(error = %e, "{what}");
    error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "unexpected",
        "errors.general_retry.notification",
    )
}

pub(crate) fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "not_found", "errors.not_found")
}

/// 401: the client's session-expiry handling sends the member to sign in.
pub(crate) fn unauthorized() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        "unauthorized",
        "errors.session_expired",
    )
}

/// A comma-separated query value as a list (empty items dropped).
pub(crate) fn query_list(q: &HashMap<String, String>, key: &str) -> Vec<String> {
    q.get(key)
        .map(|v| app::catalog::rules::comma_list(v))
        .unwrap_or_default()
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranslationsQuery {
    locale: Option<String>,
    fallback_locale: Option<String>,
    #[allow(dead_code)]
    device: Option<String>,
}

static TRANSLATIONS_CACHE: LazyLock<Mutex<HashMap<(String, String), Bytes>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// GET translations (spec 000 §7): the merged table of a locale over its fallback.
/// Browsers and proxies may keep it 5 minutes (spec 000 §9).
pub async fn translations(Query(q): Query<TranslationsQuery>) -> Response {
    let Some(locale) = q.locale.filter(|l| !l.trim().is_empty()) else {
        return error(
            StatusCode::BAD_REQUEST,
            "missing_locale",
            "errors.general_retry.notification",
        );
    };
    let fallback = q.fallback_locale.unwrap_or_else(|| "fr-fr".into());
    let lang = app::site::i18n::lang_of(&locale).to_string();
    let fallback_lang = app::site::i18n::lang_of(&fallback).to_string();
    let key = (lang.clone(), fallback_lang.clone());
    let cached = TRANSLATIONS_CACHE
        .lock()
        .ok()
        .and_then(|c| c.get(&key).cloned());
    let body = match cached {
        Some(b) => b,
        None => {
            let body = serde_json::json!({
                "locale": format!("{lang}-{lang}"),
                "fallbackLocale": format!("{fallback_lang}-{fallback_lang}"),
                "translations": app::site::i18n::merged(&lang, &fallback_lang),
            });
            let bytes = Bytes::from(serde_json::to_vec(&body).unwrap_or_default());
            if let Ok(mut c) = TRANSLATIONS_CACHE.lock() {
                c.insert(key, bytes.clone());
            }
            bytes
        }
    };
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "public, max-age=300"),
        ],
        body,
    )
        .into_response()
}

/// POST /api/postsale/v1/help/dsacontactform — JSON, or multipart with a `payload` part
/// (the JSON) and up to three `files` parts.
pub async fn dsa_contact_form(
    State(app): State<Arc<AppCtx>>,
    Client(client): Client,
    req: Request,
) -> Response {
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let parsed = if content_type.starts_with("multipart/form-data") {
        read_multipart(req).await
    } else if content_type.starts_with("application/json") {
        match axum::body::to_bytes(req.into_body(), 64 * 1024).await {
            Ok(b) => serde_json::from_slice::<DsaFormRequest>(&b)
                .map(|r| (r, vec![]))
                .map_err(|_| ()),
            Err(_) => Err(()),
        }
    } else {
        Err(())
    };
    let (request, uploads) = match parsed {
        Ok(v) => v,
        Err(()) => {
            let e = DsaError::Invalid(vec![DsaFieldError {
                field: "payload".into(),
                message_key: "dsaform.message.invalid".into(),
            }]);
            return (StatusCode::BAD_REQUEST, Json(e.body())).into_response();
        }
    };
    match service::submit(
        &app.state,
        &client,
        request,
        uploads,
        app::platform::state::now(),
    )
    .await
    {
        Ok(ok) => (StatusCode::CREATED, Json(ok)).into_response(),
        Err(e) => {
            if let DsaError::Storage(err) = &e {
                tracing::error!(error = %err, "DsaForm setDsaForm error");
            }
            let status =
                StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            (status, Json(e.body())).into_response()
        }
    }
}

async fn read_multipart(req: Request) -> Result<(DsaFormRequest, Vec<Upload>), ()> {
    use axum::extract::FromRequest;
    let mut mp = Multipart::from_request(req, &()).await.map_err(|_| ())?;
    let mut payload = None;
    let mut uploads = Vec::new();
    while let Some(field) = mp.next_field().await.map_err(|_| ())? {
        match field.name() {
            Some("payload") => {
                let text = field.text().await.map_err(|_| ())?;
                payload = Some(serde_json::from_str::<DsaFormRequest>(&text).map_err(|_| ())?);
            }
            Some("files") => {
                if uploads.len() > DSA_MAX_FILES {
                    // Enough to report the count error; don't buffer more.
                    continue;
                }
                let name = field
                    .file_name()
                    .unwrap_or("file")
                    .chars()
                    .take(200)
                    .collect();
                let content_type = field.content_type().unwrap_or("").to_string();
                let bytes = field.bytes().await.map_err(|_| ())?;
                uploads.push(Upload {
                    name,
                    content_type,
                    bytes: bytes.to_vec(),
                });
            }
            _ => {}
        }
    }
    let _ = DSA_MAX_FILE_BYTES;
    payload.map(|p| (p, uploads)).ok_or(())
}

pub async fn health(State(app): State<Arc<AppCtx>>) -> Response {
    match sqlx::query("SELECT 1").execute(&app.state.db.pool).await {
        Ok(_) => Json(serde_json::json!({ "status": "ok", "database": "ok" })).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "health check: database down");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(serde_json::json!({ "status": "degraded", "database": "down" })),
            )
                .into_response()
        }
    }
}

pub async fn api_not_found(headers: HeaderMap) -> Response {
    let _ = headers;
    error(StatusCode::NOT_FOUND, "not_found", "errors.not_found")
}

pub async fn openapi() -> Response {
    (
        [(header::CACHE_CONTROL, "public, max-age=300")],
        Json(crate::openapi::document()),
    )
        .into_response()
}
