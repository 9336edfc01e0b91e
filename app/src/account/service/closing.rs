//! Deactivate (reason kept, signed out everywhere, login code 6 from then on) and delete
//! forever (personal data erased, orders kept without it, the email free to register).
use crate::account::error::AccountError;
use crate::account::model::*;
use crate::account::rules::deactivation_reason_key;
use crate::account::store::closing;
use crate::platform::db::Db;

use super::{secrets, Mailer};

pub use crate::auth::reauth::Proof;

pub async fn deactivate(
    db: &Db,
    mailer: &Mailer<'_>,
    proof: &Proof<'_>,
    req: &DeactivateRequest,
    now: i64,
) -> Result<AccountConfirmation, AccountError> {
    let member_id = proof.member.member_id;
    let reason = req.reason.trim();
    if deactivation_reason_key(reason).is_none() {
        return Err(AccountError::invalid(&[(
            "reason",
            "account.deactivate.error.reason",
        )]));
    }
    proof.check(db, now).await?;
    let me = secrets(db, member_id).await?;
    let mut tx = db.begin().await?;
    closing::deactivate(&mut tx, member_id, reason, now).await?;
    tx.commit().await?;
    // With the "secure your account" link (review N1): whoever deactivated it knew the
    // password; the member chooses a new one before asking customer care to reactivate.
    mailer
        .notice(db, member_id, &me, "mail.account_deactivated", &[], now)
        .await;
    Ok(AccountConfirmation::new("account.deactivate.done"))
}

/// STEP1 (the request) to STEP2 (done): one transaction erases everything personal.
pub async fn delete_forever(
    db: &Db,
    mailer: &Mailer<'_>,
    proof: &Proof<'_>,
    now: i64,
) -> Result<AccountConfirmation, AccountError> {
    let member_id = proof.member.member_id;
    proof.check(db, now).await?;
    let me = secrets(db, member_id).await?;
    let mut tx = db.begin().await?;
    if closing::payment_in_progress(&mut tx, member_id).await? {
        return Err(AccountError::PaymentInProgress);
    }
    closing::erase(&mut tx, member_id, now).await?;
    tx.commit().await?;
    // The last message to the address, which the shop no longer keeps.
    mailer
        .send(
            me.site_id,
            &me.email,
            "mail.account_deleted.subject",
            "mail.account_deleted.body",
            &[("name", &me.first_name)],
            now,
        )
        .await;
    Ok(AccountConfirmation {
        step: Some("STEP2".into()),
        ..AccountConfirmation::new("account.delete.done")
    })
}

/// "Sign out everywhere else" (review L11), with the proof of review N1: a borrowed session
/// cannot lock the member out of their own devices. The member gets a notice with the
/// "secure your account" link. The number of sessions ended.
pub async fn end_other_sessions(
    state: &crate::platform::state::AppState,
    mailer: &Mailer<'_>,
    proof: &Proof<'_>,
    now: i64,
) -> Result<u64, AccountError> {
    proof.check(&state.db, now).await?;
    let m = proof.member;
    let ended = crate::auth::service::end_other_sessions(state, proof.client, m, now)
        .await
        .map_err(|e| AccountError::Internal(e.to_string()))?;
    let me = secrets(&state.db, m.member_id).await?;
    mailer
        .notice(&state.db, m.member_id, &me, "mail.sessions_ended", &[], now)
        .await;
    Ok(ended)
}
