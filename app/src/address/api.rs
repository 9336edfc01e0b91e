//! The address book's data for the pages that show it (the address page, the cart's
//! delivery choice), read while the server renders them: server functions, so the pages
//! stay plain components without islands.
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::address::model::Address;

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "account/addresses")]
pub async fn fetch_addresses() -> Result<Vec<Address>, ServerFnError> {
    use crate::address::{error::AddressError, service};
    use crate::context::RequestCtx;
    use crate::platform::state::WireResult;
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    let member_id = ctx
        .member_id
        .ok_or_else(|| ServerFnError::new("errors.session_expired"))?;
    let owner = service::Owner {
        member_id,
        site_id: ctx.site_id,
    };
    service::list(&state.db, owner).await.wire::<AddressError>()
}
