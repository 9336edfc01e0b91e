//! Home pages (spec 000 §2): `/`, `/home/default`, `/h/default` and `/gr/home/:homeName`
//! render a home built from its modules and banners. Query: `part=moduleName` (or a module
//! id) shows only that module (an unknown part leaves the home whole), `isHomeReduced=true`
//! the reduced home, `previewDate=YYYY-MM-DD` the home as live on that day (only when the
//! server allows previews, `ROSACE_HOME_PREVIEW`; otherwise the parameter is ignored).
//! Unknown homes and bad preview dates get localized pages (404 / message).
pub mod api;
#[cfg(feature = "ssr")]
pub mod error;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod settings;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;
