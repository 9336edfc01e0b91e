//! What every request handler and server function can reach.
use std::sync::Arc;

use crate::db::Db;

#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
    pub settings: Arc<Settings>,
}

/// Tunables read from the environment by the server (see the README's table).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Reports accepted per client address and window before 429.
    pub dsa_rate_limit: i64,
    pub dsa_rate_window_secs: i64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dsa_rate_limit: 5,
            dsa_rate_window_secs: 600,
        }
    }
}

pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}
