//! Submitting a report: rate limit, validation, then one transaction.
use crate::dsa::rules::{self, FileMeta};
use crate::dsa::store;
use crate::model::dsa::{DsaFieldError, DsaFormErrorResponse, DsaFormRequest, DsaFormResponse};
use crate::platform::state::AppState;

/// An uploaded file, owned.
#[derive(Clone, Debug)]
pub struct Upload {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum DsaError {
    #[error("invalid report")]
    Invalid(Vec<DsaFieldError>),
    #[error("too many reports from this client")]
    RateLimited,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl DsaError {
    pub fn status(&self) -> u16 {
        match self {
            DsaError::Invalid(_) => 400,
            DsaError::RateLimited => 429,
            DsaError::Storage(_) => 500,
        }
    }

    pub fn body(&self) -> DsaFormErrorResponse {
        let (code, key, fields) = match self {
            DsaError::Invalid(f) => ("invalid_fields", "dsaform.message.invalid", f.clone()),
            DsaError::RateLimited => ("too_many_requests", "dsaform.message.security", vec![]),
            DsaError::Storage(_) => ("unexpected", "errors.general_retry.notification", vec![]),
        };
        DsaFormErrorResponse {
            error_code: code.into(),
            message_key: key.into(),
            field_errors: fields,
        }
    }
}

pub async fn submit(
    state: &AppState,
    client_key: &str,
    req: DsaFormRequest,
    uploads: Vec<Upload>,
    now: i64,
) -> Result<DsaFormResponse, DsaError> {
    let s = &state.settings;
    let bucket = format!("dsa:{client_key}");
    if !crate::platform::ratelimit::hit(
        &state.db,
        &bucket,
        s.dsa_rate_limit,
        s.dsa_rate_window_secs,
        now,
    )
    .await?
    {
        return Err(DsaError::RateLimited);
    }
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
    let mut tx = state.db.pool.begin().await?;
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
