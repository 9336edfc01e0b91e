//! The diagnostics script tag, placed by the onboarding layer only when the visitor
//! accepted the performance category (C0002). Its attributes tell the script the app's name
//! and version and whether this shop is a developer's (`ROSACE_FRONTEND_DEV`: then nothing
//! is sent) and, for the tracking library's page view, the page's route kind and visibility
//! context. A module: after an in-app navigation swaps the body, the tag comes back but
//! the module, already loaded, does not run twice.
use leptos::prelude::*;

use crate::diagnostics::rules::{APP_NAME, APP_VERSION};
use crate::diagnostics::settings::DiagnosticsSettings;

/// The page's kind in the route table (`Catalog`) and its visibility context (`SEO` when
/// reached through an SEO variant, else `CLASSICAL`: spec 000 §9), for the page view the
/// tracking library sends; empty outside a request.
fn route_of_request() -> (String, &'static str) {
    #[cfg(feature = "ssr")]
    {
        let route = use_context::<axum::http::request::Parts>()
            .and_then(|parts| crate::routes::resolve(parts.uri.path()));
        if let Some(route) = route {
            let visibility = if route.seo { "SEO" } else { "CLASSICAL" };
            return (format!("{:?}", route.kind), visibility);
        }
    }
    (String::new(), "")
}

/// The built bundle (frontend-react `src/diagnostics`, with the `web-vitals` library).
#[component]
pub fn DiagnosticsScript() -> impl IntoView {
    let dev = use_context::<DiagnosticsSettings>().is_some_and(|s| s.frontend_dev);
    let (route, visibility) = route_of_request();
    view! {
        <script
            type="module"
            src=crate::ui::assets::widget("diagnostics")
            data-consent="C0002"
            data-diagnostics=""
            data-app-name=APP_NAME
            data-app-version=APP_VERSION
            data-dev=if dev { "true" } else { "false" }
            data-route=route
            data-visibility=visibility
        ></script>
    }
}
