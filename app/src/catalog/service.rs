//! Catalog writes: each a service function, so REST handlers and server functions share
//! one entry point (principle 2).
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
