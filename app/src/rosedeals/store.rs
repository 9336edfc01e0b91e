//! The rose deals' SQL. Vouchers hang off orders (`order_id` is the spec's `basketId`);
//! every read of an order goes through the member's id, so another member's basket is
//! not found.
use rand::RngCore;
use sqlx::{Any, Row, Transaction};

use crate::platform::db::Db;
use crate::rosedeals::model::*;
use crate::rosedeals::rules::{self, voucher_status};

/// The printable page of an order's vouchers.
pub fn print_url(order_id: i64) -> String {
    format!("/rosedeals/print/{order_id}")
}

fn new_code() -> String {
    let mut bytes = [0u8; 12];
    rand::thread_rng().fill_bytes(&mut bytes);
    rules::voucher_code(&bytes)
}

/// Issues one voucher per unit of the rose-deal lines of `order_id`, in the checkout's
/// transaction (the cart calls this as it writes the order). Idempotent: a unit that has
/// its voucher keeps it. Returns how many were issued.
pub async fn issue_vouchers(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    now: i64,
) -> Result<u64, sqlx::Error> {
    let lines = sqlx::query(
        "SELECT oi.product_id, oi.quantity, oi.unit_price, d.partner, d.face_value, d.validity_days
           FROM order_items oi JOIN rosedeal_deals d ON d.product_id = oi.product_id
          WHERE oi.order_id = $1 ORDER BY oi.option_id",
    )
    .bind(order_id)
    .fetch_all(&mut **tx)
    .await?;
    let mut issued = 0;
    for l in lines {
        let product_id: i64 = l.try_get("product_id")?;
        let quantity: i64 = l.try_get("quantity")?;
        let price: i64 = l.try_get("unit_price")?;
        let partner: String = l.try_get("partner")?;
        let face_value: i64 = l.try_get("face_value")?;
        let days: i64 = l.try_get("validity_days")?;
        for unit in 0..quantity {
            issued += insert_voucher(
                tx,
                order_id,
                product_id,
                unit,
                0,
                &partner,
                face_value,
                price,
                now + days * 86_400,
                now,
            )
            .await?;
        }
    }
    Ok(issued)
}

#[allow(clippy::too_many_arguments)]
async fn insert_voucher(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    product_id: i64,
    unit: i64,
    generation: i64,
    partner: &str,
    face_value: i64,
    price: i64,
    expires_at: i64,
    now: i64,
) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(
        "INSERT INTO rosedeal_vouchers (order_id, product_id, unit, generation, code, partner, face_value, price,
                                        expires_at, status, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'active', $10)
         ON CONFLICT (order_id, product_id, unit, generation) DO NOTHING",
    )
    .bind(order_id)
    .bind(product_id)
    .bind(unit)
    .bind(generation)
    .bind(new_code())
    .bind(partner)
    .bind(face_value)
    .bind(price)
    .bind(expires_at)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected())
}

/// The live rose-deal sales of a site with their deals (the member's favourites flagged).
pub async fn deal_sales(
    db: &Db,
    site_id: i64,
    member_id: Option<i64>,
    now: i64,
) -> Result<Vec<DealSale>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT s.id AS sale_id, s.name AS sale_name, s.ends_at, p.id AS item_id, p.name, p.price_cents,
                d.partner, d.face_value, d.validity_days,
                o.id AS option_id, o.stock - o.held - o.sold AS left_units,
                (SELECT COUNT(*) FROM favourites f WHERE f.member_id = $3 AND f.product_id = p.id) AS fav
           FROM sales s JOIN products p ON p.sale_id = s.id
           JOIN rosedeal_deals d ON d.product_id = p.id
           JOIN product_options o ON o.product_id = p.id
          WHERE s.site_id = $1 AND s.campaign_kind = 'ROSEDEAL' AND s.starts_at <= $2 AND s.ends_at > $2
            AND p.moderation IN ('', 'restricted')
          ORDER BY s.position, s.id, p.position, p.id, o.position, o.id",
    )
    .bind(site_id)
    .bind(now)
    .bind(member_id.unwrap_or(0))
    .fetch_all(&db.pool)
    .await?;
    let mut out: Vec<DealSale> = Vec::new();
    for r in rows {
        let sale_id: i64 = r.try_get("sale_id")?;
        let deal = Deal {
            sale_id,
            item_id: r.try_get("item_id")?,
            option_id: r.try_get("option_id")?,
            partner: r.try_get("partner")?,
            name: r.try_get("name")?,
            face_value: r.try_get("face_value")?,
            price: r.try_get("price_cents")?,
            validity_days: r.try_get("validity_days")?,
            stock: r.try_get::<i64, _>("left_units")?.max(0),
            is_favorite: r.try_get::<i64, _>("fav")? > 0,
        };
        match out.last_mut() {
            Some(s) if s.sale_id == sale_id => {
                if !s.deals.iter().any(|d| d.item_id == deal.item_id) {
                    s.deals.push(deal)
                }
            }
            _ => out.push(DealSale {
                sale_id,
                name: r.try_get("sale_name")?,
                ends_at: r.try_get("ends_at")?,
                deals: vec![deal],
            }),
        }
    }
    Ok(out)
}

/// The SQL test of a current order `o` at `$2` (see `rules::is_current`).
const CURRENT: &str = "o.status NOT IN ('refund_in_progress', 'refunded')
    AND EXISTS (SELECT 1 FROM rosedeal_vouchers v WHERE v.order_id = o.id AND v.status = 'active' AND v.expires_at > $2)";

/// One page of the member's current or archived rose-deal orders, newest first.
pub async fn orders_page(
    db: &Db,
    member_id: i64,
    archived: bool,
    page: i64,
    now: i64,
) -> Result<DealOrderPage, sqlx::Error> {
    let filter = if archived {
        format!("NOT ({CURRENT})")
    } else {
        CURRENT.to_string()
    };
    let base = format!(
        "FROM orders o WHERE o.member_id = $1
            AND EXISTS (SELECT 1 FROM rosedeal_vouchers w WHERE w.order_id = o.id) AND {filter}"
    );
    let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) {base}"))
        .bind(member_id)
        .bind(now)
        .fetch_one(&db.pool)
        .await?;
    let ids: Vec<i64> = sqlx::query_scalar(&format!(
        "SELECT o.id {base} ORDER BY o.created_at DESC, o.id DESC LIMIT $3 OFFSET $4"
    ))
    .bind(member_id)
    .bind(now)
    .bind(PAGE_SIZE)
    .bind((page - 1) * PAGE_SIZE)
    .fetch_all(&db.pool)
    .await?;
    let mut orders = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(o) = order(&mut *db.pool.acquire().await?, member_id, id, now).await? {
            orders.push(o);
        }
    }
    Ok(DealOrderPage {
        page,
        page_size: PAGE_SIZE,
        total,
        orders,
    })
}

/// One of the member's rose-deal orders with its vouchers (a voucher a retry replaced is
/// left out; those a refund voided show as void).
pub async fn order(
    conn: &mut sqlx::AnyConnection,
    member_id: i64,
    order_id: i64,
    now: i64,
) -> Result<Option<DealOrder>, sqlx::Error> {
    let Some(o) = sqlx::query(
        "SELECT o.id, o.status, o.created_at, o.total, o.currency, r.amount AS refund_amount
           FROM orders o LEFT JOIN rosedeal_refunds r ON r.order_id = o.id
          WHERE o.id = $1 AND o.member_id = $2",
    )
    .bind(order_id)
    .bind(member_id)
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let vouchers = sqlx::query(
        "SELECT code, partner, face_value, price, expires_at, status FROM rosedeal_vouchers v
          WHERE order_id = $1 AND NOT EXISTS (SELECT 1 FROM rosedeal_vouchers n WHERE n.order_id = v.order_id
                AND n.product_id = v.product_id AND n.unit = v.unit AND n.generation > v.generation)
          ORDER BY product_id, unit, generation",
    )
    .bind(order_id)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|v| {
        let stored: String = v.try_get("status")?;
        let expires_at: i64 = v.try_get("expires_at")?;
        Ok(DealVoucher {
            code: v.try_get("code")?,
            partner: v.try_get("partner")?,
            value: v.try_get("face_value")?,
            price: v.try_get("price")?,
            expires_at,
            status: voucher_status(&stored, expires_at, now).into(),
            print: print_url(order_id),
        })
    })
    .collect::<Result<Vec<_>, sqlx::Error>>()?;
    if vouchers.is_empty() {
        // Not a rose-deal order.
        return Ok(None);
    }
    Ok(Some(DealOrder {
        basket_id: o.try_get("id")?,
        status: o.try_get("status")?,
        created_at: o.try_get("created_at")?,
        total: o.try_get("total")?,
        currency: o.try_get("currency")?,
        refund_amount: o.try_get("refund_amount")?,
        vouchers,
    }))
}

/// The vouchers of all the member's rose-deal orders, current and archived (a voucher a
/// retry replaced is left out), newest order first, at most `limit`.
pub async fn member_vouchers(
    db: &Db,
    member_id: i64,
    now: i64,
    limit: i64,
) -> Result<Vec<MemberVoucher>, sqlx::Error> {
    sqlx::query(
        "SELECT v.order_id, v.code, v.partner, v.status, v.expires_at
           FROM rosedeal_vouchers v JOIN orders o ON o.id = v.order_id
          WHERE o.member_id = $1 AND NOT EXISTS (SELECT 1 FROM rosedeal_vouchers n WHERE n.order_id = v.order_id
                AND n.product_id = v.product_id AND n.unit = v.unit AND n.generation > v.generation)
          ORDER BY o.created_at DESC, o.id DESC, v.product_id, v.unit
          LIMIT $2",
    )
    .bind(member_id)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|v| {
        let stored: String = v.try_get("status")?;
        Ok(MemberVoucher {
            basket_id: v.try_get("order_id")?,
            code: v.try_get("code")?,
            partner: v.try_get("partner")?,
            status: voucher_status(&stored, v.try_get("expires_at")?, now).into(),
        })
    })
    .collect()
}

/// The rose-deal lines of the member's cart, and whether a suspended order waits.
pub async fn basket(db: &Db, member_id: i64, now: i64) -> Result<DealBasket, sqlx::Error> {
    let items = sqlx::query(
        "SELECT c.option_id, p.name, p.price_cents, d.partner, d.face_value, c.quantity
           FROM cart_items c JOIN products p ON p.id = c.product_id
           JOIN rosedeal_deals d ON d.product_id = p.id
          WHERE c.member_id = $1 AND c.expires_at > $2 ORDER BY c.option_id",
    )
    .bind(member_id)
    .bind(now)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(BasketLine {
            product_id: r.try_get::<i64, _>("option_id")?.to_string(),
            name: r.try_get("name")?,
            partner: r.try_get("partner")?,
            face_value: r.try_get("face_value")?,
            price: r.try_get("price_cents")?,
            quantity: r.try_get("quantity")?,
        })
    })
    .collect::<Result<Vec<_>, sqlx::Error>>()?;
    let suspended: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM cart_recovery WHERE member_id = $1 AND kind = 'suspended'",
    )
    .bind(member_id)
    .fetch_one(&db.pool)
    .await?;
    Ok(DealBasket {
        total: items.iter().map(|i| i.price * i.quantity).sum(),
        items,
        has_suspended_order: suspended > 0,
    })
}

/// The order's vouchers as (id, code, status at `now`, price, product, unit, generation,
/// partner, face value, expiry), in the caller's transaction.
pub struct VoucherRow {
    pub id: i64,
    pub code: String,
    pub status: &'static str,
    pub price: i64,
    pub product_id: i64,
    pub unit: i64,
    pub generation: i64,
    pub partner: String,
    pub face_value: i64,
    pub expires_at: i64,
}

pub async fn voucher_rows(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    now: i64,
) -> Result<Vec<VoucherRow>, sqlx::Error> {
    sqlx::query(
        "SELECT id, code, status, price, product_id, unit, generation, partner, face_value, expires_at
           FROM rosedeal_vouchers WHERE order_id = $1 AND status <> 'void' ORDER BY id",
    )
    .bind(order_id)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(|r| {
        let stored: String = r.try_get("status")?;
        let expires_at: i64 = r.try_get("expires_at")?;
        Ok(VoucherRow {
            id: r.try_get("id")?,
            code: r.try_get("code")?,
            status: voucher_status(&stored, expires_at, now),
            price: r.try_get("price")?,
            product_id: r.try_get("product_id")?,
            unit: r.try_get("unit")?,
            generation: r.try_get("generation")?,
            partner: r.try_get("partner")?,
            face_value: r.try_get("face_value")?,
            expires_at,
        })
    })
    .collect()
}

pub async fn void_voucher(tx: &mut Transaction<'static, Any>, id: i64) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE rosedeal_vouchers SET status = 'void' WHERE id = $1 AND status = 'active'",
    )
    .bind(id)
    .execute(&mut **tx)
    .await?
    .rows_affected())
}

/// The same unit's next voucher, with a new code (a retry).
pub async fn reissue(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    old: &VoucherRow,
    now: i64,
) -> Result<u64, sqlx::Error> {
    insert_voucher(
        tx,
        order_id,
        old.product_id,
        old.unit,
        old.generation + 1,
        &old.partner,
        old.face_value,
        old.price,
        old.expires_at,
        now,
    )
    .await
}

/// Whether the order is the member's (read in the caller's transaction), with its status.
pub async fn owned_status(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    order_id: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT status FROM orders WHERE id = $1 AND member_id = $2")
        .bind(order_id)
        .bind(member_id)
        .fetch_optional(&mut **tx)
        .await
}
