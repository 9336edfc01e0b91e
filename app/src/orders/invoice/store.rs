//! The invoices' SQL.
use sqlx::{Any, AnyConnection, Row, Transaction};

/// What the invoice needs of an order.
pub struct OrderRow {
    pub id: i64,
    pub site_id: i64,
    pub status: String,
    pub discount: i64,
    pub shipping: i64,
    pub loyalty: i64,
    pub total: i64,
    pub created_at: i64,
}

/// The member's order, or none for anyone else's.
pub async fn order(
    conn: &mut AnyConnection,
    member_id: i64,
    order_id: i64,
) -> Result<Option<OrderRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT id, site_id, status, discount, shipping, loyalty, total, created_at
           FROM orders WHERE id = $1 AND member_id = $2",
    )
    .bind(order_id)
    .bind(member_id)
    .fetch_optional(&mut *conn)
    .await?;
    row.map(|r| {
        Ok(OrderRow {
            id: r.try_get("id")?,
            site_id: r.try_get("site_id")?,
            status: r.try_get("status")?,
            discount: r.try_get("discount")?,
            shipping: r.try_get("shipping")?,
            loyalty: r.try_get("loyalty")?,
            total: r.try_get("total")?,
            created_at: r.try_get("created_at")?,
        })
    })
    .transpose()
}

/// (name, option label, quantity, VAT-included unit price) of each line.
pub async fn items(
    conn: &mut AnyConnection,
    order_id: i64,
) -> Result<Vec<(String, String, i64, i64)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT name, option_label, quantity, unit_price FROM order_items WHERE order_id = $1 ORDER BY option_id",
    )
    .bind(order_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("name")?,
                r.try_get("option_label")?,
                r.try_get("quantity")?,
                r.try_get("unit_price")?,
            ))
        })
        .collect()
}

/// The address lines of the order: its delivery address copy, else (a travel booking) the
/// member's name.
pub async fn address(
    conn: &mut AnyConnection,
    member_id: i64,
    order_id: i64,
) -> Result<Vec<String>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT first_name, last_name, details, extras, zip_code, city, country FROM order_addresses WHERE order_id = $1",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(r) = row {
        let get = |c: &str| r.try_get::<String, _>(c);
        let lines = vec![
            format!("{} {}", get("first_name")?, get("last_name")?),
            get("details")?,
            get("extras")?,
            format!("{} {}", get("zip_code")?, get("city")?),
            get("country")?,
        ];
        return Ok(lines
            .into_iter()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect());
    }
    let name = sqlx::query("SELECT first_name, last_name FROM members WHERE id = $1")
        .bind(member_id)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(name
        .map(|r| -> Result<String, sqlx::Error> {
            Ok(format!(
                "{} {}",
                r.try_get::<String, _>("first_name")?,
                r.try_get::<String, _>("last_name")?
            ))
        })
        .transpose()?
        .into_iter()
        .collect())
}

/// The invoice of an order: (number, issued at), if it has one.
pub async fn existing(
    conn: &mut AnyConnection,
    order_id: i64,
) -> Result<Option<(String, i64)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT number, created_at FROM invoices WHERE order_id = $1 AND number IS NOT NULL",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    row.map(|r| Ok((r.try_get("number")?, r.try_get("created_at")?)))
        .transpose()
}

/// Gives the order its invoice number unless it has one, in the caller's transaction:
/// the order's row is claimed first (a concurrent claim of the same order waits for this
/// transaction, then finds the row taken), then the year's counter moves by one. So a
/// number is taken only by the transaction that writes it, never twice, without gaps.
pub async fn claim(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    year: i64,
    now: i64,
) -> Result<(), sqlx::Error> {
    let claimed = sqlx::query(
        "INSERT INTO invoices (order_id, number, created_at) VALUES ($1, NULL, $2)
         ON CONFLICT (order_id) DO NOTHING",
    )
    .bind(order_id)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if claimed == 0 {
        return Ok(());
    }
    let value: i64 = sqlx::query_scalar(
        "INSERT INTO invoice_sequences (year, last_value) VALUES ($1, 1)
         ON CONFLICT (year) DO UPDATE SET last_value = invoice_sequences.last_value + 1
         RETURNING last_value",
    )
    .bind(year)
    .fetch_one(&mut **tx)
    .await?;
    sqlx::query("UPDATE invoices SET number = $2 WHERE order_id = $1")
        .bind(order_id)
        .bind(super::vat::invoice_number(year, value))
        .execute(&mut **tx)
        .await?;
    Ok(())
}
