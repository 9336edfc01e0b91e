//! The communications page's data, read while the server renders it.
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::communications::model::{CancelReasons, CommunicationSettings};
#[cfg(feature = "ssr")]
use crate::wallet::api::member;
#[cfg(feature = "ssr")]
use crate::{context::RequestCtx, platform::state::WireResult};

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "account/communications")]
pub async fn fetch_communications() -> Result<(CommunicationSettings, CancelReasons), ServerFnError>
{
    use crate::communications::{error::CommunicationsError, service};
    let state = crate::platform::state::app_state()?;
    let lang = RequestCtx::current().lang();
    let settings = service::settings(&state.db, member()?, lang)
        .await
        .wire::<CommunicationsError>()?;
    let reasons = service::cancel_reasons(&state.db, lang)
        .await
        .wire::<CommunicationsError>()?;
    Ok((settings, reasons))
}
