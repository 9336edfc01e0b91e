//! The sponsorship page's data, read while the server renders it.
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::sponsorship::model::Sponsorship;
#[cfg(feature = "ssr")]
use crate::{platform::state::WireResult, wallet::api::member};

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "account/sponsorship")]
pub async fn fetch_sponsorship() -> Result<Sponsorship, ServerFnError> {
    use crate::sponsorship::{error::SponsorshipError, service};
    let state = crate::platform::state::app_state()?;
    let member_id = member()?;
    let ctx = crate::context::RequestCtx::current();
    service::page(
        &state.db,
        member_id,
        |p| ctx.url_on(ctx.site_id, p),
        crate::platform::state::now(),
    )
    .await
    .wire::<SponsorshipError>()
}
