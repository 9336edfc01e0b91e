//! The content pages' data, read while the server renders them (server functions, so the
//! pages stay plain components without islands).
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::content::model::{Footer, Landing};

#[cfg(feature = "ssr")]
use crate::{content::error::ContentError, platform::state::WireResult};

/// The footer of the request's site for the request's visitor or member.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "content/footer")]
pub async fn fetch_footer() -> Result<Footer, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    let ctx = crate::context::RequestCtx::current();
    crate::content::service::footer(&state.db, ctx.site_id, ctx.is_member())
        .await
        .wire::<ContentError>()
}

/// A landing page of the request's site; `None` for a slug the site does not have.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "content/landing")]
pub async fn fetch_landing(slug: String) -> Result<Option<Landing>, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    let ctx = crate::context::RequestCtx::current();
    let viewer = crate::cart::store::Viewer {
        member_id: ctx.member_id,
        max_per_member: crate::cart::service::cart_service()?
            .settings
            .max_per_member,
    };
    match crate::content::service::landing(
        &state.db,
        ctx.site_id,
        &slug,
        viewer,
        crate::platform::state::now(),
    )
    .await
    {
        Ok(l) => Ok(Some(l)),
        Err(ContentError::NotFound) => Ok(None),
        Err(e) => Err(e).wire::<ContentError>(),
    }
}

/// The address of the request's site's landing page with this translation key
/// (`/l/{slug}`, its canonical address); `None` when the site has none.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "content/landing-by-key")]
pub async fn fetch_landing_by_key(key: String) -> Result<Option<String>, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    let ctx = crate::context::RequestCtx::current();
    crate::content::store::slug_by_key(&state.db, ctx.site_id, &key)
        .await
        .map(|slug| slug.map(|s| format!("/l/{s}")))
        .wire::<ContentError>()
}
