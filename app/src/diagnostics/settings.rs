//! The diagnostics tunables, with their defaults (defined once, here; the server reads the
//! environment over them: see the README's table).

#[derive(Clone, Debug)]
pub struct DiagnosticsSettings {
    /// Log entries and metric batches accepted per client address and window, both calls
    /// together, before 429 (`ROSACE_DIAGNOSTICS_RATE_LIMIT`). A page sends one batch or
    /// two and an error log now and then: 600 per 10 minutes is a page a second.
    pub rate_limit: i64,
    /// The window, in seconds (`ROSACE_DIAGNOSTICS_RATE_WINDOW_SECS`).
    pub rate_window_secs: i64,
    /// `ROSACE_FRONTEND_DEV=1`: a developer's shop. Pages then tell the browser so and it
    /// sends no frontend log and no metrics (spec 000 §7 "skipped in development"). Off by
    /// default, so the shop and its browser tests measure as production does.
    pub frontend_dev: bool,
}

impl Default for DiagnosticsSettings {
    fn default() -> Self {
        DiagnosticsSettings {
            rate_limit: 600,
            rate_window_secs: 600,
            frontend_dev: false,
        }
    }
}
