//! Onboarding writes: popin answers and the data-partner (adot) opt-in.
use crate::onboarding::rules::PopinType;
use crate::onboarding::store;
use crate::platform::db::Db;

/// Records the answer to a popin (once per member and version) and applies it, in one
/// transaction.
pub async fn answer(
    db: &Db,
    member_id: i64,
    kind: PopinType,
    version: i64,
    accepted: bool,
    birth_date: Option<String>,
    now: i64,
) -> Result<(), sqlx::Error> {
    store::answer(db, member_id, kind, version, accepted, birth_date, now).await
}

/// The member's answer to the data-partner banner.
pub async fn adot(db: &Db, member_id: i64, accepted: bool) -> Result<(), sqlx::Error> {
    store::adot(db, member_id, accepted).await
}
