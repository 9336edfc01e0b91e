//! Finding orders: by number, member email, status, site and day of purchase.
use sqlx::Row;

use app::platform::db::Db;

/// The search's fields, as typed (each optional).
#[derive(serde::Deserialize, Default, Clone, Debug)]
#[serde(default)]
pub struct Filter {
    /// An order number (`#` allowed) or a member's email, whole or in part.
    pub q: String,
    pub status: String,
    pub site: String,
    /// `YYYY-MM-DD`, UTC, inclusive.
    pub from: String,
    pub until: String,
    pub page: i64,
}

pub struct OrderRow {
    pub id: i64,
    pub site_id: i64,
    pub email: String,
    pub status: String,
    pub total: i64,
    pub currency: String,
    pub created_at: i64,
}

/// Orders a page lists.
pub const PER_PAGE: i64 = 50;

/// A day typed as `YYYY-MM-DD`: its first second (UTC).
fn day_start(s: &str) -> Option<i64> {
    let d = app::travel::rules::Date::parse(s.trim())?;
    Some(app::travel::rules::Date::from_unix(0).days_until(d) * 86_400)
}

/// One page of the orders matching `f`, newest first, and whether more follow. Fields that
/// cannot be read (a date that is not one, an unknown status) are reported, not ignored.
pub async fn search(
    db: &Db,
    f: &Filter,
) -> Result<Result<(Vec<OrderRow>, bool), &'static str>, sqlx::Error> {
    let q = f.q.trim();
    let number = q.trim_start_matches('#').parse::<i64>().ok();
    let from = match f.from.trim() {
        "" => None,
        s => match day_start(s) {
            Some(d) => Some(d),
            None => return Ok(Err("orders.error.date")),
        },
    };
    let until = match f.until.trim() {
        "" => None,
        s => match day_start(s) {
            Some(d) => Some(d + 86_400),
            None => return Ok(Err("orders.error.date")),
        },
    };
    if !f.status.is_empty() && app::orders::rules::OrderStatus::parse(&f.status).is_none() {
        return Ok(Err("orders.error.status"));
    }
    let site: i64 = f.site.parse().unwrap_or(0);
    let page = f.page.max(1);
    // Every parameter is bound whatever the filter (`$n = $n` keeps the numbering fixed).
    let mut w = vec![
        "$1 = $1", "$2 = $2", "$3 = $3", "$4 = $4", "$5 = $5", "$6 = $6",
    ];
    if number.is_some() {
        w.push("o.id = $1");
    } else if !q.is_empty() {
        w.push("LOWER(m.email) LIKE $2");
    }
    if !f.status.is_empty() {
        w.push("o.status = $3");
    }
    if site > 0 {
        w.push("o.site_id = $4");
    }
    if from.is_some() {
        w.push("o.created_at >= $5");
    }
    if until.is_some() {
        w.push("o.created_at < $6");
    }
    let like = format!("%{}%", q.to_lowercase().replace(['\\', '%', '_'], ""));
    let rows = sqlx::query(&format!(
        "SELECT o.id, o.site_id, m.email, o.status, o.total, o.currency, o.created_at
           FROM orders o JOIN members m ON m.id = o.member_id
          WHERE {} ORDER BY o.created_at DESC, o.id DESC LIMIT $7 OFFSET $8",
        w.join(" AND ")
    ))
    .bind(number.unwrap_or(0))
    .bind(like)
    .bind(&f.status)
    .bind(site)
    .bind(from.unwrap_or(0))
    .bind(until.unwrap_or(0))
    .bind(PER_PAGE + 1)
    .bind((page - 1) * PER_PAGE)
    .fetch_all(&db.pool)
    .await?;
    let mut out = rows
        .iter()
        .map(|r| {
            Ok(OrderRow {
                id: r.try_get("id")?,
                site_id: r.try_get("site_id")?,
                email: r.try_get("email")?,
                status: r.try_get("status")?,
                total: r.try_get("total")?,
                currency: r.try_get("currency")?,
                created_at: r.try_get("created_at")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    let more = out.len() as i64 > PER_PAGE;
    out.truncate(PER_PAGE as usize);
    Ok(Ok((out, more)))
}

/// Whose an order is, its site, and its invoice number once made.
pub async fn owner(
    db: &Db,
    id: i64,
) -> Result<Option<(i64, String, i64, Option<String>)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT o.member_id, m.email, o.site_id, i.number FROM orders o JOIN members m ON m.id = o.member_id
           LEFT JOIN invoices i ON i.order_id = o.id WHERE o.id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok((
            r.try_get("member_id")?,
            r.try_get("email")?,
            r.try_get("site_id")?,
            r.try_get("number")?,
        ))
    })
    .transpose()
}
