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

/// What the signed-in member's sensitive forms ask for (review N1): their password, or a
/// provider sign-in of this session (fresh or to be made).
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "auth/reauth")]
pub async fn fetch_reauth() -> Result<crate::model::reauth::ReauthView, ServerFnError> {
    use crate::context::RequestCtx;
    use crate::platform::session::{Binding, SessionMember};
    use crate::platform::state::WireResult;
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    let member_id = ctx
        .member_id
        .ok_or_else(|| ServerFnError::new("errors.session_expired"))?;
    // A member's binding is their session's token hash.
    let Binding(token_hash) =
        Binding::current().ok_or_else(|| ServerFnError::new("errors.session_expired"))?;
    let member = SessionMember {
        member_id,
        first_name: String::new(),
        site_id: ctx.site_id,
        token_hash,
    };
    crate::auth::reauth::view(&state.db, &member, crate::platform::state::now())
        .await
        .wire::<crate::auth::error::AuthError>()
}

/// The address a "secure your account" link keeps, while the link works; `None` otherwise.
/// Nothing is used up: the reader confirms first.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "auth/secure")]
pub async fn secure_link_email(token: String) -> Result<Option<String>, ServerFnError> {
    use crate::platform::state::WireResult;
    let state = crate::platform::state::app_state()?;
    crate::account::service::secure_link_email(&state.db, &token, crate::platform::state::now())
        .await
        .wire::<crate::account::error::AccountError>()
}

/// The occupations a registration offers: the account's jobs, titled in the page's
/// language (the same list as `GET /api/postsales/v1/account/jobs`).
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "auth/jobs")]
pub async fn fetch_jobs() -> Result<Vec<crate::account::model::Job>, ServerFnError> {
    use crate::context::RequestCtx;
    use crate::platform::state::WireResult;
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    crate::account::service::jobs(&state.db, ctx.lang())
        .await
        .map(|r| r.jobs)
        .wire::<crate::account::error::AccountError>()
}
