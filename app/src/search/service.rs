//! Search writes: the member's recent queries.
use crate::platform::db::Db;
use crate::search::store;

/// Records a query the member searched (normalised; kept to the last few per site).
pub async fn record(
    db: &Db,
    member_id: i64,
    site_id: u16,
    q: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    store::record(db, member_id, site_id, q, now).await
}

/// Deletes one of the member's recent queries; `false` when it is not theirs or gone.
pub async fn delete_recent(db: &Db, member_id: i64, id: i64) -> Result<bool, sqlx::Error> {
    store::delete_recent(db, member_id, id).await
}
