//! Submitting a report: rate limit, validation, then one transaction.
use crate::dsa::error::DsaError;
use crate::dsa::rules::{self, FileMeta};
use crate::dsa::settings::DsaSettings;
use crate::dsa::store;
use crate::model::dsa::{DsaFormRequest, DsaFormResponse};
use crate::platform::mail::MailSettings;
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

/// Stores a report the client was admitted for ([`admit`]), then acknowledges it to the
/// notifier by email (DSA Art. 16(4)). The report is committed first: a mail failure is
/// logged and leaves it unacknowledged, and the moderators' queue offers to send it again.
pub async fn submit(
    state: &AppState,
    mail_settings: &MailSettings,
    who: crate::platform::upload_quota::Uploader<'_>,
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
    let client_key = who.client;
    let id = store::insert_report(&mut tx, &req, client_key, now).await?;
    let bytes = uploads.iter().map(|u| u.bytes.len() as i64).sum();
    crate::platform::upload_quota::charge(&mut tx, who, None, bytes, now)
        .await?
        .map_err(DsaError::Upload)?;
    for u in &uploads {
        store::insert_file(&mut tx, id, &u.name, &u.content_type, &u.bytes).await?;
    }
    tx.commit().await?;
    tracing::info!(report_id = id, site_id = req.site_id, "DSA report stored");
    acknowledge(state, mail_settings, id, now).await;
    Ok(DsaFormResponse {
        id,
        is_submitted: true,
    })
}

/// Sends notice `id`'s acknowledgement and notes it; a failure is logged (the notice stays
/// unacknowledged for the moderators to see and send again).
pub async fn acknowledge(
    state: &AppState,
    mail_settings: &MailSettings,
    id: i64,
    now: i64,
) -> bool {
    let sent = async {
        let Some(r) = store::report_head(&state.db, id).await? else {
            return Ok::<bool, sqlx::Error>(false);
        };
        let object = store::object_of(&state.db, r.sale_id, r.product_id).await?;
        let mail =
            crate::dsa::mail::acknowledgement(id, r.site_id, r.created_at, &r.email, &object);
        match crate::platform::mail::send(mail_settings, &mail, now).await {
            Ok(_) => {
                store::acknowledged(&state.db, id, now).await?;
                Ok(true)
            }
            Err(e) => {
                tracing::warn!(report_id = id, error = %e, "DSA acknowledgement not sent");
                Ok(false)
            }
        }
    }
    .await;
    sent.unwrap_or_else(|e| {
        tracing::error!(report_id = id, error = %e, "DSA acknowledgement failed");
        false
    })
}
