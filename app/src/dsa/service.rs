//! Submitting a report: rate limit, validation, then one transaction.
use crate::dsa::error::DsaError;
use crate::dsa::rules::{self, FileMeta};
use crate::dsa::settings::DsaSettings;
use crate::dsa::store;
use crate::model::dsa::{DsaFormRequest, DsaFormResponse};
use crate::platform::state::AppState;

/// An uploaded file, owned (shared with the help form).
pub use crate::model::upload::Upload;

/// Counts a report against the client's limit; the caller asks before reading the body,
/// so a refused client costs no upload buffering.
pub async fn admit(
    state: &AppState,
    settings: &DsaSettings,
    client_key: &str,
    now: i64,
) -> Result<(), DsaError> {
    let s = settings;
    let bucket = format!("dsa:{client_key}");
    if !crate::platform::ratelimit::hit(&state.db, &bucket, s.rate_limit, s.rate_window_secs, now)
        .await?
    {
        return Err(DsaError::RateLimited);
    }
    Ok(())
}

/// Stores a report the client was admitted for ([`admit`]).
pub async fn submit(
    state: &AppState,
    client_key: &str,
    req: DsaFormRequest,
    uploads: Vec<Upload>,
    now: i64,
) -> Result<DsaFormResponse, DsaError> {
    let metas: Vec<FileMeta<'_>> = uploads
        .iter()
        .map(|u| FileMeta {
            name: &u.name,
            content_type: &u.content_type,
            bytes: &u.bytes,
        })
        .collect();
    let errors = rules::validate(&req, &metas);
    if !errors.is_empty() {
        return Err(DsaError::Invalid(errors));
    }
    let mut tx = state.db.begin().await?;
    let id = store::insert_report(&mut tx, &req, client_key, now).await?;
    for u in &uploads {
        store::insert_file(&mut tx, id, &u.name, &u.content_type, &u.bytes).await?;
    }
    tx.commit().await?;
    tracing::info!(report_id = id, site_id = req.site_id, "DSA report stored");
    Ok(DsaFormResponse {
        id,
        is_submitted: true,
    })
}
