//! Reading the parts of a multipart request (the DSA report, the help form, rose deals):
//! each file part is read up to one byte past its limit, so the rules can refuse its size
//! without the server keeping an oversized upload, and each text part up to its own limit;
//! the rest of such a part is read and dropped, never kept.
use axum::extract::multipart::Field;

use app::model::upload::Upload;

pub async fn read_file(mut field: Field<'_>, max_bytes: usize) -> Result<Upload, ()> {
    let name = field
        .file_name()
        .unwrap_or("file")
        .chars()
        .take(200)
        .collect();
    let content_type = field.content_type().unwrap_or("").to_string();
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(|_| ())? {
        let room = (max_bytes + 1).saturating_sub(bytes.len());
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
    }
    Ok(Upload {
        name,
        content_type,
        bytes,
    })
}

/// A text part of at most `max_bytes` (None past it: the caller refuses or skips it, and the
/// rest is read and dropped rather than gathered); Err when the body cannot be read. Bytes
/// that are not UTF-8 become replacement characters, as multer's `text()` made them.
pub async fn read_text(mut field: Field<'_>, max_bytes: usize) -> Result<Option<String>, ()> {
    let mut bytes = Vec::new();
    let mut over = false;
    while let Some(chunk) = field.chunk().await.map_err(|_| ())? {
        if over || bytes.len() + chunk.len() > max_bytes {
            over = true;
            continue;
        }
        bytes.extend_from_slice(&chunk);
    }
    if over {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}
