//! Onboarding writes: popin answers and the data-partner (adot) opt-in.
use crate::onboarding::error::OnboardingError;
use crate::onboarding::rules::{self, PopinType};
use crate::onboarding::store;
use crate::platform::db::Db;

/// Records the answer to a popin (once per member and version) and applies it, in one
/// transaction. Only the current version of a modal popin can be answered: anything else
/// is refused before a row is written (review L4).
pub async fn answer(
    db: &Db,
    member_id: i64,
    kind: PopinType,
    version: i64,
    accepted: bool,
    birth_date: Option<String>,
    now: i64,
) -> Result<(), OnboardingError> {
    if rules::current_version(kind) != Some(version) {
        return Err(OnboardingError::StaleVersion);
    }
    Ok(store::answer(db, member_id, kind, version, accepted, birth_date, now).await?)
}

/// The member's answer to the data-partner banner.
pub async fn adot(db: &Db, member_id: i64, accepted: bool) -> Result<(), sqlx::Error> {
    store::adot(db, member_id, accepted).await
}
