//! Campaigns' SQL: a campaign and its vouchers (one per site) written together, the list,
//! one campaign with its use per site, and the stop.
use sqlx::{Any, Row, Transaction};

use app::platform::db::Db;

use super::rules::Campaign;

/// A campaign as its pages show it.
#[derive(Clone, Debug)]
pub struct CampaignRow {
    pub id: i64,
    pub name: String,
    pub delivery: String,
    pub code: String,
    pub discount_type: String,
    pub scope: String,
    pub value: i64,
    pub per_member_limit: i64,
    pub total_limit: Option<i64>,
    pub used_count: i64,
    pub valid_from: i64,
    pub valid_until: i64,
    pub stopped_at: Option<i64>,
    pub created_by: String,
    pub sites: Vec<i64>,
}

/// One site's use of a campaign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteUse {
    pub site_id: i64,
    pub uses: i64,
    pub members: i64,
    /// Cents taken off orders.
    pub discount: i64,
}

/// A recent use: the order, its site and what the campaign took off.
#[derive(Clone, Debug)]
pub struct Redemption {
    pub order_id: i64,
    pub site_id: i64,
    pub amount: i64,
    pub created_at: i64,
}

pub enum Created {
    Id(i64),
    /// The code is already a voucher of one of the sites.
    CodeTaken,
}

/// Writes the campaign and one voucher per site. An automatic campaign without a code
/// gets `AUTO-<id>`, unique since ids are.
pub async fn create(
    tx: &mut Transaction<'static, Any>,
    c: &Campaign,
    operator_id: i64,
    now: i64,
) -> Result<Created, sqlx::Error> {
    if !c.code.is_empty() {
        for site in &c.sites {
            let taken: Option<i64> =
                sqlx::query_scalar("SELECT id FROM vouchers WHERE site_id = $1 AND code = $2")
                    .bind(site)
                    .bind(&c.code)
                    .fetch_optional(&mut **tx)
                    .await?;
            if taken.is_some() {
                return Ok(Created::CodeTaken);
            }
        }
    }
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO voucher_campaigns (name, delivery, code, discount_type, scope, value, per_member_limit,
                total_limit, valid_from, valid_until, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
    )
    .bind(&c.name)
    .bind(c.delivery)
    .bind(&c.code)
    .bind(c.discount_type)
    .bind(c.scope)
    .bind(c.value)
    .bind(c.per_member_limit)
    .bind(c.total_limit)
    .bind(c.valid_from)
    .bind(c.valid_until)
    .bind(operator_id)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    let code = if c.code.is_empty() {
        let code = format!("AUTO-{id}");
        sqlx::query("UPDATE voucher_campaigns SET code = $1 WHERE id = $2")
            .bind(&code)
            .bind(id)
            .execute(&mut **tx)
            .await?;
        code
    } else {
        c.code.clone()
    };
    for site in &c.sites {
        // The campaign row holds the total (across sites); the vouchers hold none.
        let inserted = sqlx::query(
            "INSERT INTO vouchers (site_id, code, kind, discount_type, scope, value, per_member_limit,
                    total_limit, used_count, personal, valid_from, valid_until, campaign_id, automatic)
             VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, 0, 0, $8, $9, $10, $11)
             ON CONFLICT (site_id, code) DO NOTHING",
        )
        .bind(site)
        .bind(&code)
        .bind(c.voucher_kind())
        .bind(c.discount_type)
        .bind(c.scope)
        .bind(c.value)
        .bind(c.per_member_limit)
        .bind(c.valid_from)
        .bind(c.valid_until)
        .bind(id)
        .bind(i64::from(c.delivery == "automatic"))
        .execute(&mut **tx)
        .await?
        .rows_affected();
        // A code typed at the same moment by another campaign: the caller rolls back.
        if inserted != 1 {
            return Ok(Created::CodeTaken);
        }
    }
    Ok(Created::Id(id))
}

const COLUMNS: &str =
    "c.id, c.name, c.delivery, c.code, c.discount_type, c.scope, c.value, c.per_member_limit,
       c.total_limit, c.used_count, c.valid_from, c.valid_until, c.stopped_at,
       COALESCE((SELECT o.name FROM operators o WHERE o.id = c.created_by), '') AS created_by";

fn row(r: &sqlx::any::AnyRow, sites: Vec<i64>) -> Result<CampaignRow, sqlx::Error> {
    Ok(CampaignRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        delivery: r.try_get("delivery")?,
        code: r.try_get("code")?,
        discount_type: r.try_get("discount_type")?,
        scope: r.try_get("scope")?,
        value: r.try_get("value")?,
        per_member_limit: r.try_get("per_member_limit")?,
        total_limit: r.try_get("total_limit")?,
        used_count: r.try_get("used_count")?,
        valid_from: r.try_get("valid_from")?,
        valid_until: r.try_get("valid_until")?,
        stopped_at: r.try_get("stopped_at")?,
        created_by: r.try_get("created_by")?,
        sites,
    })
}

async fn sites_of(db: &Db) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT campaign_id, site_id FROM vouchers WHERE campaign_id IS NOT NULL ORDER BY site_id",
    )
    .fetch_all(&db.pool)
    .await
}

/// Every campaign, newest first.
pub async fn list(db: &Db) -> Result<Vec<CampaignRow>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM voucher_campaigns c ORDER BY c.created_at DESC, c.id DESC"
    ))
    .fetch_all(&db.pool)
    .await?;
    let sites = sites_of(db).await?;
    rows.iter()
        .map(|r| {
            let id: i64 = r.try_get("id")?;
            let mine = sites
                .iter()
                .filter(|(c, _)| *c == id)
                .map(|(_, s)| *s)
                .collect();
            row(r, mine)
        })
        .collect()
}

pub async fn one(db: &Db, id: i64) -> Result<Option<CampaignRow>, sqlx::Error> {
    let Some(r) = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM voucher_campaigns c WHERE c.id = $1"
    ))
    .bind(id)
    .fetch_optional(&db.pool)
    .await?
    else {
        return Ok(None);
    };
    let sites: Vec<i64> =
        sqlx::query_scalar("SELECT site_id FROM vouchers WHERE campaign_id = $1 ORDER BY site_id")
            .bind(id)
            .fetch_all(&db.pool)
            .await?;
    row(&r, sites).map(Some)
}

/// Per site of the campaign: uses, members who used it, and the discount given.
pub async fn use_per_site(db: &Db, id: i64) -> Result<Vec<SiteUse>, sqlx::Error> {
    sqlx::query(
        "SELECT v.site_id, COUNT(r.order_id) AS uses, COUNT(DISTINCT r.member_id) AS members,
                CAST(COALESCE(SUM(r.amount), 0) AS BIGINT) AS discount
           FROM vouchers v LEFT JOIN voucher_redemptions r ON r.voucher_id = v.id
          WHERE v.campaign_id = $1 GROUP BY v.site_id ORDER BY v.site_id",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(SiteUse {
            site_id: r.try_get("site_id")?,
            uses: r.try_get("uses")?,
            members: r.try_get("members")?,
            discount: r.try_get("discount")?,
        })
    })
    .collect()
}

/// The latest uses, newest first.
pub async fn recent(db: &Db, id: i64, limit: i64) -> Result<Vec<Redemption>, sqlx::Error> {
    sqlx::query(
        "SELECT r.order_id, v.site_id, r.amount, o.created_at FROM voucher_redemptions r
           JOIN vouchers v ON v.id = r.voucher_id JOIN orders o ON o.id = r.order_id
          WHERE v.campaign_id = $1 ORDER BY o.created_at DESC, r.order_id DESC LIMIT $2",
    )
    .bind(id)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(Redemption {
            order_id: r.try_get("order_id")?,
            site_id: r.try_get("site_id")?,
            amount: r.try_get("amount")?,
            created_at: r.try_get("created_at")?,
        })
    })
    .collect()
}

/// Ends a running or scheduled campaign now: its vouchers stop applying (in baskets too:
/// the cart counts a voucher only within its dates). `false` when it was already stopped
/// or over, by someone else or by time.
pub async fn stop(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let n = sqlx::query(
        "UPDATE voucher_campaigns SET stopped_at = $2,
                valid_until = CASE WHEN valid_from < $2 THEN $2 ELSE valid_from + 1 END
          WHERE id = $1 AND stopped_at IS NULL AND valid_until > $2",
    )
    .bind(id)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if n != 1 {
        return Ok(false);
    }
    // A scheduled campaign ends before it starts: its vouchers' window closes at once.
    sqlx::query("UPDATE vouchers SET valid_until = $2 WHERE campaign_id = $1")
        .bind(id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(true)
}
