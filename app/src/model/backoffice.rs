//! The one wire type of the back office that a script reads: a reading of the live
//! sale-opening dashboard (`server/src/backoffice/dashboard.rs` sends it as a server-sent
//! event, `frontend-react/src/pages/backoffice-live.ts` writes it into the page). Only the
//! server builds it; nothing of it runs in a member's browser.
use serde::{Deserialize, Serialize};

/// One option's units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "DashboardOption.ts"))]
pub struct DashboardOption {
    pub id: i64,
    pub product: String,
    pub label: String,
    pub stock: i64,
    pub held: i64,
    pub sold: i64,
    pub available: i64,
}

/// A reading of the dashboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "DashboardFigures.ts"))]
pub struct DashboardFigures {
    /// When it was read, `2026-12-01 08:00:05` (UTC).
    pub at: String,
    pub options: Vec<DashboardOption>,
    /// Over the last 10 seconds, one decimal.
    pub adds_per_second: String,
    pub payments_per_second: String,
    pub refused_last_minute: i64,
    pub failed_last_minute: i64,
    pub line_length: i64,
    pub longest_wait_secs: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_typescript_matches_the_rust_models() {
        let mut stale = Vec::new();
        crate::model::dsa::check_generated::<DashboardOption>(&mut stale);
        crate::model::dsa::check_generated::<DashboardFigures>(&mut stale);
        assert!(
            stale.is_empty(),
            "regenerate with UPDATE_GENERATED=1:\n{}",
            stale.join("\n")
        );
    }
}
