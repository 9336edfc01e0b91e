//! The wallet's operations: each checks its input, then writes in one transaction.
use crate::account::service::Mailer;
use crate::auth::reauth::Proof;
use crate::platform::db::Db;
use crate::wallet::crypto::WalletKey;
use crate::wallet::error::WalletError;
use crate::wallet::model::{BankDetailsRequest, IbanInfo, WalletDetails};
use crate::wallet::rules::{check_bank_form, parse_iban};
use crate::wallet::store::{self, OwnedTable};

/// Ids we hand out are 32 hex digits; anything else cannot be one of the member's.
fn plausible_guid(guid: &str) -> bool {
    guid.len() == 32 && guid.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The row-binding associated data of a sealed IBAN.
pub fn iban_aad(member_id: i64, guid: &str) -> Vec<u8> {
    format!("iban:{member_id}:{guid}").into_bytes()
}

pub async fn details(db: &Db, member_id: i64) -> Result<WalletDetails, WalletError> {
    Ok(store::details(db, member_id).await?)
}

/// Validates and stores the bank form; the IBAN is sealed before it reaches the database
/// and only its masked form comes back. Invalid input stores nothing. Refunds are paid to
/// this account, so it needs the proof of review N1, and the member is told by mail (with
/// the "secure your account" link).
pub async fn save_bank_details(
    db: &Db,
    key: &WalletKey,
    mailer: &Mailer<'_>,
    proof: &Proof<'_>,
    req: &BankDetailsRequest,
    now: i64,
) -> Result<WalletDetails, WalletError> {
    let member_id = proof.member.member_id;
    let valid = check_bank_form(req).map_err(|e| WalletError::Invalid(e.to_field_errors()))?;
    proof.check(db, now).await?;
    let guid = crate::platform::session::new_token();
    let sealed = key
        .seal(valid.iban.as_str().as_bytes(), &iban_aad(member_id, &guid))
        .ok_or_else(|| WalletError::SaveFailed("no wallet key".into()))?;
    let mut tx = db.begin().await.map_err(save_failed)?;
    store::replace_bank_details(
        &mut tx,
        member_id,
        &guid,
        sealed,
        valid.iban.country(),
        valid.iban.as_str().len(),
        valid.iban.last4(),
        &valid.bic,
        &valid.owner_name,
        now,
    )
    .await
    .map_err(save_failed)?;
    tx.commit().await.map_err(save_failed)?;
    if let Some(me) = crate::account::store::secrets(db, member_id).await? {
        let last4 = valid.iban.last4();
        mailer
            .notice(
                db,
                member_id,
                &me,
                "mail.bank_details_changed",
                &[("last4", last4)],
                now,
            )
            .await;
    }
    details(db, member_id).await
}

fn save_failed(e: sqlx::Error) -> WalletError {
    WalletError::SaveFailed(e.to_string())
}

/// The member's IBAN in clear, for a refund transfer; never sent to a browser.
pub async fn reveal_iban(
    db: &Db,
    key: &WalletKey,
    member_id: i64,
) -> Result<Option<String>, WalletError> {
    let Some(row) = store::sealed_iban(db, member_id).await? else {
        return Ok(None);
    };
    let plain = key
        .open(&row.nonce, &row.sealed, &iban_aad(member_id, &row.guid))
        .ok_or_else(|| WalletError::SaveFailed("stored IBAN does not open with this key".into()))?;
    Ok(String::from_utf8(plain).ok())
}

/// What an IBAN says before it is saved (country, masked form, or why it is refused).
pub fn iban_info(iban: &str) -> IbanInfo {
    match parse_iban(iban) {
        Ok(i) => IbanInfo {
            valid: true,
            country: Some(i.country().into()),
            masked: Some(i.masked()),
            message_key: None,
        },
        Err(e) => IbanInfo {
            valid: false,
            country: None,
            masked: None,
            message_key: Some(e.message_key().into()),
        },
    }
}

/// Removes the member's bank details (their right to erasure); another member's id is
/// not found.
pub async fn delete_bank_details(
    db: &Db,
    member_id: i64,
    guid: &str,
) -> Result<WalletDetails, WalletError> {
    if !plausible_guid(guid)
        || !store::delete_owned(db, OwnedTable::BankDetails, member_id, guid).await?
    {
        return Err(WalletError::NotFound);
    }
    details(db, member_id).await
}

/// Deletes one of the member's saved cards (spec 001 §7 `DELETE {guid}`).
pub async fn delete_payment_method(
    db: &Db,
    member_id: i64,
    guid: &str,
) -> Result<WalletDetails, WalletError> {
    if !plausible_guid(guid)
        || !store::delete_owned(db, OwnedTable::PaymentMethods, member_id, guid).await?
    {
        return Err(WalletError::NotFound);
    }
    details(db, member_id).await
}

/// Keeps the card a payment provider tokenised at checkout (the member ticked "save this card").
pub async fn save_card(
    db: &Db,
    member_id: i64,
    card: &crate::cart::payment::SavedCard,
    now: i64,
) -> Result<(), WalletError> {
    Ok(store::insert_payment_method(
        db,
        member_id,
        card.provider,
        &card.token,
        &card.brand,
        &card.last4,
        now,
    )
    .await?)
}
