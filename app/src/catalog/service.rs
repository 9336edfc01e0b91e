//! Catalog writes: each a service function, so REST handlers and server functions share
//! one entry point (principle 2).
use crate::catalog::error::CatalogError;
use crate::catalog::store;
use crate::platform::db::Db;

/// Adds (`on`) or removes a favourite; `false` when the item is not in a live sale of the
/// site.
pub async fn set_favourite(
    db: &Db,
    site_id: u16,
    member_id: i64,
    sale_id: i64,
    item_id: i64,
    on: bool,
    now: i64,
) -> Result<bool, sqlx::Error> {
    store::set_favourite(db, site_id, member_id, sale_id, item_id, on, now).await
}

/// A member's answer to a sale's intermediate step (`catalog::gate`): its conditions
/// accepted and, with `empty_cart` when their cart holds items of another kind, that cart
/// emptied, in one commit. Accepting again changes nothing; a sale without the step, or not
/// live on the site, is not found; a cart frozen for payment is not emptied (and nothing is
/// recorded).
pub async fn accept_intermediate(
    cart: &crate::cart::service::CartService,
    site_id: u16,
    m: crate::cart::member::Member,
    sale_id: i64,
    empty_cart: bool,
    now: i64,
) -> Result<(), CatalogError> {
    let Some(g) = store::member_gate(&cart.db, site_id, sale_id, m.id, now).await? else {
        return Err(CatalogError::NotFound);
    };
    if g.conditions.trim().is_empty() {
        return Err(CatalogError::NotFound);
    }
    let conflict = crate::cart::rules::cart_types_conflict(
        g.live_cart_type.as_deref(),
        crate::cart::rules::cart_type_for_seller(&g.seller_kind),
    );
    let empty = empty_cart && conflict;
    let mut w = cart.begin().await?;
    let released = if empty {
        cart.empty_in(&mut w, m, now).await?
    } else {
        Vec::new()
    };
    store::record_answers(&mut w.tx, m.id, sale_id, empty, now).await?;
    w.commit().await?;
    cart.clear_sold_out(released);
    Ok(())
}

/// The member's answers to a sale's intermediate step (both false when they gave none).
pub async fn sale_state(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    member_id: i64,
    now: i64,
) -> Result<crate::model::catalog_api::SaleState, sqlx::Error> {
    Ok(store::member_gate(db, site_id, sale_id, member_id, now)
        .await?
        .map(|g| g.state)
        .unwrap_or_default())
}
