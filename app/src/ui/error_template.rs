//! The error notice a page shows when its data could not be loaded: the general retry
//! message (or another translation key), as an alert.
use leptos::prelude::*;

use crate::context::RequestCtx;

/// `<p class="error" role="alert">` with the translated `key`
/// (`errors.general_retry.notification` unless told otherwise).
#[component]
pub fn ErrorNotice(
    #[prop(default = "errors.general_retry.notification")] key: &'static str,
) -> impl IntoView {
    view! { <p class="error" role="alert">{RequestCtx::current().t(key)}</p> }
}
