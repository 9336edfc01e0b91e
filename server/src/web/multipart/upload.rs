//! Reading the files of a multipart request (the DSA report, the help form, rose deals): each file part
//! is read up to one byte past its limit, so the rules can refuse its size without the
//! server keeping an oversized upload; the rest of such a part is read and dropped.
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
