//! The account pages' data, read while the server renders them (a server function, so the
//! pages stay plain components without islands).
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::account::model::AccountView;

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "account/profile")]
pub async fn fetch_account() -> Result<AccountView, ServerFnError> {
    use crate::account::{error::AccountError, service};
    use crate::context::RequestCtx;
    use crate::platform::state::WireResult;
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    let member_id = ctx
        .member_id
        .ok_or_else(|| ServerFnError::new("errors.session_expired"))?;
    service::view(
        &state.db,
        member_id,
        ctx.site_id,
        ctx.lang(),
        crate::platform::state::now(),
    )
    .await
    .wire::<AccountError>()
}
