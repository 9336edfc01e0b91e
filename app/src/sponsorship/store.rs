//! Sponsorship SQL: personal codes, the sponsor a registration names, the sponsor's list,
//! and the reward a paid order may issue (in the order's own transaction).
use rand::RngCore;
use sqlx::{Any, Row, Transaction};

use crate::platform::db::Db;
use crate::sponsorship::model::{SponsorReward, SponsoredMember};
use crate::sponsorship::rules::{self, PaidOrder, Party, SponsorRef};

fn random_code() -> String {
    let mut bytes = [0u8; rules::CODE_LEN];
    rand::thread_rng().fill_bytes(&mut bytes);
    rules::code_from_bytes(&bytes)
}

/// The member's personal code, made on first use. Two first visits at once both end with
/// the one stored (the insert does nothing for the second); a clash with another member's
/// code draws again.
pub async fn ensure_code(db: &Db, member_id: i64, now: i64) -> Result<String, sqlx::Error> {
    for _ in 0..8 {
        let found: Option<String> =
            sqlx::query_scalar("SELECT code FROM sponsor_codes WHERE member_id = $1")
                .bind(member_id)
                .fetch_optional(&db.pool)
                .await?;
        if let Some(code) = found {
            return Ok(code);
        }
        sqlx::query(
            "INSERT INTO sponsor_codes (member_id, code, created_at) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
        )
        .bind(member_id)
        .bind(random_code())
        .bind(now)
        .execute(&db.writes)
        .await?;
    }
    Err(sqlx::Error::RowNotFound)
}

/// Records who sponsored a new member, in the registration's transaction. A code or id
/// that names nobody (or an inactive member, or the new member themselves) records
/// nothing and says nothing: the registration goes on as without one.
pub async fn record_sponsor(
    tx: &mut Transaction<'_, Any>,
    sponsored: Party<'_>,
    code: &str,
    godfather_id: &str,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let row = match rules::sponsor_ref(code, godfather_id) {
        SponsorRef::None => return Ok(None),
        SponsorRef::Code(code) => {
            sqlx::query(
                "SELECT m.id, m.site_id, m.email FROM sponsor_codes c JOIN members m ON m.id = c.member_id
                  WHERE c.code = $1 AND m.status = 1",
            )
            .bind(code)
            .fetch_optional(&mut **tx)
            .await?
        }
        SponsorRef::MemberId(id) => {
            sqlx::query("SELECT id, site_id, email FROM members WHERE id = $1 AND status = 1")
                .bind(id)
                .fetch_optional(&mut **tx)
                .await?
        }
    };
    let Some(row) = row else {
        return Ok(None);
    };
    let email: String = row.try_get("email")?;
    let sponsor = Party {
        member_id: row.try_get("id")?,
        site_id: row.try_get("site_id")?,
        email: &email,
    };
    if !rules::may_sponsor(&sponsor, &sponsored) {
        return Ok(None);
    }
    sqlx::query(
        "INSERT INTO sponsorships (sponsored_id, sponsor_id, created_at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
    )
    .bind(sponsored.member_id)
    .bind(sponsor.member_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(Some(sponsor.member_id))
}

/// The members a sponsor brought, newest first.
pub async fn sponsored(db: &Db, sponsor_id: i64) -> Result<Vec<SponsoredMember>, sqlx::Error> {
    sqlx::query(
        "SELECT m.first_name, s.created_at, s.rewarded_at FROM sponsorships s
           JOIN members m ON m.id = s.sponsored_id
          WHERE s.sponsor_id = $1 ORDER BY s.created_at DESC, s.sponsored_id DESC LIMIT 200",
    )
    .bind(sponsor_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(SponsoredMember {
            first_name: r.try_get("first_name")?,
            joined_at: r.try_get("created_at")?,
            rewarded_at: r.try_get("rewarded_at")?,
        })
    })
    .collect()
}

/// The reward vouchers a sponsor holds, newest first.
pub async fn rewards(db: &Db, sponsor_id: i64) -> Result<Vec<SponsorReward>, sqlx::Error> {
    sqlx::query(
        "SELECT v.code, v.value, v.valid_until, v.used_count FROM sponsorships s
           JOIN vouchers v ON v.id = s.reward_voucher_id
          WHERE s.sponsor_id = $1 ORDER BY s.rewarded_at DESC, v.id DESC",
    )
    .bind(sponsor_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(SponsorReward {
            code: r.try_get("code")?,
            value: r.try_get("value")?,
            valid_until: r.try_get("valid_until")?,
            used: r.try_get::<i64, _>("used_count")? > 0,
        })
    })
    .collect()
}

/// After a paid order, in its transaction: when it is the sponsored member's first order
/// and the sponsorship is not rewarded yet, the sponsor gets a personal voucher. The
/// conditional update is what makes it once: of two orders paid at the same time, one
/// claims the sponsorship, the other finds it claimed (PostgreSQL waits on the row, SQLite
/// on the write lock). Returns the voucher's id when one was issued.
pub async fn reward_paid_order(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let Some(row) = sqlx::query(
        "SELECT o.member_id, o.site_id, o.total, s.sponsor_id, s.rewarded_order_id
           FROM orders o JOIN sponsorships s ON s.sponsored_id = o.member_id
          WHERE o.id = $1",
    )
    .bind(order_id)
    .fetch_optional(&mut **tx)
    .await?
    else {
        return Ok(None);
    };
    let member_id: i64 = row.try_get("member_id")?;
    let earlier_orders: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE member_id = $1 AND id <> $2")
            .bind(member_id)
            .bind(order_id)
            .fetch_one(&mut **tx)
            .await?;
    let Some(reward) = rules::reward_for(PaidOrder {
        total: row.try_get("total")?,
        earlier_orders,
        rewarded: row
            .try_get::<Option<i64>, _>("rewarded_order_id")?
            .is_some(),
        now,
    }) else {
        return Ok(None);
    };
    let claimed = sqlx::query(
        "UPDATE sponsorships SET rewarded_order_id = $1, rewarded_at = $2
          WHERE sponsored_id = $3 AND rewarded_order_id IS NULL",
    )
    .bind(order_id)
    .bind(now)
    .bind(member_id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if claimed != 1 {
        return Ok(None);
    }
    let sponsor_id: i64 = row.try_get("sponsor_id")?;
    let site_id: i64 = row.try_get("site_id")?;
    let voucher_id: i64 = sqlx::query_scalar(
        "INSERT INTO vouchers (site_id, code, kind, discount_type, scope, value, per_member_limit, total_limit,
                               personal, valid_from, valid_until)
         VALUES ($1, $2, 'voucher', 'FIXED', 'PRODUCT', $3, 1, 1, 1, $4, $5) RETURNING id",
    )
    .bind(site_id)
    .bind(rules::reward_code(&random_code()))
    .bind(reward.value)
    .bind(now)
    .bind(reward.valid_until)
    .fetch_one(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO voucher_participations (member_id, voucher_id, created_at) VALUES ($1, $2, $3)",
    )
    .bind(sponsor_id)
    .bind(voucher_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE sponsorships SET reward_voucher_id = $1 WHERE sponsored_id = $2")
        .bind(voucher_id)
        .bind(member_id)
        .execute(&mut **tx)
        .await?;
    Ok(Some(voucher_id))
}
