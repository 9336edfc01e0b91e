//! The sign-in page's data, read while the server renders it (a server function, so the
//! page stays a plain component without islands).
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

/// The first name of the member an autologin link would sign in, while the link is
/// valid (unused, unexpired, the member active on this site); `None` otherwise. Nothing is
/// used up: the member confirms first (review L1).
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "auth/autologin")]
pub async fn autologin_name(cypher: String) -> Result<Option<String>, ServerFnError> {
    use crate::context::RequestCtx;
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    crate::auth::service::autologin_member(
        &state,
        ctx.site_id,
        &cypher,
        crate::platform::state::now(),
    )
    .await
    .map_err(|e| crate::platform::state::server_fn_error(&e))
}
