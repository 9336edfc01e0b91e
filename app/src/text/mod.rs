//! Pure text rules of the spec: accent folding (one table), slugs, the email format,
//! and (server only) the data-sheet sanitiser.
pub mod email;
pub mod fold;
#[cfg(feature = "ssr")]
pub mod sanitize;
pub mod slug;
