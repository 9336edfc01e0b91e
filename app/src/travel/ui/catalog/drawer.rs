//! The phone filter drawer (a `<details>`: it opens and closes without scripts).
//! `frontend-react/src/pages/travel-offers.ts` remembers it: opening sets `trv_push_filter=drawerOpened` and
//! closing clears it, so the next catalog renders it open again (spec 001 §9); it also shows
//! the close button, hidden without scripts. From desktop width the filters always show
//! and the summary is hidden.
use leptos::prelude::*;

use crate::context::RequestCtx;

/// The drawer element.
pub const DRAWER_ID: &str = "trv-filters";

#[component]
pub fn DrawerControl() -> impl IntoView {
    view! {
        <button type="button" class="button trv-drawer__close" data-testid="filters-close" data-drawer-close="" hidden>
            {RequestCtx::current().t("travel.filter.close")}
        </button>
    }
}
