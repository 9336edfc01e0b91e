//! Server-only infrastructure: the database pool, sessions, CSRF tokens, mail, password
//! hashing, rate limits, group commit and the application state. Uses `model`, `text` and `site` only.
pub mod csrf;
pub mod db;
pub mod group_commit;
pub mod mail;
pub mod password;
pub mod ratelimit;
pub mod retention;
pub mod session;
pub mod session_lookups;
pub mod sql;
pub mod state;
pub mod upload_quota;
