//! A rose-deal multipart body (the refund, the retry, the contact message and its files),
//! read the same way by the REST calls and the forms without scripts.
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::header;

use app::model::dsa::{DSA_MAX_FILES, DSA_MAX_FILE_BYTES};
use app::model::upload::Upload;
use app::rosedeals::error::DealsError;
use app::rosedeals::model::DealAddress;

/// The attachments call takes files as the DSA report does (its limits).
pub(crate) const RMI_BODY_MAX: usize = DSA_MAX_FILES * DSA_MAX_FILE_BYTES + 1024 * 1024;
/// Text parts of the forms (address JSON, content, IBAN, codes).
const PART_MAX: usize = 16 * 1024;

/// The text parts and files of a multipart form; anything else is a 400 (the no-script
/// forms of `forms::rosedeals` read theirs the same way).
pub(crate) struct Parts {
    pub(crate) texts: Vec<(String, String)>,
    pub(crate) files: Vec<Upload>,
}

impl Parts {
    pub(crate) fn text(&self, name: &str) -> Option<&str> {
        self.texts
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    pub(crate) fn all(&self, name: &str) -> Vec<String> {
        self.texts
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .collect()
    }
    pub(crate) fn flag(&self, name: &str) -> bool {
        matches!(self.text(name), Some("true" | "1" | "on"))
    }
    pub(crate) fn address(&self) -> Result<DealAddress, DealsError> {
        match self.text("address") {
            None => Ok(DealAddress::default()),
            Some(json) => serde_json::from_str(json).map_err(|_| DealsError::BadRequest),
        }
    }
    /// `vouchers`: a JSON list, or the part repeated.
    pub(crate) fn codes(&self) -> Vec<String> {
        let all = self.all("vouchers");
        match all.as_slice() {
            [one] if one.trim_start().starts_with('[') => {
                serde_json::from_str(one).unwrap_or_default()
            }
            _ => all,
        }
    }
}

pub(crate) async fn read_parts(req: Request, file_field: &str) -> Result<Parts, DealsError> {
    let is_multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    if !is_multipart {
        return Err(DealsError::BadRequest);
    }
    let mut mp = Multipart::from_request(req, &())
        .await
        .map_err(|_| DealsError::BadRequest)?;
    let mut parts = Parts {
        texts: vec![],
        files: vec![],
    };
    while let Some(field) = mp.next_field().await.map_err(|_| DealsError::BadRequest)? {
        let name = field.name().unwrap_or("").to_string();
        if name == file_field {
            if parts.files.len() > DSA_MAX_FILES {
                return Err(DealsError::Attachment("dsaform.error.file_count"));
            }
            // One byte past the limit is enough for the rules to refuse the size.
            let file = super::upload::read_file(field, DSA_MAX_FILE_BYTES)
                .await
                .map_err(|()| DealsError::BadRequest)?;
            parts.files.push(file);
        } else {
            let text = super::upload::read_text(field, PART_MAX)
                .await
                .ok()
                .flatten()
                .ok_or(DealsError::BadRequest)?;
            if parts.texts.len() > 200 {
                return Err(DealsError::BadRequest);
            }
            parts.texts.push((name, text));
        }
    }
    Ok(parts)
}
