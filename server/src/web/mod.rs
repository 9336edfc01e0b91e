//! What the REST calls (`rest/`) and the browser forms (`forms/`) both use: the standard
//! error and the request extractors, the session cookie's life (sign-in, rotation,
//! sign-out), the client address, multipart bodies, social sign-in's protocol. Both depend
//! on this; neither on the other.
pub mod client;
pub mod download;
pub mod error;
pub mod extract;
pub mod multipart;
pub mod session;
pub mod social;
