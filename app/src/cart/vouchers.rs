//! Vouchers in the basket: apply by code or by id (the vouchers page's selection), remove,
//! print. A voucher is spent only when an order is paid (see `checkout.rs`), with a
//! conditional update that respects its limits, so concurrent payments never spend one
//! twice.
use sqlx::Row;

use super::rules::CartError;
use super::service::{refuse_frozen, upsert_cart, CartResult, CartService, Member};
use super::store;
use crate::model::cart::CartVoucher;

/// Lifetime of a print link.
pub const PRINT_TTL_SECS: i64 = 3600;

/// What a print link shows: the basket's vouchers, or the member's vouchers and the
/// site's promotions (the vouchers page's print).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrintScope {
    Basket,
    Account,
}

impl PrintScope {
    fn wire(self) -> &'static str {
        match self {
            PrintScope::Basket => "basket",
            PrintScope::Account => "account",
        }
    }
}

impl CartService {
    /// Applies a voucher of the member's site by its code (case-insensitive).
    pub async fn apply_voucher(&self, m: Member, code: &str, now: i64) -> CartResult<i64> {
        let code = code.trim().to_uppercase();
        if code.is_empty() || code.len() > 64 {
            return Err(CartError::BadRequest.into());
        }
        let id: Option<i64> =
            sqlx::query_scalar("SELECT id FROM vouchers WHERE site_id = $1 AND code = $2")
                .bind(m.site_id)
                .bind(&code)
                .fetch_optional(&self.db.pool)
                .await?;
        let Some(id) = id else {
            return Err(CartError::VoucherUnknown.into());
        };
        self.apply_voucher_id(m, id, now).await?;
        Ok(id)
    }

    /// Puts one voucher into the basket: it must be of the member's site, within its
    /// validity, the member's own if it is personal, and not used up (in total or by
    /// this member). Spending happens at payment, conditionally (see `checkout.rs`).
    pub async fn apply_voucher_id(&self, m: Member, id: i64, now: i64) -> CartResult<()> {
        let Some(v) = sqlx::query(
            "SELECT per_member_limit, total_limit, used_count, personal, valid_from, valid_until,
                    (SELECT COUNT(*) FROM voucher_participations p WHERE p.voucher_id = v.id AND p.member_id = $3) AS held,
                    (SELECT COUNT(*) FROM voucher_campaigns k WHERE k.id = v.campaign_id
                      AND k.total_limit IS NOT NULL AND k.used_count >= k.total_limit) AS campaign_spent
               FROM vouchers v WHERE id = $1 AND site_id = $2",
        )
        .bind(id)
        .bind(m.site_id)
        .bind(m.id)
        .fetch_optional(&self.db.pool)
        .await?
        else {
            return Err(CartError::VoucherUnknown.into());
        };
        let personal = v.try_get::<i64, _>("personal")? == 1;
        let from: Option<i64> = v.try_get("valid_from")?;
        let until: Option<i64> = v.try_get("valid_until")?;
        // A personal code of someone else, or one out of its dates, is not a code for
        // this member: the same answer as an unknown one, so codes cannot be probed.
        if (personal && v.try_get::<i64, _>("held")? == 0)
            || from.is_some_and(|f| now < f)
            || until.is_some_and(|u| now >= u)
        {
            return Err(CartError::VoucherUnknown.into());
        }
        let total_limit: Option<i64> = v.try_get("total_limit")?;
        let used: i64 = v.try_get("used_count")?;
        if total_limit.is_some_and(|l| used >= l) || v.try_get::<i64, _>("campaign_spent")? > 0 {
            return Err(CartError::VoucherExhausted.into());
        }
        let mine: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM voucher_redemptions WHERE voucher_id = $1 AND member_id = $2",
        )
        .bind(id)
        .bind(m.id)
        .fetch_one(&self.db.pool)
        .await?;
        if mine >= v.try_get::<i64, _>("per_member_limit")? {
            return Err(CartError::VoucherMemberLimit.into());
        }
        let mut w = self.begin().await?;
        refuse_frozen(&mut *w.tx, m.id).await?;
        upsert_cart(&mut w.tx, m, None, now).await?;
        sqlx::query(
            "INSERT INTO cart_vouchers (member_id, voucher_id, created_at) VALUES ($1, $2, $3)
             ON CONFLICT (member_id, voucher_id) DO NOTHING",
        )
        .bind(m.id)
        .bind(id)
        .bind(now)
        .execute(&mut *w.tx)
        .await?;
        w.commit().await?;
        Ok(())
    }

    /// Removes a voucher from the basket (`false` when it was not there).
    pub async fn remove_voucher(&self, m: Member, voucher_id: i64) -> CartResult<bool> {
        let mut w = self.begin().await?;
        refuse_frozen(&mut *w.tx, m.id).await?;
        let n = sqlx::query("DELETE FROM cart_vouchers WHERE member_id = $1 AND voucher_id = $2")
            .bind(m.id)
            .bind(voucher_id)
            .execute(&mut *w.tx)
            .await?
            .rows_affected();
        w.commit().await?;
        Ok(n == 1)
    }

    /// A print link for the basket's vouchers: `/vouchers/print/{token}` (one hour).
    pub async fn print_vouchers(&self, m: Member, now: i64) -> CartResult<String> {
        self.print_link(m, PrintScope::Basket, now).await
    }

    /// A print link for the basket's vouchers or the account's (one hour).
    pub async fn print_link(&self, m: Member, scope: PrintScope, now: i64) -> CartResult<String> {
        let token = crate::platform::session::new_token();
        sqlx::query(
            "INSERT INTO voucher_prints (token_hash, member_id, created_at, expires_at, scope) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(crate::platform::session::hash_token(&token))
        .bind(m.id)
        .bind(now)
        .bind(now + PRINT_TTL_SECS)
        .bind(scope.wire())
        .execute(&self.db.writes)
        .await?;
        Ok(format!("/vouchers/print/{token}"))
    }

    /// The vouchers a print link shows (the member's basket vouchers), or `None` when the
    /// link is unknown or expired.
    pub async fn printable(&self, token: &str, now: i64) -> CartResult<Option<Vec<CartVoucher>>> {
        let Some(row) = sqlx::query(
            "SELECT member_id, scope FROM voucher_prints WHERE token_hash = $1 AND expires_at > $2",
        )
        .bind(crate::platform::session::hash_token(token))
        .bind(now)
        .fetch_optional(&self.db.pool)
        .await?
        else {
            return Ok(None);
        };
        let member_id: i64 = row.try_get("member_id")?;
        if row.try_get::<String, _>("scope")? == PrintScope::Account.wire() {
            return Ok(Some(
                crate::promotions::store::printable(&self.db, member_id, now).await?,
            ));
        }
        Ok(Some(store::view(&self.db, member_id, now).await?.vouchers))
    }
}
