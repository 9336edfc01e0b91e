//! What every cart operation shares: its result type, the member and line types, the write
//! transaction, the frozen-cart check, the cart row upsert and the terms check.

use sqlx::{Any, Row, Transaction};

use crate::cart::error::CartResult;
use crate::cart::member::Member;
use crate::cart::rules::CartError;
use crate::cart::store::{self};
use crate::platform::db::Db;

/// A cart frozen for payment cannot change (code 261) until paid or defrosted.
pub(crate) async fn refuse_frozen<'e, E>(exec: E, member_id: i64) -> CartResult<()>
where
    E: sqlx::Executor<'e, Database = Any>,
{
    if store::cart_row(exec, member_id)
        .await?
        .is_some_and(|r| r.status == "frozen")
    {
        return Err(CartError::Frozen.into());
    }
    Ok(())
}

/// A write transaction.
pub struct WriteTx {
    pub tx: Transaction<'static, Any>,
}

impl WriteTx {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.tx.commit().await
    }
}

/// Makes one member's cart writes run one after another on PostgreSQL, where transactions
/// run concurrently (READ COMMITTED): without it, parallel adds by one member all read the
/// same "held so far" and each passes the per-member limit. The member's cart row is
/// locked until the transaction ends (made first if need be, with no type: a refused write
/// rolls it back). Other members are not held up. SQLite needs nothing: its writes already
/// run one at a time (`BEGIN IMMEDIATE`, one writer). The add writer locks a whole batch's
/// members the same way, in member order (`crate::cart::writer`).
pub(crate) async fn lock_member_cart(
    tx: &mut Transaction<'static, Any>,
    m: Member,
    now: i64,
) -> Result<(), sqlx::Error> {
    if tx.backend_name() != "PostgreSQL" {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO carts (member_id, site_id, status, updated_at) VALUES ($1, $2, 'open', $3)
         ON CONFLICT (member_id) DO NOTHING",
    )
    .bind(m.id)
    .bind(m.site_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    sqlx::query("SELECT member_id FROM carts WHERE member_id = $1 FOR UPDATE")
        .bind(m.id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(())
}

/// Creates the member's cart row or bumps its version (and sets its type when given).
pub async fn upsert_cart(
    tx: &mut Transaction<'static, Any>,
    m: Member,
    cart_type: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO carts (member_id, site_id, cart_type, status, updated_at) VALUES ($1, $2, $3, 'open', $4)
         ON CONFLICT (member_id) DO UPDATE SET cart_type = COALESCE(excluded.cart_type, carts.cart_type),
                version = carts.version + 1, updated_at = excluded.updated_at",
    )
    .bind(m.id)
    .bind(m.site_id)
    .bind(cart_type.map(str::to_string))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Deletes all the member's lines and gives their units back: (option, quantity).
pub(super) async fn take_all_lines(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    let rows =
        sqlx::query("DELETE FROM cart_items WHERE member_id = $1 RETURNING option_id, quantity")
            .bind(member_id)
            .fetch_all(&mut **tx)
            .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let (o, q): (i64, i64) = (r.try_get("option_id")?, r.try_get("quantity")?);
        store::give_back(tx, o, q).await?;
        out.push((o, q));
    }
    Ok(out)
}

/// The member accepted the current terms of sale (else checkout redirects to onboarding).
pub async fn terms_accepted(db: &Db, member_id: i64) -> Result<bool, sqlx::Error> {
    use crate::onboarding::rules::{PopinType, MODAL_POPINS};
    let current = MODAL_POPINS
        .iter()
        .find(|(k, _)| *k == PopinType::TermsAndConditions)
        .map(|(_, v)| *v)
        .unwrap_or(0);
    let version: Option<i64> =
        sqlx::query_scalar("SELECT terms_version FROM members WHERE id = $1")
            .bind(member_id)
            .fetch_optional(&db.pool)
            .await?;
    Ok(version.unwrap_or(0) >= current)
}
