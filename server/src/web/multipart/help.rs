//! A help-centre contact message (the REST call and the form without scripts read it the
//! same way).
use std::collections::HashMap;

use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{header, StatusCode};

use app::help::error::HelpError;
use app::help::model::ContactRequest;
use app::help::rules::{FILE_MAX_BYTES, MAX_FILES, TOTAL_MAX_BYTES};
use app::model::upload::Upload;

/// The JSON of a contact message, as the JSON call takes it.
const PAYLOAD_MAX: usize = 64 * 1024;
/// One text field of the form without scripts (a message is at most 4,000 characters).
const FIELD_MAX: usize = 16 * 1024;

/// A contact message from JSON, or from multipart: a `payload` part holding the JSON, or
/// one text part per field, and `fileAttachments` parts. Other text parts come back in the
/// map (the no-script form's `_xsrf`, `reason`, `subReason`).
pub async fn read_contact(
    req: Request,
) -> Result<(ContactRequest, Vec<Upload>, HashMap<String, String>), HelpError> {
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    if content_type.starts_with("application/json") {
        let bytes = axum::body::to_bytes(req.into_body(), PAYLOAD_MAX)
            .await
            .map_err(|_| HelpError::Unreadable)?;
        let r = serde_json::from_slice(&bytes).map_err(|_| HelpError::Unreadable)?;
        return Ok((r, vec![], HashMap::new()));
    }
    if !content_type.starts_with("multipart/form-data") {
        return Err(HelpError::Unreadable);
    }
    let mut mp = Multipart::from_request(req, &())
        .await
        .map_err(|_| HelpError::Unreadable)?;
    let mut payload = None;
    let mut fields = HashMap::new();
    let mut files = Vec::new();
    let mut total = 0usize;
    loop {
        let field = match mp.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            // A body cut by the size limit.
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                return Err(HelpError::TotalTooLarge)
            }
            Err(_) => return Err(HelpError::Unreadable),
        };
        let name = field.name().unwrap_or("").to_string();
        match name.as_str() {
            "fileAttachments" | "files" => {
                let is_empty_input = field.file_name().is_some_and(str::is_empty);
                let file = super::upload::read_file(field, FILE_MAX_BYTES)
                    .await
                    .map_err(|()| HelpError::Unreadable)?;
                // A file input left empty sends one part without a name or content.
                if is_empty_input && file.bytes.is_empty() {
                    continue;
                }
                if files.len() >= MAX_FILES {
                    return Err(HelpError::FileCount);
                }
                total += file.bytes.len();
                if file.bytes.len() > FILE_MAX_BYTES {
                    return Err(HelpError::FileTooLarge);
                }
                if total > TOTAL_MAX_BYTES {
                    return Err(HelpError::TotalTooLarge);
                }
                files.push(file);
            }
            "payload" => {
                let text = super::upload::read_text(field, PAYLOAD_MAX)
                    .await
                    .ok()
                    .flatten()
                    .ok_or(HelpError::Unreadable)?;
                payload = Some(
                    serde_json::from_str::<ContactRequest>(&text)
                        .map_err(|_| HelpError::Unreadable)?,
                );
            }
            _ => {
                // A field past its size is left out, as one past the 32 kept.
                let text = super::upload::read_text(field, FIELD_MAX)
                    .await
                    .map_err(|()| HelpError::Unreadable)?;
                if let Some(text) = text.filter(|_| fields.len() < 32) {
                    fields.insert(name, text);
                }
            }
        }
    }
    let request = payload.unwrap_or_else(|| {
        let get = |k: &str| fields.get(k).cloned().unwrap_or_default();
        ContactRequest {
            contact_from: get("contactFrom"),
            subject_id: get("subjectId"),
            subject_title: get("subjectTitle"),
            body: get("body"),
            operation_code: fields
                .get("operationCode")
                .cloned()
                .filter(|c| !c.is_empty()),
            order_id: fields.get("orderId").and_then(|o| o.trim().parse().ok()),
        }
    });
    Ok((request, files, fields))
}
