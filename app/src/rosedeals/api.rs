//! The rose-deals pages' data, read while the server renders them (server functions, so
//! the pages stay plain components; the deal tiles' buttons are the shared islands).
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::rosedeals::model::{
    DealBasket, DealLists, DealOrder, DealOrderPage, DealSale, MemberVoucher,
};
#[cfg(feature = "ssr")]
use crate::{context::RequestCtx, platform::state::WireResult, rosedeals::error::DealsError};

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "rosedeals/deals")]
pub async fn fetch_deals() -> Result<Vec<DealSale>, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    crate::rosedeals::service::deal_sales(
        &state.db,
        i64::from(ctx.site_id),
        ctx.member_id,
        crate::platform::state::now(),
    )
    .await
    .wire::<DealsError>()
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "rosedeals/orders")]
pub async fn fetch_orders(archived: bool, page: i64) -> Result<DealOrderPage, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    crate::rosedeals::service::orders(
        &state.db,
        crate::wallet::api::member()?,
        archived,
        Some(page),
        crate::platform::state::now(),
    )
    .await
    .wire::<DealsError>()
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "rosedeals/order")]
pub async fn fetch_order(basket_id: i64) -> Result<DealOrder, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    crate::rosedeals::service::order(
        &state.db,
        crate::wallet::api::member()?,
        basket_id,
        crate::platform::state::now(),
    )
    .await
    .wire::<DealsError>()
}

/// Both lists, each with its page, fetched concurrently (`service::order_lists` logs each
/// failure with the spec's words, so the failure is not logged again here).
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "rosedeals/lists")]
pub async fn fetch_lists(
    current_page: i64,
    archived_page: i64,
) -> Result<DealLists, ServerFnError> {
    use crate::model::error::WireError;
    let state = crate::platform::state::app_state()?;
    crate::rosedeals::service::order_lists(
        &state.db,
        crate::wallet::api::member()?,
        Some(current_page),
        Some(archived_page),
        crate::platform::state::now(),
    )
    .await
    .map_err(|e| ServerFnError::new(e.message_key()))
}

/// The vouchers of all the member's rose-deal orders, for the contact form.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "rosedeals/vouchers")]
pub async fn fetch_contact_vouchers() -> Result<Vec<MemberVoucher>, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    crate::rosedeals::service::contact_vouchers(
        &state.db,
        crate::wallet::api::member()?,
        crate::platform::state::now(),
    )
    .await
    .wire::<DealsError>()
}

/// Whether a server function's failure is the not-found of an order (another member's or
/// no such basket), as opposed to a failed load.
pub fn is_not_found(e: &ServerFnError) -> bool {
    matches!(e, ServerFnError::ServerError(key) if key == "errors.not_found")
}

/// The rose-deal lines of the member's cart (the media basket); `None` for a visitor. A
/// failure is logged with the spec's words ("Cannot fetch rosedeals basket") and returned.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "rosedeals/basket")]
pub async fn fetch_basket() -> Result<Option<DealBasket>, ServerFnError> {
    use crate::model::error::WireError;
    let state = crate::platform::state::app_state()?;
    let Some(member_id) = RequestCtx::current().member_id else {
        return Ok(None);
    };
    match crate::rosedeals::service::basket(&state.db, member_id, crate::platform::state::now())
        .await
    {
        Ok(b) => Ok(Some(b)),
        Err(e) => {
            tracing::error!(error = %e, "Cannot fetch rosedeals basket");
            Err(ServerFnError::new(e.message_key()))
        }
    }
}
