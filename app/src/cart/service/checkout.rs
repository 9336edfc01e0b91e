//! Payment of a frozen cart, orders and reopening. A paid order is written in the same
//! transaction as its stock move (held → sold), its voucher spends and the payment
//! record; the cart hash is the idempotency key (unique), so paying twice, or again after
//! a crash, gives one order.
// Over 400 lines: payment, order writing and reopening share one transaction shape; kept together.
use sqlx::Row;

use super::{lock_member_cart, upsert_cart, CartFailure, CartResult, CartService, Member};
use crate::address::service::delivery_for;
use crate::address::store as address_store;
use crate::cart::payment::PaymentOutcome;
use crate::cart::rules::CartError;
use crate::cart::store;
use crate::model::cart::Order;

impl CartService {
    /// Pays the frozen cart whose hash is `cart_hash` with the provider, for delivery to
    /// `address_id` (one of the member's addresses; none given: their favourite, else their
    /// first). Without a delivery address nothing is charged.
    pub async fn pay(
        &self,
        m: Member,
        cart_hash: &str,
        card: Option<&str>,
        address_id: Option<i64>,
        now: i64,
    ) -> CartResult<Order> {
        if cart_hash.is_empty() || cart_hash.len() > 128 {
            return Err(CartError::BadRequest.into());
        }
        if let Some(order) = self.order_by_key(m, cart_hash).await? {
            return Ok(order);
        }
        if self.release_member(m.id, now).await? > 0 {
            return Err(CartError::Expired.into());
        }
        let row = store::cart_row(&self.db.pool, m.id).await?;
        if row
            .as_ref()
            .is_some_and(|r| r.expired_notice && r.status == "open")
        {
            // The sweeper released the basket (and defrosted it) before this call.
            return Err(CartError::Expired.into());
        }
        if !row
            .as_ref()
            .is_some_and(|r| r.status == "frozen" && r.cart_hash.as_deref() == Some(cart_hash))
        {
            return Err(CartError::InvalidCart.into());
        }
        let cart = store::view(&self.db, m.id, now).await?;
        if cart.items.is_empty() {
            return Err(CartError::InvalidCart.into());
        }
        // Goods go to an address; vouchers (rose deals) are delivered in the shop.
        if crate::cart::rules::needs_delivery(&cart.items) {
            let mut conn = self.db.pool.acquire().await?;
            if delivery_for(&mut conn, m.id, address_id).await?.is_none() {
                return Err(CartError::AddressRequired.into());
            }
        }
        let amount = cart.totals.total;
        let method = crate::cart::rules::checkout_method(amount, card);
        // Vouchers cover it all: nothing to charge, the provider is not asked.
        let authorized = if method == crate::cart::rules::PaymentMethod::Voucher {
            PaymentOutcome::Approved {
                reference: format!("vch_{}", &cart_hash[..cart_hash.len().min(24)]),
            }
        } else {
            self.provider.authorize(cart_hash, amount, card).await
        };
        let reference = match authorized {
            PaymentOutcome::Approved { reference } => reference,
            PaymentOutcome::InvalidCard => return Err(CartError::InvalidCard.into()),
            PaymentOutcome::Declined => {
                // Nothing charged: the attempt is recorded, the cart is open again and
                // keeps its holds until they expire.
                sqlx::query(
                    "INSERT INTO payments (member_id, cart_hash, amount, status, reference, created_at) VALUES ($1, $2, $3, 'declined', '', $4)",
                )
                .bind(m.id)
                .bind(cart_hash)
                .bind(amount)
                .bind(now)
                .execute(&self.db.writes)
                .await?;
                sqlx::query(
                    "UPDATE carts SET status = 'open', cart_hash = NULL, version = version + 1 WHERE member_id = $1 AND cart_hash = $2",
                )
                .bind(m.id)
                .bind(cart_hash)
                .execute(&self.db.writes)
                .await?;
                return Err(CartError::PaymentDeclined.into());
            }
        };
        match self
            .commit_order(m, cart_hash, &cart, (&reference, &method), address_id, now)
            .await
        {
            Ok(id) => Ok(self
                .order(m, id)
                .await?
                .ok_or(CartFailure::Cart(CartError::Unexpected))?),
            Err(e) => {
                if method != crate::cart::rules::PaymentMethod::Voucher {
                    self.provider.void(&reference).await;
                }
                if let CartFailure::Cart(CartError::VoucherExhausted) = e {
                    // The voucher ran out or expired meanwhile: it leaves the cart, which
                    // opens again.
                    sqlx::query(
                        "DELETE FROM cart_vouchers WHERE member_id = $1 AND voucher_id IN
                           (SELECT id FROM vouchers v WHERE (total_limit IS NOT NULL AND used_count >= total_limit)
                                OR (valid_until IS NOT NULL AND valid_until <= $2)
                                OR EXISTS (SELECT 1 FROM voucher_campaigns k WHERE k.id = v.campaign_id
                                            AND k.total_limit IS NOT NULL AND k.used_count >= k.total_limit))",
                    )
                    .bind(m.id)
                    .bind(now)
                    .execute(&self.db.writes)
                    .await?;
                    self.defrost(m, now).await?;
                }
                Err(e)
            }
        }
    }

    async fn commit_order(
        &self,
        m: Member,
        cart_hash: &str,
        cart: &crate::model::cart::Cart,
        (reference, method): (&str, &crate::cart::rules::PaymentMethod),
        address_id: Option<i64>,
        now: i64,
    ) -> CartResult<i64> {
        let t = &cart.totals;
        // Contended: it moves the units of options every buyer of a sale opening pays for.
        let mut w = self.begin_contended().await?;
        // Read again in the order's transaction: an address deleted since the check above
        // does not deliver this order.
        let delivery = if crate::cart::rules::needs_delivery(&cart.items) {
            Some(
                delivery_for(&mut w.tx, m.id, address_id)
                    .await?
                    .ok_or(CartError::AddressRequired)?,
            )
        } else {
            None
        };
        // An order of vouchers only is its own kind: no parcel to prepare, ship or return.
        let order_type = if crate::cart::rules::needs_delivery(&cart.items) {
            cart.cart_type.clone().unwrap_or_else(|| "fs".into())
        } else {
            crate::rosedeals::rules::CART_TYPE.to_string()
        };
        // The payment method goes in with the order, whose id comes back with it: at a
        // sale opening every statement of this transaction is a round trip more for each of
        // thousands of payments.
        let inserted: Option<i64> = sqlx::query_scalar(
            "INSERT INTO orders (member_id, site_id, idempotency_key, status, cart_type, subtotal, discount, shipping, loyalty, total,
                                 currency, payment_reference, created_at, updated_at, payment_method, payment_card_last4)
             VALUES ($1, $2, $3, 'validated', $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14)
             ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
        )
        .bind(m.id)
        .bind(m.site_id)
        .bind(cart_hash)
        .bind(order_type)
        .bind(t.subtotal)
        .bind(t.discount)
        .bind(t.shipping - t.shipping_discount)
        .bind(t.loyalty)
        .bind(t.total)
        .bind(&cart.currency)
        .bind(reference)
        .bind(now)
        .bind(method.wire())
        .bind(method.last4().map(str::to_string))
        .fetch_optional(&mut *w.tx)
        .await?;
        let Some(order_id) = inserted else {
            // Paid already (a concurrent or repeated call with the same key).
            let order_id: i64 =
                sqlx::query_scalar("SELECT id FROM orders WHERE idempotency_key = $1")
                    .bind(cart_hash)
                    .fetch_one(&mut *w.tx)
                    .await?;
            return Ok(order_id);
        };
        crate::orders::store::status::record_created(&mut w.tx, order_id, "validated", now).await?;
        let closed = sqlx::query(
            "UPDATE carts SET status = 'open', cart_hash = NULL, cart_type = NULL, loyalty_product_id = NULL,
                    version = version + 1, updated_at = $3
              WHERE member_id = $1 AND status = 'frozen' AND cart_hash = $2",
        )
        .bind(m.id)
        .bind(cart_hash)
        .bind(now)
        .execute(&mut *w.tx)
        .await?
        .rows_affected();
        if closed != 1 {
            return Err(CartError::InvalidCart.into());
        }
        let mut stock_moves = Vec::with_capacity(cart.items.len());
        for line in &cart.items {
            let option_id: i64 = line.product_id.parse().unwrap_or(0);
            // A line of a product a moderator took off the shop since it was added is not
            // sold: the checkout fails as for an expired hold.
            let gone = sqlx::query(
                "DELETE FROM cart_items WHERE member_id = $1 AND option_id = $2 AND quantity = $3 AND expires_at > $4
                    AND product_id IN (SELECT id FROM products WHERE moderation IN ('', 'restricted'))",
            )
            .bind(m.id)
            .bind(option_id)
            .bind(line.quantity)
            .bind(now)
            .execute(&mut *w.tx)
            .await?
            .rows_affected();
            if gone != 1 {
                return Err(CartError::Expired.into());
            }
            stock_moves.push((option_id, line.quantity));
            sqlx::query(
                "INSERT INTO order_items (order_id, option_id, product_id, sale_id, name, option_label, quantity, unit_price)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(order_id)
            .bind(option_id)
            .bind(line.item_id)
            .bind(line.sale_id)
            .bind(&line.name)
            .bind(&line.option_label)
            .bind(line.quantity)
            .bind(line.unit_price)
            .execute(&mut *w.tx)
            .await?;
        }
        for v in &cart.vouchers {
            // The spend is conditional: a voucher is never used beyond its limits, nor
            // outside its dates (the cart may have been paid long after it was applied).
            let spent: Option<Option<i64>> = sqlx::query_scalar(
                "UPDATE vouchers SET used_count = used_count + 1
                  WHERE id = $1 AND (total_limit IS NULL OR used_count < total_limit)
                    AND (valid_from IS NULL OR valid_from <= $3) AND (valid_until IS NULL OR valid_until > $3)
                    AND per_member_limit > (SELECT COUNT(*) FROM voucher_redemptions WHERE voucher_id = $1 AND member_id = $2)
                 RETURNING campaign_id",
            )
            .bind(v.voucher_id)
            .bind(m.id)
            .bind(now)
            .fetch_optional(&mut *w.tx)
            .await?;
            let Some(campaign) = spent else {
                return Err(CartError::VoucherExhausted.into());
            };
            // A campaign's total runs across its sites' vouchers: counted on the campaign
            // row, conditionally too.
            if let Some(campaign) = campaign {
                let counted = sqlx::query(
                    "UPDATE voucher_campaigns SET used_count = used_count + 1
                      WHERE id = $1 AND (total_limit IS NULL OR used_count < total_limit)",
                )
                .bind(campaign)
                .execute(&mut *w.tx)
                .await?
                .rows_affected();
                if counted != 1 {
                    return Err(CartError::VoucherExhausted.into());
                }
            }
            sqlx::query(
                "INSERT INTO voucher_redemptions (order_id, voucher_id, member_id, amount) VALUES ($1, $2, $3, $4)",
            )
            .bind(order_id)
            .bind(v.voucher_id)
            .bind(m.id)
            .bind(v.amount)
            .execute(&mut *w.tx)
            .await?;
        }
        sqlx::query("DELETE FROM cart_vouchers WHERE member_id = $1")
            .bind(m.id)
            .execute(&mut *w.tx)
            .await?;
        // Rose deals: one voucher per unit of a deal, issued with the order. A deal's line
        // is a digital one (the cart's view), so an order without any has none to look for.
        if cart.items.iter().any(|l| l.is_digital) {
            crate::rosedeals::store::issue_vouchers(&mut w.tx, order_id, now).await?;
        }
        // Sponsorship: the sponsor's reward after this member's first order.
        crate::sponsorship::store::reward_paid_order(&mut w.tx, order_id, now).await?;
        if let Some(delivery) = &delivery {
            address_store::copy_to_order(&mut w.tx, order_id, delivery).await?;
        }
        sqlx::query(
            "INSERT INTO payments (member_id, cart_hash, amount, status, reference, created_at) VALUES ($1, $2, $3, 'approved', $4, $5)",
        )
        .bind(m.id)
        .bind(cart_hash)
        .bind(t.total)
        .bind(reference)
        .bind(now)
        .execute(&mut *w.tx)
        .await?;
        // The stock rows last, just before the commit: at a sale opening every payment
        // moves the same hot option's units, and each statement after the move would hold
        // its lock for one more round trip. Options in id order, so that two carts never
        // lock two of them in opposite orders.
        stock_moves.sort_unstable();
        for (option_id, quantity) in stock_moves {
            let moved = sqlx::query(
                "UPDATE product_options SET held = held - $2, sold = sold + $2 WHERE id = $1 AND held >= $2",
            )
            .bind(option_id)
            .bind(quantity)
            .execute(&mut *w.tx)
            .await?
            .rows_affected();
            if moved != 1 {
                return Err(CartError::Unexpected.into());
            }
        }
        w.commit().await?;
        Ok(order_id)
    }

    async fn order_by_key(&self, m: Member, key: &str) -> CartResult<Option<Order>> {
        let row = sqlx::query("SELECT id, member_id FROM orders WHERE idempotency_key = $1")
            .bind(key)
            .fetch_optional(&self.db.pool)
            .await?;
        match row {
            None => Ok(None),
            Some(r) if r.try_get::<i64, _>("member_id")? == m.id => {
                self.order(m, r.try_get("id")?).await
            }
            Some(_) => Err(CartError::InvalidCart.into()),
        }
    }

    /// One of the member's orders (the orders area's reader: one query shape for both).
    pub async fn order(&self, m: Member, id: i64) -> CartResult<Option<Order>> {
        let mut conn = self.db.pool.acquire().await?;
        Ok(crate::orders::store::read::order(&mut conn, m.id, id)
            .await?
            .map(|(order, _tracking)| order))
    }

    /// Reopens a validated order of the member, paid less than the reopen window ago:
    /// its units move from sold back to held for the member, its lines and vouchers come
    /// back into the (open, empty or same-type) cart, the order becomes `reopened` and its
    /// payment is refunded. Anything else: [`CartError::Reopen`] (262).
    pub async fn reopen(&self, m: Member, order_id: i64, now: i64) -> CartResult<()> {
        let Some(order) = self.order(m, order_id).await? else {
            return Err(CartError::Reopen.into());
        };
        let created: i64 = order.created_at;
        // A travel booking is not a cart: its places are not units to put back.
        if order.status != "validated"
            || order.cart_type == "travel"
            || order.cart_type == crate::rosedeals::rules::CART_TYPE
            || now - created > self.settings.reopen_window_secs
        {
            return Err(CartError::Reopen.into());
        }
        let mut w = self.begin().await?;
        lock_member_cart(&mut w.tx, m, now).await?;
        let row = store::cart_row(&mut *w.tx, m.id).await?;
        if row.as_ref().is_some_and(|r| r.status == "frozen") {
            return Err(CartError::Frozen.into());
        }
        let live: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM cart_items WHERE member_id = $1 AND expires_at > $2",
        )
        .bind(m.id)
        .bind(now)
        .fetch_one(&mut *w.tx)
        .await?;
        let current_type = row.as_ref().and_then(|r| r.cart_type.clone());
        if live > 0
            && current_type
                .as_deref()
                .is_some_and(|t| t != order.cart_type)
        {
            return Err(CartError::IncompatibleCartTypes.into());
        }
        let changed = sqlx::query(
            "UPDATE orders SET status = 'reopened', updated_at = $2 WHERE id = $1 AND status = 'validated'",
        )
        .bind(order_id)
        .bind(now)
        .execute(&mut *w.tx)
        .await?
        .rows_affected();
        if changed != 1 {
            return Err(CartError::Reopen.into());
        }
        // The reopening ends the order's timeline.
        crate::orders::store::status::record_created(&mut w.tx, order_id, "reopened", now).await?;
        for item in &order.items {
            let option_id: i64 = item.product_id.parse().unwrap_or(0);
            let moved = sqlx::query(
                "UPDATE product_options SET sold = sold - $2, held = held + $2 WHERE id = $1 AND sold >= $2",
            )
            .bind(option_id)
            .bind(item.quantity)
            .execute(&mut *w.tx)
            .await?
            .rows_affected();
            if moved != 1 {
                return Err(CartError::Reopen.into());
            }
            sqlx::query(
                "INSERT INTO cart_items (member_id, option_id, product_id, sale_id, quantity, origin, created_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5, 'reopen', $6, $7)
                 ON CONFLICT (member_id, option_id) DO UPDATE SET quantity = cart_items.quantity + excluded.quantity,
                        expires_at = excluded.expires_at",
            )
            .bind(m.id)
            .bind(option_id)
            .bind(item.item_id)
            .bind(item.sale_id)
            .bind(item.quantity)
            .bind(now)
            .bind(now + self.settings.hold_secs)
            .execute(&mut *w.tx)
            .await?;
            // What the cart already held of the product counts too: reopening does not
            // take a member past the per-member limit (nothing is changed if it would).
            let held: i64 = sqlx::query_scalar(
                "SELECT CAST(COALESCE(SUM(quantity), 0) AS BIGINT) FROM cart_items
                  WHERE member_id = $1 AND product_id = $2 AND expires_at > $3",
            )
            .bind(m.id)
            .bind(item.item_id)
            .bind(now)
            .fetch_one(&mut *w.tx)
            .await?;
            if held > self.settings.max_per_member {
                return Err(CartError::MaxReached.into());
            }
        }
        let vouchers: Vec<i64> =
            sqlx::query_scalar("SELECT voucher_id FROM voucher_redemptions WHERE order_id = $1")
                .bind(order_id)
                .fetch_all(&mut *w.tx)
                .await?;
        for v in vouchers {
            sqlx::query(
                "UPDATE vouchers SET used_count = used_count - 1 WHERE id = $1 AND used_count > 0",
            )
            .bind(v)
            .execute(&mut *w.tx)
            .await?;
            sqlx::query(
                "UPDATE voucher_campaigns SET used_count = used_count - 1
                  WHERE id = (SELECT campaign_id FROM vouchers WHERE id = $1) AND used_count > 0",
            )
            .bind(v)
            .execute(&mut *w.tx)
            .await?;
            sqlx::query(
                "INSERT INTO cart_vouchers (member_id, voucher_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (member_id, voucher_id) DO NOTHING",
            )
            .bind(m.id)
            .bind(v)
            .bind(now)
            .execute(&mut *w.tx)
            .await?;
        }
        sqlx::query("DELETE FROM voucher_redemptions WHERE order_id = $1")
            .bind(order_id)
            .execute(&mut *w.tx)
            .await?;
        sqlx::query(
            "INSERT INTO payments (member_id, cart_hash, amount, status, reference, created_at)
             SELECT member_id, idempotency_key, total, 'refunded', payment_reference, $2 FROM orders WHERE id = $1",
        )
        .bind(order_id)
        .bind(now)
        .execute(&mut *w.tx)
        .await?;
        upsert_cart(&mut w.tx, m, Some(&order.cart_type), now).await?;
        w.commit().await?;
        Ok(())
    }
}
