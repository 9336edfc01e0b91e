//! Pure text rules of the spec: accent folding (one table), slugs, the email format, the
//! key filters of form fields, and (server only) the data-sheet sanitiser.
pub mod email;
pub mod fold;
pub mod keys;
pub mod line;
#[cfg(feature = "ssr")]
pub mod sanitize;
pub mod slug;
