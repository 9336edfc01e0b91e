//! The order pages' data, read while the server renders them (server functions, so the
//! pages stay plain components; the member is the session's).
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::orders::model::{OrderDetail, OrdersPage};
#[cfg(feature = "ssr")]
use crate::platform::state::WireResult;

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "orders/list")]
pub async fn fetch_orders(page: u32, size: u32) -> Result<OrdersPage, ServerFnError> {
    use crate::orders::{error::OrdersError, rules::Paging, service};
    let state = crate::platform::state::app_state()?;
    let member = crate::wallet::api::member()?;
    let paging = Paging::lenient(Some(&page.to_string()), Some(&size.to_string()));
    service::list(&state.db, member, paging)
        .await
        .wire::<OrdersError>()
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "orders/detail")]
pub async fn fetch_order(id: i64) -> Result<OrderDetail, ServerFnError> {
    use crate::orders::{error::OrdersError, service};
    let state = crate::platform::state::app_state()?;
    let member = crate::wallet::api::member()?;
    service::detail(&state.db, member, id)
        .await
        .wire::<OrdersError>()
}
