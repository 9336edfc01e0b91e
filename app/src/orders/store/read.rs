//! Reading the member's orders: a page of them, one with its lines, address, payment,
//! tracking number and timeline. Every query names the member: another member's order
//! is not found.
use sqlx::{AnyConnection, Row};

use crate::address::store as address_store;
use crate::model::cart::{Order, OrderItem};
use crate::orders::rules::TimelineStep;

/// How many orders the member has (all kinds, travel included).
pub async fn count(conn: &mut AnyConnection, member_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE member_id = $1")
        .bind(member_id)
        .fetch_one(&mut *conn)
        .await
}

/// The kind of cart one of the member's orders came from (`fs`, `mkp`, ...); `None` when
/// it is not theirs.
pub async fn cart_type(
    conn: &mut AnyConnection,
    member_id: i64,
    order_id: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT cart_type FROM orders WHERE id = $1 AND member_id = $2")
        .bind(order_id)
        .bind(member_id)
        .fetch_optional(&mut *conn)
        .await
}

/// The ids of one page of the member's orders, newest first.
pub async fn page_ids(
    conn: &mut AnyConnection,
    member_id: i64,
    limit: i64,
    offset: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM orders WHERE member_id = $1
          ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3",
    )
    .bind(member_id)
    .bind(limit)
    .bind(offset)
    .fetch_all(&mut *conn)
    .await
}

/// One of the member's orders with its lines and delivery address, and its tracking
/// number; `None` when it is not theirs.
pub async fn order(
    conn: &mut AnyConnection,
    member_id: i64,
    id: i64,
) -> Result<Option<(Order, Option<String>)>, sqlx::Error> {
    let Some(r) = sqlx::query(
        "SELECT id, status, cart_type, subtotal, discount, shipping, loyalty, total, currency, created_at,
                tracking_number
           FROM orders WHERE id = $1 AND member_id = $2",
    )
    .bind(id)
    .bind(member_id)
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let items = sqlx::query(
        "SELECT option_id, product_id, sale_id, name, option_label, quantity, unit_price FROM order_items
          WHERE order_id = $1 ORDER BY option_id",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|i| {
        Ok(OrderItem {
            product_id: i.try_get::<i64, _>("option_id")?.to_string(),
            item_id: i.try_get("product_id")?,
            sale_id: i.try_get("sale_id")?,
            name: i.try_get("name")?,
            option_label: i.try_get("option_label")?,
            quantity: i.try_get("quantity")?,
            unit_price: i.try_get("unit_price")?,
        })
    })
    .collect::<Result<Vec<_>, sqlx::Error>>()?;
    let delivery_address = address_store::order_address(conn, id).await?;
    let order = Order {
        id: r.try_get("id")?,
        status: r.try_get("status")?,
        cart_type: r.try_get("cart_type")?,
        subtotal: r.try_get("subtotal")?,
        discount: r.try_get("discount")?,
        shipping: r.try_get("shipping")?,
        loyalty: r.try_get("loyalty")?,
        total: r.try_get("total")?,
        currency: r.try_get("currency")?,
        created_at: r.try_get("created_at")?,
        items,
        delivery_address,
    };
    Ok(Some((order, r.try_get("tracking_number")?)))
}

/// An order's timeline events (sorted by the caller's rule).
pub async fn events(
    conn: &mut AnyConnection,
    order_id: i64,
) -> Result<Vec<TimelineStep>, sqlx::Error> {
    sqlx::query("SELECT id, status, created_at, reason FROM order_events WHERE order_id = $1")
        .bind(order_id)
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|r| {
            Ok(TimelineStep {
                id: r.try_get("id")?,
                status: r.try_get("status")?,
                at: r.try_get("created_at")?,
                reason: r.try_get("reason")?,
            })
        })
        .collect()
}

/// The approved payment of an order: the provider's reference, when it was taken (a
/// cart order's row in `payments`; a travel booking keeps only its reference on the
/// order), the method and the card's last four digits.
pub async fn payment(
    conn: &mut AnyConnection,
    order_id: i64,
) -> Result<Option<PaymentRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT o.payment_reference AS reference, o.payment_method, o.payment_card_last4,
                COALESCE((SELECT MIN(p.created_at) FROM payments p
                           WHERE p.cart_hash = o.idempotency_key AND p.status = 'approved'),
                         o.created_at) AS paid_at
           FROM orders o WHERE o.id = $1",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    row.map(|r| {
        Ok(PaymentRow {
            reference: r.try_get("reference")?,
            paid_at: r.try_get("paid_at")?,
            method: r.try_get("payment_method")?,
            last4: r.try_get("payment_card_last4")?,
        })
    })
    .transpose()
}

/// An order's payment as stored.
pub struct PaymentRow {
    pub reference: String,
    pub paid_at: i64,
    pub method: String,
    pub last4: Option<String>,
}

/// What refunds gave back on the order so far, in cents.
pub async fn refunded_amount(conn: &mut AnyConnection, order_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT refunded_amount FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(&mut *conn)
        .await
}

/// The travellers of a trip's booking (none for another kind of order). A booking's copy
/// that no longer reads (a closed account's is emptied) gives none.
pub async fn travellers(
    conn: &mut AnyConnection,
    order_id: i64,
) -> Result<Vec<crate::orders::model::OrderTraveller>, sqlx::Error> {
    let json: Option<String> =
        sqlx::query_scalar("SELECT participants_json FROM travel_bookings WHERE order_id = $1")
            .bind(order_id)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(json
        .and_then(|j| serde_json::from_str(&j).ok())
        .unwrap_or_default())
}

/// What an order's confirmation email says, and to whom.
pub struct ConfirmationRow {
    pub email: String,
    pub first_name: String,
    pub site_id: u16,
    pub cart_type: String,
    pub total: i64,
}

pub async fn confirmation(
    pool: &sqlx::AnyPool,
    order_id: i64,
) -> Result<Option<ConfirmationRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT m.email, m.first_name, m.site_id, o.cart_type, o.total
           FROM orders o JOIN members m ON m.id = o.member_id WHERE o.id = $1",
    )
    .bind(order_id)
    .fetch_optional(pool)
    .await?;
    row.map(|r| {
        Ok(ConfirmationRow {
            email: r.try_get("email")?,
            first_name: r.try_get("first_name")?,
            site_id: u16::try_from(r.try_get::<i64, _>("site_id")?).unwrap_or(1),
            cart_type: r.try_get("cart_type")?,
            total: r.try_get("total")?,
        })
    })
    .transpose()
}
