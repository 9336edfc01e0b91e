//! The wallet page's data, read while the server renders it (a server function, so the
//! page stays a plain component without islands).
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::wallet::model::WalletDetails;
#[cfg(feature = "ssr")]
use crate::{context::RequestCtx, platform::state::WireResult};

/// The signed-in member of a page's server function.
#[cfg(feature = "ssr")]
pub fn member() -> Result<i64, ServerFnError> {
    RequestCtx::current()
        .member_id
        .ok_or_else(|| ServerFnError::new("errors.session_expired"))
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "account/wallet")]
pub async fn fetch_wallet() -> Result<WalletDetails, ServerFnError> {
    use crate::wallet::{error::WalletError, service};
    let state = crate::platform::state::app_state()?;
    service::details(&state.db, member()?)
        .await
        .wire::<WalletError>()
}
