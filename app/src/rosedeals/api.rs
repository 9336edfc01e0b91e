//! The rose-deals pages' data, read while the server renders them (server functions, so
//! the pages stay plain components; the deal tiles' buttons are the shared islands).
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::rosedeals::model::{DealOrder, DealOrderPage, DealSale};
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
