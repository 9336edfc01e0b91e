//! The report form's tunables, with their defaults (defined once, here; the server reads
//! the environment over them: see the README's table).

/// The flood limit of reports.
#[derive(Clone, Debug)]
pub struct DsaSettings {
    /// Reports accepted per client address and window before 429 (ROSACE_DSA_RATE_LIMIT).
    pub rate_limit: i64,
    /// The window, in seconds (ROSACE_DSA_RATE_WINDOW_SECS).
    pub rate_window_secs: i64,
}

impl Default for DsaSettings {
    fn default() -> Self {
        DsaSettings {
            rate_limit: 5,
            rate_window_secs: 600,
        }
    }
}
