//! Files members upload (the DSA report, the help form): what they may be, told by their
//! first bytes rather than by their name or declared type, so a renamed executable is not
//! taken for a PDF. One place for every form that takes files.

/// The types a member may attach: PDF, PNG, JPEG.
pub const ALLOWED_TYPES: [&str; 3] = ["application/pdf", "image/png", "image/jpeg"];

/// An uploaded file, owned.
#[derive(Clone, Debug)]
pub struct Upload {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// The type the content is, by its magic number, among [`ALLOWED_TYPES`].
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"%PDF-") {
        Some("application/pdf")
    } else if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else {
        None
    }
}

/// The declared type is allowed and the content really is of that type.
pub fn content_matches(content_type: &str, bytes: &[u8]) -> bool {
    sniff(bytes) == Some(content_type)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_told_by_their_first_bytes() {
        assert_eq!(sniff(b"%PDF-1.7\n"), Some("application/pdf"));
        assert_eq!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(sniff(b"MZ\x90\x00"), None);
        assert!(content_matches("image/png", b"\x89PNG\r\n\x1a\nrest"));
        assert!(!content_matches("application/pdf", b"\x89PNG\r\n\x1a\n"));
        assert!(!content_matches("text/plain", b"%PDF-"));
    }
}
