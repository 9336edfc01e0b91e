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
    let page = f.page.clamp(1, 100_000);
    // Every parameter is bound whatever the filter (`$n = $n` keeps the numbering fixed).
    let mut w = vec![
        "$1 = $1", "$2 = $2", "$3 = $3", "$4 = $4", "$5 = $5", "$6 = $6",
    ];
    if number.is_some() {
        w.push("o.id = $1");
    } else if !q.is_empty() {
        w.push("LOWER(m.email) LIKE $2 ESCAPE '\\'");
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
    // `%` and `_` typed are themselves, not wildcards (an email may hold `_`).
    let like = format!(
        "%{}%",
        q.to_lowercase()
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    );
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

/// The statuses of an order with a return or a refund under way: the returns queue.
pub const RETURN_STATUSES: [&str; 4] = [
    "return_requested",
    "return_requested_accepted",
    "return_received",
    "refund_in_progress",
];

/// An order in the returns queue.
pub struct ReturnRow {
    pub id: i64,
    pub site_id: i64,
    pub email: String,
    pub status: String,
    /// When the order reached its status (its last move).
    pub since: i64,
    pub total: i64,
    pub refunded: i64,
    /// A rose-deal refund request rather than a return of goods.
    pub deal_refund: bool,
}

/// Orders in `status` (one of [`RETURN_STATUSES`]), the longest waiting first.
pub async fn returns_queue(
    db: &Db,
    status: &str,
    limit: i64,
) -> Result<Vec<ReturnRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT o.id, o.site_id, m.email, o.status, o.updated_at, o.total, o.refunded_amount,
                (SELECT COUNT(*) FROM rosedeal_refunds d WHERE d.order_id = o.id) AS deal_refund
           FROM orders o JOIN members m ON m.id = o.member_id
          WHERE o.status = $1 ORDER BY o.updated_at, o.id LIMIT $2",
    )
    .bind(status)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(ReturnRow {
                id: r.try_get("id")?,
                site_id: r.try_get("site_id")?,
                email: r.try_get("email")?,
                status: r.try_get("status")?,
                since: r.try_get("updated_at")?,
                total: r.try_get("total")?,
                refunded: r.try_get("refunded_amount")?,
                deal_refund: r.try_get::<i64, _>("deal_refund")? > 0,
            })
        })
        .collect()
}

/// How many orders wait in each status of the returns queue.
pub async fn returns_counts(db: &Db) -> Result<Vec<(String, i64)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT status, COUNT(*) AS n FROM orders
          WHERE status IN ('return_requested', 'return_requested_accepted', 'return_received', 'refund_in_progress')
          GROUP BY status",
    )
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("status")?, r.try_get("n")?)))
        .collect()
}
