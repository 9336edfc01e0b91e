//! The cart operations of spec §7: view, add, remove, empty, freeze, defrost, recover,
//! suspend, loyalty. Each is one short write transaction.

use sqlx::Row;

use super::*;
use crate::cart::error::CartFailure;
use crate::cart::rules::CartError;
use crate::cart::store::{self};
use crate::cart::writer::AddJob;
use crate::model::cart::Cart;

impl CartService {
    /// The cart, after releasing the member's expired holds. `true` when the member must
    /// be told the basket expired (said once: the notice is then cleared).
    pub async fn cart(&self, m: Member, now: i64) -> CartResult<(Cart, bool)> {
        let mut cart = store::view(&self.db, m.id, now).await?;
        // Most looks find no hold past its time: the release (a write) runs only when the
        // cart shows one, and the cart is read again after it.
        if cart.items.iter().any(|l| l.remaining_time == 0) {
            self.release_member(m.id, now).await?;
            cart = store::view(&self.db, m.id, now).await?;
        }
        let expired = cart.has_notify_basket_expired;
        if expired {
            sqlx::query("UPDATE carts SET expired_notice = 0 WHERE member_id = $1")
                .bind(m.id)
                .execute(&self.db.writes)
                .await?;
        }
        Ok((cart, expired))
    }

    pub async fn view(&self, m: Member, now: i64) -> CartResult<Cart> {
        Ok(store::view(&self.db, m.id, now).await?)
    }

    /// Adds lines, all or nothing: holds their units for the member. Answers the member's
    /// cart after the add, when it could be read with the add's batch.
    pub async fn add(
        &self,
        m: Member,
        lines: &[AddLine],
        cart_type: &str,
        opts: &AddOptions,
        now: i64,
    ) -> CartResult<Option<Cart>> {
        if lines.is_empty()
            || lines.iter().any(|l| l.quantity < 1)
            || !crate::cart::rules::is_cart_type(cart_type)
        {
            return Err(CartError::BadRequest.into());
        }
        let mut infos = Vec::with_capacity(lines.len());
        for l in lines {
            let info = self
                .option(l.option_id)
                .await?
                .filter(|i| i.site_id == m.site_id && i.starts_at <= now && now < i.ends_at)
                .ok_or(CartError::UnknownProduct)?;
            infos.push(info);
        }
        if lines.iter().any(|l| self.is_sold_out(l.option_id)) {
            self.count_add_outcome(infos[0].sale_id, AddOutcome::Refused);
            return Err(CartError::OutOfStock.into());
        }
        let mut per_product: Vec<(i64, i64)> = Vec::new();
        for (l, i) in lines.iter().zip(&infos) {
            match per_product.iter_mut().find(|(p, _)| *p == i.product_id) {
                Some((_, q)) => *q += l.quantity,
                None => per_product.push((i.product_id, l.quantity)),
            }
        }
        let sale_id = infos[0].sale_id;
        let job = AddJob {
            m,
            lines: lines.to_vec(),
            infos,
            per_product,
            cart_type: cart_type.to_string(),
            opts: opts.clone(),
            now,
        };
        // The batching writer runs it with the adds waiting beside it (group commit).
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.adder
            .send((job, reply))
            .await
            .map_err(|_| CartFailure::Cart(CartError::Unexpected))?;
        let outcome = answer
            .await
            .map_err(|_| CartFailure::Cart(CartError::Unexpected))?;
        match outcome {
            Ok(cart) => {
                self.count_add_outcome(sale_id, AddOutcome::Added);
                self.clear_sold_out(lines.iter().map(|l| l.option_id));
                Ok(cart)
            }
            Err(CartFailure::Cart(CartError::OutOfStock)) => {
                self.count_add_outcome(sale_id, AddOutcome::Refused);
                if let [l] = lines {
                    if l.quantity == 1 {
                        self.mark_sold_out(l.option_id);
                    }
                }
                Err(CartError::OutOfStock.into())
            }
            Err(e) => {
                self.count_add_outcome(sale_id, AddOutcome::Failed);
                Err(e)
            }
        }
    }

    /// Removes a line; its units go back at once.
    pub async fn remove(&self, m: Member, option_id: i64, now: i64) -> CartResult<()> {
        let mut w = self.begin().await?;
        refuse_frozen(&mut *w.tx, m.id).await?;
        let quantity: Option<i64> = sqlx::query_scalar(
            "DELETE FROM cart_items WHERE member_id = $1 AND option_id = $2 RETURNING quantity",
        )
        .bind(m.id)
        .bind(option_id)
        .fetch_optional(&mut *w.tx)
        .await?;
        let Some(q) = quantity else {
            return Err(CartError::UnknownProduct.into());
        };
        store::give_back(&mut w.tx, option_id, q).await?;
        upsert_cart(&mut w.tx, m, None, now).await?;
        w.commit().await?;
        self.clear_sold_out([option_id]);
        Ok(())
    }

    /// Empties the cart: lines (units back at once), vouchers and loyalty item.
    pub async fn empty(&self, m: Member, now: i64) -> CartResult<()> {
        let mut w = self.begin().await?;
        let released = self.empty_in(&mut w, m, now).await?;
        w.commit().await?;
        self.clear_sold_out(released);
        Ok(())
    }

    /// The writes of `empty` in the caller's transaction (from `begin`), for an emptying
    /// recorded with another write in one commit; the caller commits, then passes the
    /// options returned to `clear_sold_out`.
    pub async fn empty_in(&self, w: &mut WriteTx, m: Member, now: i64) -> CartResult<Vec<i64>> {
        refuse_frozen(&mut *w.tx, m.id).await?;
        let released = take_all_lines(&mut w.tx, m.id).await?;
        sqlx::query("DELETE FROM cart_vouchers WHERE member_id = $1")
            .bind(m.id)
            .execute(&mut *w.tx)
            .await?;
        sqlx::query(
            "UPDATE carts SET loyalty_product_id = NULL, cart_type = NULL, version = version + 1, updated_at = $2 WHERE member_id = $1",
        )
        .bind(m.id)
        .bind(now)
        .execute(&mut *w.tx)
        .await?;
        Ok(released.into_iter().map(|(o, _)| o).collect())
    }

    /// Freezes the cart for payment and returns its hash (the same while frozen).
    /// `None` for an empty cart.
    pub async fn freeze(&self, m: Member, now: i64) -> CartResult<Option<String>> {
        if !terms_accepted(&self.db, m.id).await? {
            return Err(CartError::OnboardingRedirect.into());
        }
        if self.release_member(m.id, now).await? > 0 {
            return Err(CartError::Expired.into());
        }
        let mut w = self.begin().await?;
        let lines: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM cart_items WHERE member_id = $1")
            .bind(m.id)
            .fetch_one(&mut *w.tx)
            .await?;
        if lines == 0 {
            return Ok(None);
        }
        let row = store::cart_row(&mut *w.tx, m.id).await?;
        if let Some(hash) = row
            .as_ref()
            .filter(|r| r.status == "frozen")
            .and_then(|r| r.cart_hash.clone())
        {
            return Ok(Some(hash));
        }
        let hash = crate::platform::session::new_token();
        upsert_cart(&mut w.tx, m, None, now).await?;
        sqlx::query(
            "UPDATE carts SET status = 'frozen', cart_hash = $2, version = version + 1 WHERE member_id = $1",
        )
        .bind(m.id)
        .bind(&hash)
        .execute(&mut *w.tx)
        .await?;
        w.commit().await?;
        Ok(Some(hash))
    }

    /// Defrost: the cart is open again (the order being paid is cancelled).
    pub async fn defrost(&self, m: Member, now: i64) -> CartResult<()> {
        sqlx::query(
            "UPDATE carts SET status = 'open', cart_hash = NULL, version = version + 1, updated_at = $2
              WHERE member_id = $1 AND status = 'frozen'",
        )
        .bind(m.id)
        .bind(now)
        .execute(&self.db.writes)
        .await?;
        Ok(())
    }

    /// Brings back the released or suspended lines the member did not dismiss, as far as
    /// stock allows; returns the ids that could not be held again.
    pub async fn recover(&self, m: Member, dismissed: &[i64], now: i64) -> CartResult<Vec<i64>> {
        refuse_frozen(&self.db.pool, m.id).await?;
        let rows = sqlx::query(
            "SELECT option_id, CAST(MAX(quantity) AS BIGINT) AS quantity FROM cart_recovery WHERE member_id = $1 GROUP BY option_id ORDER BY option_id",
        )
        .bind(m.id)
        .fetch_all(&self.db.pool)
        .await?;
        let cart_type: Option<String> =
            sqlx::query_scalar("SELECT cart_type FROM carts WHERE member_id = $1")
                .bind(m.id)
                .fetch_optional(&self.db.pool)
                .await?
                .flatten();
        let cart_type = cart_type.unwrap_or_else(|| crate::cart::rules::DEFAULT_CART_TYPE.into());
        let mut unavailable = Vec::new();
        for r in rows {
            let option_id: i64 = r.try_get("option_id")?;
            let quantity: i64 = r.try_get("quantity")?;
            if dismissed.contains(&option_id) {
                continue;
            }
            let line = AddLine {
                option_id,
                quantity,
            };
            match self
                .add(m, &[line], &cart_type, &AddOptions::default(), now)
                .await
            {
                Ok(_) => {}
                Err(CartFailure::Cart(_)) => unavailable.push(option_id),
                Err(e) => return Err(e),
            }
        }
        self.cancel_recovery(m).await?;
        Ok(unavailable)
    }

    pub async fn cancel_recovery(&self, m: Member) -> CartResult<()> {
        sqlx::query("DELETE FROM cart_recovery WHERE member_id = $1")
            .bind(m.id)
            .execute(&self.db.writes)
            .await?;
        Ok(())
    }

    /// Suspends the basket: its lines are put aside (units back to the sale) until the
    /// member recovers them.
    pub async fn suspend(&self, m: Member, now: i64) -> CartResult<()> {
        let mut w = self.begin().await?;
        refuse_frozen(&mut *w.tx, m.id).await?;
        let released = take_all_lines(&mut w.tx, m.id).await?;
        if released.is_empty() {
            return Err(CartError::InvalidCart.into());
        }
        for (option_id, quantity) in &released {
            sqlx::query(
                "INSERT INTO cart_recovery (member_id, option_id, kind, quantity, created_at) VALUES ($1, $2, 'suspended', $3, $4)
                 ON CONFLICT (member_id, option_id, kind) DO UPDATE SET quantity = excluded.quantity",
            )
            .bind(m.id)
            .bind(option_id)
            .bind(quantity)
            .bind(now)
            .execute(&mut *w.tx)
            .await?;
        }
        w.commit().await?;
        self.clear_sold_out(released.into_iter().map(|(o, _)| o));
        Ok(())
    }

    pub async fn has_suspended(&self, m: Member) -> CartResult<bool> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM cart_recovery WHERE member_id = $1 AND kind = 'suspended'",
        )
        .bind(m.id)
        .fetch_one(&self.db.pool)
        .await?;
        Ok(n > 0)
    }

    /// Sets (or, with `on` false, removes) the loyalty item; its quantity is always 1.
    pub async fn loyalty(&self, m: Member, product_id: i64, on: bool, now: i64) -> CartResult<()> {
        if crate::cart::rules::loyalty_product(product_id).is_none() {
            return Err(CartError::UnknownProduct.into());
        }
        let mut w = self.begin().await?;
        refuse_frozen(&mut *w.tx, m.id).await?;
        upsert_cart(&mut w.tx, m, None, now).await?;
        let sql = if on {
            "UPDATE carts SET loyalty_product_id = $2 WHERE member_id = $1"
        } else {
            "UPDATE carts SET loyalty_product_id = NULL WHERE member_id = $1 AND loyalty_product_id = $2"
        };
        sqlx::query(sql)
            .bind(m.id)
            .bind(product_id)
            .execute(&mut *w.tx)
            .await?;
        w.commit().await?;
        Ok(())
    }
}
