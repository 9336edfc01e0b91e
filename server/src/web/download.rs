//! A stored file sent as a download: never rendered inline (a member's or notifier's file
//! could be HTML or SVG pretending to be a picture), named safely in the header.
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// `Content-Disposition: attachment` with an ASCII fallback name and the UTF-8 name.
pub fn disposition(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    format!(
        "attachment; filename=\"{safe}\"; filename*=UTF-8''{}",
        app::routes::encode_query_value(name)
    )
}

/// The file as a download of `content_type`, with no sniffing, no caching and, should a
/// browser open it anyway, a sandbox that runs nothing.
pub fn attachment(name: &str, content_type: &str, bytes: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (header::CONTENT_DISPOSITION, disposition(name)),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
            (header::CACHE_CONTROL, "private, no-store".to_string()),
            (
                header::CONTENT_SECURITY_POLICY,
                "sandbox; default-src 'none'".to_string(),
            ),
        ],
        bytes,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_cannot_break_the_header() {
        let d = disposition("a\"b\r\nSet-Cookie: x.pdf");
        assert!(
            d.starts_with("attachment; filename=\"a_b__Set-Cookie__x.pdf\""),
            "{d}"
        );
        assert!(!d.contains('\r') && !d.contains('\n'));
    }
}
