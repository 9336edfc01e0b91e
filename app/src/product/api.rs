//! The product page's server function (GET read).
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;
use serde::{Deserialize, Serialize};

use crate::model::catalog::ProductDetail;
#[cfg(feature = "ssr")]
use crate::{
    cart::service::cart_service,
    context::RequestCtx,
    platform::state::{app_state, WireResult},
    product::{error::ProductError, store},
};

/// A product of a sale on a site.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductQuery {
    pub site_id: u16,
    pub sale_id: i64,
    pub product_id: i64,
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "product/detail")]
pub async fn fetch_product(query: ProductQuery) -> Result<Option<ProductDetail>, ServerFnError> {
    let state = app_state()?;
    let ctx = RequestCtx::current();
    let member = ctx.member_id;
    let found = store::product(
        &state.db,
        query.site_id,
        query.sale_id,
        query.product_id,
        cart_service()?.viewer(member),
        ctx.now(),
    )
    .await
    .wire::<ProductError>()?;
    if found.is_none()
        && store::taken_off(&state.db, query.product_id)
            .await
            .wire::<ProductError>()?
    {
        return Err(crate::platform::state::server_fn_error(
            &ProductError::Removed,
        ));
    }
    Ok(found)
}
