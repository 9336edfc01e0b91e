//! The report-illegal-content form's call (spec 001 §7, DSA): the React widget posts here.
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Multipart, Request, State};
use axum::http::{header, StatusCode};
use axum::Json;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::dsa::{
    error::DsaError,
    service::{self, Upload},
};
use app::model::dsa::{
    DsaFieldError, DsaFormErrorResponse, DsaFormRequest, DsaFormResponse, DSA_MAX_FILES,
    DSA_MAX_FILE_BYTES,
};

use super::error::ApiError;
use super::extract::Client;
use crate::state::AppCtx;

/// The one call that takes files: up to three of 5 MB and the form (the rest of the API
/// keeps the small default limit set in `crate::router`).
const DSA_BODY_MAX: usize = DSA_MAX_FILES * DSA_MAX_FILE_BYTES + 1024 * 1024;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(dsa_contact_form))
        .layer(DefaultBodyLimit::max(DSA_BODY_MAX))
}

/// Reports illegal content (DSA): JSON, or multipart with a `payload` part (the JSON) and
/// up to three `files` parts (PDF, PNG, JPEG; 5 MB each).
#[utoipa::path(post, path = "/api/postsale/v1/help/dsacontactform", tag = "help",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body(content = DsaFormRequest, content_type = "application/json",
        description = "or multipart/form-data: `payload` (this JSON) and `files` parts"),
    responses((status = 201, body = DsaFormResponse), (status = 400, body = DsaFormErrorResponse),
        (status = 413, body = DsaFormErrorResponse), (status = 429, body = DsaFormErrorResponse),
        (status = 500, body = DsaFormErrorResponse), (status = 507, body = DsaFormErrorResponse)))]
async fn dsa_contact_form(
    State(app): State<Arc<AppCtx>>,
    Client(client): Client,
    req: Request,
) -> Result<(StatusCode, Json<DsaFormResponse>), ApiError> {
    // Counted before the body is read: a refused client costs no upload buffering.
    service::admit(
        &app.state,
        &app.settings.dsa,
        &client,
        app::platform::state::now(),
    )
    .await?;
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
    let (request, uploads) = parsed.map_err(|()| {
        DsaError::Invalid(vec![DsaFieldError {
            field: "payload".into(),
            message_key: "dsaform.message.invalid".into(),
        }])
    })?;
    let ok = service::submit(
        &app.state,
        &app.settings.mail,
        app.uploader(&client),
        request,
        uploads,
        app::platform::state::now(),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(ok)))
}

async fn read_multipart(req: Request) -> Result<(DsaFormRequest, Vec<Upload>), ()> {
    use axum::extract::FromRequest;
    let mut mp = Multipart::from_request(req, &()).await.map_err(|_| ())?;
    let mut payload = None;
    let mut uploads = Vec::new();
    while let Some(field) = mp.next_field().await.map_err(|_| ())? {
        match field.name() {
            Some("payload") => {
                // The report's JSON: its longest text is a few thousand characters.
                let text = crate::web::multipart::upload::read_text(field, 64 * 1024)
                    .await?
                    .ok_or(())?;
                payload = Some(serde_json::from_str::<DsaFormRequest>(&text).map_err(|_| ())?);
            }
            Some("files") => {
                if uploads.len() > DSA_MAX_FILES {
                    // Enough to report the count error; don't buffer more.
                    continue;
                }
                uploads.push(
                    crate::web::multipart::upload::read_file(field, DSA_MAX_FILE_BYTES).await?,
                );
            }
            _ => {}
        }
    }
    payload.map(|p| (p, uploads)).ok_or(())
}
