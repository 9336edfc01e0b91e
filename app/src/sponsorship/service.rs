//! The sponsorship page's read (the code is made on the first visit).
use crate::platform::db::Db;
use crate::sponsorship::error::SponsorshipError;
use crate::sponsorship::model::Sponsorship;
use crate::sponsorship::{rules, store};

/// The member's code, share link (`absolute` puts the site's origin in front of a path),
/// sponsored members and reward vouchers.
pub async fn page(
    db: &Db,
    member_id: i64,
    absolute: impl Fn(&str) -> String,
    now: i64,
) -> Result<Sponsorship, SponsorshipError> {
    let code = store::ensure_code(db, member_id, now).await?;
    Ok(Sponsorship {
        share_link: absolute(&rules::share_path(&code, member_id)),
        code,
        reward_value: rules::REWARD_VALUE,
        reward_min_order: rules::REWARD_MIN_ORDER,
        sponsored: store::sponsored(db, member_id).await?,
        rewards: store::rewards(db, member_id).await?,
    })
}
