//! The header's content for the page being rendered (the header and the mobile menu page
//! both show it).
use leptos::prelude::*;

use super::model::HeaderContent;
#[cfg(feature = "ssr")]
use crate::context::RequestCtx;

/// The header content of this request, from the same service as `GET /header`, with the
/// sales live on the page's `?previewDate` day where the server allows previews (as the
/// home honours it). A failure leaves the tabs and categories out (logged); the rest of
/// the header does not need it.
pub async fn load_content(preview_date: Option<String>) -> HeaderContent {
    #[cfg(feature = "ssr")]
    {
        use crate::home::rules::{parse_preview_date, LiveWindow};
        let ctx = RequestCtx::current();
        let Ok(state) = crate::platform::state::app_state() else {
            return HeaderContent::default();
        };
        // An operator's preview shows the menus of its time too.
        let now = ctx.now();
        let day = crate::platform::state::shared::<crate::home::store::HomeCache>()
            .ok()
            .and_then(|c| {
                c.preview_date(preview_date.as_deref())
                    .and_then(parse_preview_date)
            });
        let window = match day {
            Some(day) => LiveWindow::preview(now, day),
            None => LiveWindow::now(now),
        };
        match super::service::header(&state.db, ctx.site_id, ctx.member_id, window).await {
            Ok(c) => c,
            Err(e) => {
                tracing::error!(error = %e, "Cannot fetch header");
                HeaderContent::default()
            }
        }
    }
    #[cfg(not(feature = "ssr"))]
    {
        let _ = preview_date;
        HeaderContent::default()
    }
}

/// The page's `?previewDate`, if any.
pub fn page_preview_date() -> Option<String> {
    leptos_router::hooks::use_query_map()
        .with_untracked(|q| q.get("previewDate"))
        .filter(|d| !d.trim().is_empty())
}
