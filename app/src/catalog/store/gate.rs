//! A sale's intermediate step (spec 000 §3 sale state): its listing conditions and each
//! member's answers, set once (`sale_member_states`).
use sqlx::{Any, Row, Transaction};

use crate::model::catalog_api::SaleState;
use crate::platform::db::Db;

/// What the intermediate step of a sale needs to know of one member.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberGate {
    /// The sale's listing conditions; empty when the sale has no intermediate step.
    pub conditions: String,
    /// The seller kind of the sale (its cart type, `cart_type_for_seller`).
    pub seller_kind: String,
    pub state: SaleState,
    /// The type of the member's cart when it holds live lines.
    pub live_cart_type: Option<String>,
}

/// The gate of a live sale of the site for a member; none when the sale is not live there.
pub async fn member_gate(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    member_id: i64,
    now: i64,
) -> Result<Option<MemberGate>, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT s.products_listing_cgu, s.seller_kind, m.accepted_intermediate_at, m.canceled_cart_at,
                (SELECT c.cart_type FROM carts c WHERE c.member_id = $3
                    AND EXISTS (SELECT 1 FROM cart_items i WHERE i.member_id = $3 AND i.expires_at > $4)) AS live_cart_type
           FROM sales s LEFT JOIN sale_member_states m ON m.sale_id = s.id AND m.member_id = $3
          WHERE s.id = $1 AND s.site_id = $2 AND {}",
        crate::platform::sql::live_window("$4")
    ))
    .bind(sale_id)
    .bind(i64::from(site_id))
    .bind(member_id)
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    let Some(r) = row else {
        return Ok(None);
    };
    Ok(Some(MemberGate {
        conditions: r.try_get("products_listing_cgu")?,
        seller_kind: r.try_get("seller_kind")?,
        state: SaleState {
            has_accepted_intermediate: r
                .try_get::<Option<i64>, _>("accepted_intermediate_at")?
                .is_some(),
            has_canceled_cart: r.try_get::<Option<i64>, _>("canceled_cart_at")?.is_some(),
        },
        live_cart_type: r.try_get("live_cart_type")?,
    }))
}

/// Records that the member accepted the sale's conditions (and emptied their cart for it,
/// with `canceled_cart`). A time already recorded stays: each answer becomes true once.
pub async fn record_answers(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    sale_id: i64,
    canceled_cart: bool,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO sale_member_states (member_id, sale_id, accepted_intermediate_at, canceled_cart_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (member_id, sale_id) DO UPDATE SET
            accepted_intermediate_at = COALESCE(sale_member_states.accepted_intermediate_at, excluded.accepted_intermediate_at),
            canceled_cart_at = COALESCE(sale_member_states.canceled_cart_at, excluded.canceled_cart_at)",
    )
    .bind(member_id)
    .bind(sale_id)
    .bind(now)
    .bind(canceled_cart.then_some(now))
    .execute(&mut **tx)
    .await?;
    Ok(())
}
