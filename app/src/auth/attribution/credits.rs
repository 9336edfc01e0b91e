//! The partners' credits (`partner_credits`, see [`super::partner`]): sign-ins and paid
//! orders a partner brought, and the partners report beside the registrations it counts.
use sqlx::Row;

use crate::platform::db::Db;

/// Credits `partner` with the sign-in of the account of `email` (normalized) on the site.
pub async fn sign_in(
    db: &Db,
    site_id: i64,
    email: &str,
    partner: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO partner_credits (site_id, partner, kind, member_id, created_at)
         SELECT site_id, $3, 'sign_in', id, $4 FROM members WHERE site_id = $1 AND email = $2",
    )
    .bind(site_id)
    .bind(email)
    .bind(partner)
    .bind(now)
    .execute(&db.writes)
    .await?;
    Ok(())
}

/// Credits `partner` with order `order_id` (its total); an order is credited once, to the
/// first partner that asks.
pub async fn order(db: &Db, order_id: i64, partner: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO partner_credits (site_id, partner, kind, order_id, amount, created_at)
         SELECT site_id, $2, 'order', id, total, $3 FROM orders WHERE id = $1
         ON CONFLICT (order_id) DO NOTHING",
    )
    .bind(order_id)
    .bind(partner)
    .bind(now)
    .execute(&db.writes)
    .await?;
    Ok(())
}

/// What one partner brought in a period.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartnerLine {
    pub partner: String,
    pub registrations: i64,
    pub sign_ins: i64,
    /// Credited orders still paid (a cancelled one no longer counts).
    pub orders: i64,
    /// Their totals, in the orders' minor units.
    pub revenue: i64,
}

/// Every partner's registrations (from `member_attribution`), sign-ins and paid orders
/// from `from` (included) to `to` (excluded) on `site` (0: every site), the most orders
/// first.
pub async fn report(
    db: &Db,
    site: i64,
    from: i64,
    to: i64,
) -> Result<Vec<PartnerLine>, sqlx::Error> {
    let unpaid = crate::orders::invoice::NOT_INVOICEABLE
        .iter()
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let rows = sqlx::query(&format!(
        "SELECT partner,
                CAST(SUM(reg) AS BIGINT) AS registrations,
                CAST(SUM(sign_ins) AS BIGINT) AS sign_ins,
                CAST(SUM(paid) AS BIGINT) AS orders,
                CAST(SUM(revenue) AS BIGINT) AS revenue
           FROM (SELECT a.partner_id AS partner, 1 AS reg, 0 AS sign_ins, 0 AS paid,
                        CAST(0 AS BIGINT) AS revenue
                   FROM member_attribution a JOIN members m ON m.id = a.member_id
                  WHERE a.partner_id <> '' AND m.created_at >= $1 AND m.created_at < $2
                    AND ($3 = 0 OR m.site_id = $3)
                 UNION ALL
                 SELECT c.partner, 0,
                        CASE WHEN c.kind = 'sign_in' THEN 1 ELSE 0 END,
                        CASE WHEN o.id IS NOT NULL THEN 1 ELSE 0 END,
                        CASE WHEN o.id IS NOT NULL THEN c.amount ELSE 0 END
                   FROM partner_credits c
                   LEFT JOIN orders o ON o.id = c.order_id AND o.status NOT IN ({unpaid})
                  WHERE c.created_at >= $1 AND c.created_at < $2
                    AND ($3 = 0 OR c.site_id = $3)) t
          GROUP BY partner
          ORDER BY orders DESC, registrations DESC, partner
          LIMIT {}",
        super::store::MAX_LINES
    ))
    .bind(from)
    .bind(to)
    .bind(site)
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter()
        .map(|r| {
            Ok(PartnerLine {
                partner: r.try_get("partner")?,
                registrations: r.try_get("registrations")?,
                sign_ins: r.try_get("sign_ins")?,
                orders: r.try_get("orders")?,
                revenue: r.try_get("revenue")?,
            })
        })
        .collect()
}
