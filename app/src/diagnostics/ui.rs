//! The diagnostics script tag, placed by the onboarding layer only when the visitor
//! accepted the performance category (C0002). Its attributes tell the script the app's name
//! and version and whether this shop is a developer's (`ROSACE_FRONTEND_DEV`: then nothing
//! is sent). A module: after an in-app navigation swaps the body, the tag comes back but
//! the module, already loaded, does not run twice.
use leptos::prelude::*;

use crate::diagnostics::rules::{APP_NAME, APP_VERSION};
use crate::diagnostics::settings::DiagnosticsSettings;

/// The built bundle (frontend-react `src/diagnostics`, with the `web-vitals` library).
pub const DIAGNOSTICS_SCRIPT: &str = "/widgets/diagnostics.js";

#[component]
pub fn DiagnosticsScript() -> impl IntoView {
    let dev = use_context::<DiagnosticsSettings>().is_some_and(|s| s.frontend_dev);
    view! {
        <script
            type="module"
            src=DIAGNOSTICS_SCRIPT
            data-consent="C0002"
            data-diagnostics=""
            data-app-name=APP_NAME
            data-app-version=APP_VERSION
            data-dev=if dev { "true" } else { "false" }
        ></script>
    }
}
