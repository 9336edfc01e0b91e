//! The vouchers page's SQL: the member's participations, the site's live promotions and
//! which of them are in the basket.
use sqlx::Row;

use crate::model::cart::CartVoucher;
use crate::platform::db::Db;
use crate::promotions::model::{VoucherEntry, VouchersAndPromotions};
use crate::promotions::rules::{uses_left, Selection};

const COLUMNS: &str = "v.id, v.code, v.kind, v.discount_type, v.scope, v.value, v.valid_from, v.valid_until,
       v.per_member_limit, v.total_limit, v.used_count,
       (SELECT COUNT(*) FROM voucher_redemptions r WHERE r.voucher_id = v.id AND r.member_id = $1) AS mine,
       (SELECT COUNT(*) FROM cart_vouchers c WHERE c.voucher_id = v.id AND c.member_id = $1) AS in_cart";

fn entry(r: &sqlx::any::AnyRow, participation: Option<i64>) -> Result<VoucherEntry, sqlx::Error> {
    Ok(VoucherEntry {
        voucher_id: r.try_get("id")?,
        participation_id: participation,
        code: r.try_get("code")?,
        kind: r.try_get("kind")?,
        discount_type: r.try_get("discount_type")?,
        value: r.try_get("value")?,
        scope: r.try_get("scope")?,
        valid_from: r.try_get("valid_from")?,
        valid_until: r.try_get("valid_until")?,
        uses_left: uses_left(
            r.try_get("per_member_limit")?,
            r.try_get("mine")?,
            r.try_get("total_limit")?,
            r.try_get("used_count")?,
        ),
        selected: r.try_get::<i64, _>("in_cart")? > 0,
    })
}

/// The member's vouchers (not expired) and their site's promotions (live now).
pub async fn list(
    db: &Db,
    member_id: i64,
    site_id: i64,
    now: i64,
) -> Result<VouchersAndPromotions, sqlx::Error> {
    let vouchers = sqlx::query(&format!(
        "SELECT {COLUMNS}, p.id AS participation_id FROM voucher_participations p
           JOIN vouchers v ON v.id = p.voucher_id
          WHERE p.member_id = $1 AND (v.valid_until IS NULL OR v.valid_until > $2)
          ORDER BY v.valid_until IS NULL, v.valid_until, v.code"
    ))
    .bind(member_id)
    .bind(now)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| entry(r, Some(r.try_get("participation_id")?)))
    .collect::<Result<Vec<_>, _>>()?;
    let promotions = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM vouchers v
          WHERE v.site_id = $3 AND v.kind = 'promotion' AND v.personal = 0 AND v.automatic = 0
            AND (v.valid_from IS NULL OR v.valid_from <= $2) AND (v.valid_until IS NULL OR v.valid_until > $2)
          ORDER BY v.valid_until IS NULL, v.valid_until, v.code"
    ))
    .bind(member_id)
    .bind(now)
    .bind(site_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| entry(r, None))
    .collect::<Result<Vec<_>, _>>()?;
    let selection = vouchers
        .iter()
        .chain(promotions.iter())
        .filter(|v| v.selected)
        .map(|v| Selection {
            voucher_id: v.voucher_id,
            participation_id: v.participation_id,
        })
        .collect();
    Ok(VouchersAndPromotions {
        vouchers,
        promotions,
        selection,
    })
}

/// The voucher a participation of this member is in (`None`: not theirs).
pub async fn participation_voucher(
    db: &Db,
    member_id: i64,
    participation_id: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT voucher_id FROM voucher_participations WHERE id = $1 AND member_id = $2",
    )
    .bind(participation_id)
    .bind(member_id)
    .fetch_optional(&db.pool)
    .await
}

/// Whether a voucher is a promotion of this site open to everyone.
pub async fn is_site_promotion(
    db: &Db,
    voucher_id: i64,
    site_id: i64,
) -> Result<bool, sqlx::Error> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM vouchers WHERE id = $1 AND site_id = $2 AND kind = 'promotion' AND personal = 0",
    )
    .bind(voucher_id)
    .bind(site_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(found.is_some())
}

/// The member's own site (promotions are per site).
pub async fn member_site(db: &Db, member_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT site_id FROM members WHERE id = $1")
        .bind(member_id)
        .fetch_one(&db.pool)
        .await
}

/// The vouchers page as a print link shows it: the member's vouchers, then the promotions.
pub async fn printable(db: &Db, member_id: i64, now: i64) -> Result<Vec<CartVoucher>, sqlx::Error> {
    let all = list(db, member_id, member_site(db, member_id).await?, now).await?;
    Ok(all
        .vouchers
        .into_iter()
        .chain(all.promotions)
        .filter(|v| v.uses_left > 0)
        .map(|v| CartVoucher {
            voucher_id: v.voucher_id,
            code: v.code,
            kind: v.kind,
            discount_type: v.discount_type,
            scope: v.scope,
            value: v.value,
            amount: 0,
            automatic: false,
        })
        .collect())
}
