//! The wallet's SQL: bank details (sealed IBAN) and saved payment methods, always by
//! member so one member never reaches another's rows.
use sqlx::{AnyConnection, Row};

use crate::platform::db::Db;
use crate::wallet::model::{PaymentMethod, StoredIban, WalletDetails};
use crate::wallet::rules::mask;

/// The sealed IBAN of one row, for the cases that must read it back (refunds).
pub struct SealedIban {
    pub guid: String,
    pub nonce: Vec<u8>,
    pub sealed: Vec<u8>,
}

pub async fn details(db: &Db, member_id: i64) -> Result<WalletDetails, sqlx::Error> {
    let iban = sqlx::query(
        "SELECT guid, iban_country, iban_length, iban_last4, bic, owner_name, updated_at
           FROM member_bank_details WHERE member_id = $1",
    )
    .bind(member_id)
    .fetch_optional(&db.pool)
    .await?
    .map(|r| -> Result<StoredIban, sqlx::Error> {
        let country: String = r.try_get("iban_country")?;
        let last4: String = r.try_get("iban_last4")?;
        let len: i64 = r.try_get("iban_length")?;
        Ok(StoredIban {
            id: r.try_get("guid")?,
            masked: mask(&country, usize::try_from(len).unwrap_or(0), &last4),
            country,
            last4,
            bic: r.try_get("bic")?,
            owner_name: r.try_get("owner_name")?,
            updated_at: r.try_get("updated_at")?,
        })
    })
    .transpose()?;
    let payment_methods = sqlx::query(
        "SELECT guid, brand, last4, created_at FROM member_payment_methods
          WHERE member_id = $1 ORDER BY created_at DESC, guid",
    )
    .bind(member_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(PaymentMethod {
            guid: r.try_get("guid")?,
            brand: r.try_get("brand")?,
            last4: r.try_get("last4")?,
            created_at: r.try_get("created_at")?,
        })
    })
    .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(WalletDetails {
        iban,
        payment_methods,
    })
}

/// The row of the member's bank details, sealed.
pub async fn sealed_iban(db: &Db, member_id: i64) -> Result<Option<SealedIban>, sqlx::Error> {
    sqlx::query(
        "SELECT guid, iban_nonce, iban_sealed FROM member_bank_details WHERE member_id = $1",
    )
    .bind(member_id)
    .fetch_optional(&db.pool)
    .await?
    .map(|r| {
        Ok(SealedIban {
            guid: r.try_get("guid")?,
            nonce: r.try_get("iban_nonce")?,
            sealed: r.try_get("iban_sealed")?,
        })
    })
    .transpose()
}

/// The member's bank details as one new row (any earlier one goes: one account per member).
#[allow(clippy::too_many_arguments)]
pub async fn replace_bank_details(
    tx: &mut AnyConnection,
    member_id: i64,
    guid: &str,
    sealed: (Vec<u8>, Vec<u8>),
    country: &str,
    length: usize,
    last4: &str,
    bic: &str,
    owner_name: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    let created: Option<i64> =
        sqlx::query_scalar("SELECT created_at FROM member_bank_details WHERE member_id = $1")
            .bind(member_id)
            .fetch_optional(&mut *tx)
            .await?;
    sqlx::query("DELETE FROM member_bank_details WHERE member_id = $1")
        .bind(member_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO member_bank_details (guid, member_id, iban_nonce, iban_sealed, iban_country, iban_length,
                                          iban_last4, bic, owner_name, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(guid)
    .bind(member_id)
    .bind(sealed.0)
    .bind(sealed.1)
    .bind(country)
    .bind(length as i64)
    .bind(last4)
    .bind(bic)
    .bind(owner_name)
    .bind(created.unwrap_or(now))
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Deletes one of the member's rows of `table` by guid: `false` when the member has no
/// such row (someone else's guid included).
pub async fn delete_owned(
    db: &Db,
    table: OwnedTable,
    member_id: i64,
    guid: &str,
) -> Result<bool, sqlx::Error> {
    let sql = match table {
        OwnedTable::BankDetails => {
            "DELETE FROM member_bank_details WHERE guid = $1 AND member_id = $2"
        }
        OwnedTable::PaymentMethods => {
            "DELETE FROM member_payment_methods WHERE guid = $1 AND member_id = $2"
        }
    };
    let n = sqlx::query(sql)
        .bind(guid)
        .bind(member_id)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

#[derive(Clone, Copy, Debug)]
pub enum OwnedTable {
    BankDetails,
    PaymentMethods,
}

/// Keeps a card token (once per member, provider and token).
pub async fn insert_payment_method(
    db: &Db,
    member_id: i64,
    provider: &str,
    token: &str,
    brand: &str,
    last4: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO member_payment_methods (guid, member_id, provider, token, brand, last4, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (member_id, provider, token) DO NOTHING",
    )
    .bind(crate::platform::session::new_token())
    .bind(member_id)
    .bind(provider)
    .bind(token)
    .bind(brand)
    .bind(last4)
    .bind(now)
    .execute(&db.writes)
    .await?;
    Ok(())
}
