//! Home settings, read at start (`ROSACE_HOME_PREVIEW`).

/// What the home pages and the homes call may do.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HomeSettings {
    /// `previewDate` shows a home as live on another day, upcoming sales included: for the
    /// shop's editors, so off unless `ROSACE_HOME_PREVIEW` is set. Off, the parameter is
    /// ignored on the pages and on `/api/content/v1/homes/{idOrName}` (review L6).
    pub preview_dates: bool,
}
