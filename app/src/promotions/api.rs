//! The vouchers page's data, read while the server renders it.
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::promotions::model::VouchersAndPromotions;
#[cfg(feature = "ssr")]
use crate::{platform::state::WireResult, wallet::api::member};

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "account/vouchers")]
pub async fn fetch_vouchers() -> Result<VouchersAndPromotions, ServerFnError> {
    use crate::promotions::{error::PromotionsError, store};
    let state = crate::platform::state::app_state()?;
    let member_id = member()?;
    let now = crate::platform::state::now();
    let site_id = store::member_site(&state.db, member_id)
        .await
        .wire::<PromotionsError>()?;
    store::list(&state.db, member_id, site_id, now)
        .await
        .wire::<PromotionsError>()
}
