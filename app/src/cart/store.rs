//! Cart SQL: option lookups, availability for catalog and product pages, releasing
//! expired holds (exactly once: a hold row is deleted before its units go back), and the
//! cart view. Stock of an option: available = stock - held - sold.
// Over 400 lines: the cart's SQL, one short query per function, kept beside the stock moves it shares.
use std::collections::HashMap;

use sqlx::{Any, Row, Transaction};

use super::rules;
use crate::model::cart::{Cart, CartLine, CartVoucher, LoyaltyItem, RecoveryLine};
use crate::model::catalog_api::Availability;
use crate::platform::db::Db;

/// Who looks at availability: the member (none: a visitor) and the cart's limit of units
/// of one product a member may hold (`CartSettings::max_per_member`).
#[derive(Clone, Copy, Debug)]
pub struct Viewer {
    pub member_id: Option<i64>,
    pub max_per_member: i64,
}

/// What an add needs to know of an option (SKU).
#[derive(Clone, Debug)]
pub struct OptionInfo {
    pub option_id: i64,
    pub product_id: i64,
    pub sale_id: i64,
    pub site_id: i64,
    pub label: String,
    pub name: String,
    pub price: i64,
    pub starts_at: i64,
    pub ends_at: i64,
}

pub async fn option_info(db: &Db, option_id: i64) -> Result<Option<OptionInfo>, sqlx::Error> {
    let row = sqlx::query(
        concat!(
            "SELECT o.id, o.product_id, o.label, p.sale_id, p.name, ",
            crate::platform::sql::option_price!(),
            " AS price_cents, s.site_id, s.starts_at, s.ends_at
               FROM product_options o JOIN products p ON p.id = o.product_id JOIN sales s ON s.id = p.sale_id
              WHERE o.id = $1 AND p.moderation IN ('', 'restricted')"
        ),
    )
    .bind(option_id)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok(OptionInfo {
            option_id: r.try_get("id")?,
            product_id: r.try_get("product_id")?,
            sale_id: r.try_get("sale_id")?,
            site_id: r.try_get("site_id")?,
            label: r.try_get("label")?,
            name: r.try_get("name")?,
            price: r.try_get("price_cents")?,
            starts_at: r.try_get("starts_at")?,
            ends_at: r.try_get("ends_at")?,
        })
    })
    .transpose()
}

fn placeholders(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Availability of products (catalog items) for a member (or an anonymous visitor):
/// InBasket when the member holds some, MaxReached at the per-member limit, OutOfStock
/// when no unit is left for others. Unknown ids are absent from the map.
pub async fn availability(
    db: &Db,
    viewer: Viewer,
    product_ids: &[i64],
    now: i64,
) -> Result<HashMap<i64, Availability>, sqlx::Error> {
    let member_id = viewer.member_id;
    let mut out = HashMap::new();
    if product_ids.is_empty() {
        return Ok(out);
    }
    let sql = format!(
        "SELECT product_id, CAST(SUM(stock - held - sold) AS BIGINT) AS left_units
           FROM product_options WHERE product_id IN ({}) GROUP BY product_id",
        placeholders(1, product_ids.len())
    );
    let mut q = sqlx::query(&sql);
    for id in product_ids {
        q = q.bind(*id);
    }
    let left: Vec<(i64, i64)> = q
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(|r| Ok((r.try_get("product_id")?, r.try_get("left_units")?)))
        .collect::<Result<_, sqlx::Error>>()?;
    let mut held: HashMap<i64, i64> = HashMap::new();
    if let Some(m) = member_id {
        let sql = format!(
            "SELECT product_id, CAST(SUM(quantity) AS BIGINT) AS q FROM cart_items
              WHERE member_id = $1 AND expires_at > $2 AND product_id IN ({}) GROUP BY product_id",
            placeholders(3, product_ids.len())
        );
        let mut q = sqlx::query(&sql).bind(m).bind(now);
        for id in product_ids {
            q = q.bind(*id);
        }
        for r in q.fetch_all(&db.pool).await? {
            held.insert(r.try_get("product_id")?, r.try_get("q")?);
        }
    }
    let limit = viewer.max_per_member.max(1);
    for (id, left) in left {
        let mine = held.get(&id).copied().unwrap_or(0);
        out.insert(id, rules::availability(left, mine, limit));
    }
    Ok(out)
}

/// Availability of options (SKUs) of a product page, for a member.
pub async fn option_availability(
    db: &Db,
    viewer: Viewer,
    product_id: i64,
    now: i64,
) -> Result<HashMap<i64, Availability>, sqlx::Error> {
    let member_id = viewer.member_id;
    let rows = sqlx::query(
        "SELECT o.id, o.stock - o.held - o.sold AS left_units,
                CAST(COALESCE((SELECT SUM(i.quantity) FROM cart_items i WHERE i.member_id = $2 AND i.option_id = o.id AND i.expires_at > $3), 0) AS BIGINT) AS mine,
                CAST(COALESCE((SELECT SUM(i.quantity) FROM cart_items i WHERE i.member_id = $2 AND i.product_id = o.product_id AND i.expires_at > $3), 0) AS BIGINT) AS product_mine
           FROM product_options o WHERE o.product_id = $1",
    )
    .bind(product_id)
    .bind(member_id.unwrap_or(0))
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    let limit = viewer.max_per_member.max(1);
    let mut out = HashMap::new();
    for r in rows {
        let left: i64 = r.try_get("left_units")?;
        let mine: i64 = r.try_get("mine")?;
        let product_mine: i64 = r.try_get("product_mine")?;
        let a = if product_mine >= limit {
            Availability::MaxReached
        } else {
            rules::availability(left, mine, limit)
        };
        out.insert(r.try_get("id")?, a);
    }
    Ok(out)
}

/// One expired hold released: its units return to the sale, its line goes to recovery.
#[derive(Clone, Debug)]
pub struct Released {
    pub member_id: i64,
    pub option_id: i64,
    pub quantity: i64,
}

/// Releases expired holds inside `tx` (of one member, or of everyone), at most `limit`.
/// Each hold row is deleted with a condition on its expiry first; only a deleted row
/// gives its units back, so a hold is released exactly once whoever gets there first.
pub async fn release_expired_in(
    tx: &mut Transaction<'static, Any>,
    member_id: Option<i64>,
    now: i64,
    limit: i64,
) -> Result<Vec<Released>, sqlx::Error> {
    let rows = match member_id {
        Some(m) => sqlx::query(
            "SELECT member_id, option_id, quantity FROM cart_items WHERE member_id = $1 AND expires_at <= $2 LIMIT $3",
        )
        .bind(m)
        .bind(now)
        .bind(limit)
        .fetch_all(&mut **tx)
        .await?,
        None => sqlx::query(
            "SELECT member_id, option_id, quantity FROM cart_items WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&mut **tx)
        .await?,
    };
    let mut released = Vec::new();
    for r in rows {
        let (member_id, option_id, quantity): (i64, i64, i64) = (
            r.try_get("member_id")?,
            r.try_get("option_id")?,
            r.try_get("quantity")?,
        );
        let gone = sqlx::query(
            "DELETE FROM cart_items WHERE member_id = $1 AND option_id = $2 AND quantity = $3 AND expires_at <= $4",
        )
        .bind(member_id)
        .bind(option_id)
        .bind(quantity)
        .bind(now)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if gone != 1 {
            continue;
        }
        give_back(tx, option_id, quantity).await?;
        sqlx::query(
            "INSERT INTO cart_recovery (member_id, option_id, kind, quantity, created_at) VALUES ($1, $2, 'expired', $3, $4)
             ON CONFLICT (member_id, option_id, kind) DO UPDATE SET quantity = excluded.quantity, created_at = excluded.created_at",
        )
        .bind(member_id)
        .bind(option_id)
        .bind(quantity)
        .bind(now)
        .execute(&mut **tx)
        .await?;
        // An expired basket is no longer being paid for: defrost it and tell the member.
        sqlx::query(
            "UPDATE carts SET expired_notice = 1, status = 'open', cart_hash = NULL, version = version + 1, updated_at = $2 WHERE member_id = $1",
        )
        .bind(member_id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
        released.push(Released {
            member_id,
            option_id,
            quantity,
        });
    }
    Ok(released)
}

/// Units of a removed hold go back to the sale.
pub async fn give_back(
    tx: &mut Transaction<'static, Any>,
    option_id: i64,
    quantity: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE product_options SET held = held - $2 WHERE id = $1 AND held >= $2")
        .bind(option_id)
        .bind(quantity)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The member's live cart lines (`product:units,...`, null for none) as a column over a
/// member row `m` with `$2` the time, for the session lookups of page views: their header's
/// count and their tiles' held state come from it, in the session's query.
pub const HELD_LINES_COLUMN: &str = ", (SELECT string_agg(CAST(c.product_id AS TEXT) || ':' \
     || CAST(c.quantity AS TEXT), ',') FROM cart_items c \
     WHERE c.member_id = m.id AND c.expires_at > $2) AS held_lines";

/// Units held per product, from a row with [`HELD_LINES_COLUMN`] (lines of one product
/// added up).
pub fn held_lines_of(row: &sqlx::any::AnyRow) -> Result<HashMap<i64, i64>, sqlx::Error> {
    let mut held = HashMap::new();
    let text: Option<String> = row.try_get("held_lines")?;
    for line in text
        .as_deref()
        .unwrap_or("")
        .split(',')
        .filter(|l| !l.is_empty())
    {
        let parsed = line
            .split_once(':')
            .and_then(|(p, u)| Some((p.parse::<i64>().ok()?, u.parse::<i64>().ok()?)));
        let Some((product, units)) = parsed else {
            return Err(sqlx::Error::Decode(format!("a held line {line:?}").into()));
        };
        *held.entry(product).or_insert(0) += units;
    }
    Ok(held)
}

/// The cart row's state: (status, cart type, hash, loyalty product, expired notice).
pub struct CartRow {
    pub status: String,
    pub cart_type: Option<String>,
    pub cart_hash: Option<String>,
    pub loyalty: Option<i64>,
    pub expired_notice: bool,
}

pub async fn cart_row<'e, E>(exec: E, member_id: i64) -> Result<Option<CartRow>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = Any>,
{
    let r = sqlx::query(
        "SELECT status, cart_type, cart_hash, loyalty_product_id, expired_notice FROM carts WHERE member_id = $1",
    )
    .bind(member_id)
    .fetch_optional(exec)
    .await?;
    r.map(|r| {
        Ok(CartRow {
            status: r.try_get("status")?,
            cart_type: r.try_get("cart_type")?,
            cart_hash: r.try_get("cart_hash")?,
            loyalty: r.try_get("loyalty_product_id")?,
            expired_notice: r.try_get::<i64, _>("expired_notice")? == 1,
        })
    })
    .transpose()
}

/// The automatic campaigns of the member's site that still apply to them: within their
/// dates, under the member's limit and the campaign's total, and not already in the
/// basket by their code.
async fn automatic_vouchers(
    db: &Db,
    member_id: i64,
    now: i64,
) -> Result<Vec<sqlx::any::AnyRow>, sqlx::Error> {
    sqlx::query(
        "SELECT v.id, v.code, v.kind, v.discount_type, v.scope, v.value, v.automatic FROM vouchers v
          WHERE v.automatic = 1 AND v.site_id = (SELECT m.site_id FROM members m WHERE m.id = $1)
            AND (v.valid_from IS NULL OR v.valid_from <= $2) AND v.valid_until > $2
            AND v.per_member_limit > (SELECT COUNT(*) FROM voucher_redemptions r WHERE r.voucher_id = v.id AND r.member_id = $1)
            AND NOT EXISTS (SELECT 1 FROM voucher_campaigns k WHERE k.id = v.campaign_id
                             AND k.total_limit IS NOT NULL AND k.used_count >= k.total_limit)
            AND NOT EXISTS (SELECT 1 FROM cart_vouchers c WHERE c.member_id = $1 AND c.voucher_id = v.id)
          ORDER BY v.id",
    )
    .bind(member_id)
    .bind(now)
    .fetch_all(&db.pool)
    .await
}

/// The member's cart as the API shows it.
pub async fn view(db: &Db, member_id: i64, now: i64) -> Result<Cart, sqlx::Error> {
    static SQL: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| view_sql("(SELECT 1 AS one) AS z", "$1", ""));
    let rows = sqlx::query(&SQL)
        .bind(member_id)
        .bind(now)
        .fetch_all(&db.pool)
        .await?;
    assemble(db, member_id, &rows, now).await
}

/// The carts of several members, read in one query (the add writer answers a whole batch
/// of adds with it instead of one query per add); a member's extra queries (vouchers,
/// recovery lines) run only for carts that have some, as in [`view`].
pub async fn views(db: &Db, members: &[i64], now: i64) -> Result<HashMap<i64, Cart>, sqlx::Error> {
    use crate::platform::db::Backend;
    static SQLITE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        view_sql(
            "(SELECT CAST(value AS BIGINT) AS member_id FROM json_each($1)) AS z",
            "z.member_id",
            "z.member_id, ",
        )
    });
    static POSTGRES: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        view_sql(
            "unnest(CAST($1 AS BIGINT[])) AS z(member_id)",
            "z.member_id",
            "z.member_id, ",
        )
    });
    let sql = match db.backend {
        Backend::Sqlite => &*SQLITE,
        Backend::Postgres => &*POSTGRES,
    };
    let rows = sqlx::query(sql)
        .bind(crate::platform::sql::ids(db.backend, members))
        .bind(now)
        .fetch_all(&db.pool)
        .await?;
    let mut carts = HashMap::with_capacity(members.len());
    let mut from = 0;
    while from < rows.len() {
        let member_id: i64 = rows[from].try_get("view_member")?;
        let mut to = from + 1;
        while to < rows.len() && rows[to].try_get::<i64, _>("view_member")? == member_id {
            to += 1;
        }
        carts.insert(
            member_id,
            assemble(db, member_id, &rows[from..to], now).await?,
        );
        from = to;
    }
    Ok(carts)
}

/// The cart row, whether vouchers or recovery lines exist, and the lines, in one query (one
/// row per line, or one row with no line): the voucher and recovery queries run only for
/// carts that have some (most carts have none). A line's product and option are looked up
/// by key in subqueries, not joined: PostgreSQL runs this prepared statement with a generic
/// plan, which, when its statistics expect many lines per member, hashes the whole products
/// and options tables for each look (4 ms a cart in bench-cart, whether joined here or in a
/// query of their own). `source` gives the members (`z`), `member` the expression of one,
/// `order` what comes first in the order (several members: the member, so that a member's
/// rows follow each other). `$2` is now.
fn view_sql(source: &str, member: &str, order: &str) -> String {
    format!(
        "SELECT CAST({member} AS BIGINT) AS view_member, c.status, c.cart_type, c.cart_hash, c.loyalty_product_id, c.expired_notice,
                CAST(CASE WHEN EXISTS (SELECT 1 FROM cart_vouchers v WHERE v.member_id = {member}) THEN 1 ELSE 0 END AS BIGINT) AS has_vouchers,
                CAST(CASE WHEN EXISTS (SELECT 1 FROM cart_recovery r WHERE r.member_id = {member}) THEN 1 ELSE 0 END AS BIGINT) AS has_recovery,
                CAST(CASE WHEN EXISTS (SELECT 1 FROM vouchers a WHERE a.automatic = 1
                    AND a.site_id = (SELECT m.site_id FROM members m WHERE m.id = {member})
                    AND (a.valid_from IS NULL OR a.valid_from <= $2) AND a.valid_until > $2) THEN 1 ELSE 0 END AS BIGINT) AS has_automatic,
                i.option_id, i.product_id, i.sale_id, i.quantity, i.origin, i.bundle_id, i.expires_at,
                (SELECT p.name FROM products p WHERE p.id = i.product_id) AS name,
                (SELECT {price} FROM product_options o, products p WHERE o.id = i.option_id AND p.id = i.product_id) AS price_cents,
                (SELECT o.label FROM product_options o WHERE o.id = i.option_id) AS label,
                CAST(CASE WHEN EXISTS (SELECT 1 FROM rosedeal_deals d WHERE d.product_id = i.product_id) THEN 1 ELSE 0 END AS BIGINT) AS digital,
                (SELECT COALESCE(o.image_id, p.image_id) FROM product_options o, products p
                  WHERE o.id = i.option_id AND p.id = i.product_id) AS image_id
           FROM {source}
           LEFT JOIN carts c ON c.member_id = {member}
           LEFT JOIN cart_items i ON i.member_id = {member}
          ORDER BY {order}i.created_at, i.option_id",
        price = crate::platform::sql::option_price!(),
    )
}

/// A member's cart from their rows of [`view_sql`].
async fn assemble(
    db: &Db,
    member_id: i64,
    rows: &[sqlx::any::AnyRow],
    now: i64,
) -> Result<Cart, sqlx::Error> {
    let Some(head) = rows.first() else {
        return Err(sqlx::Error::RowNotFound);
    };
    let has_vouchers = head.try_get::<i64, _>("has_vouchers")? == 1;
    let has_recovery = head.try_get::<i64, _>("has_recovery")? == 1;
    let has_automatic = head.try_get::<i64, _>("has_automatic")? == 1;
    let row = match head.try_get::<Option<String>, _>("status")? {
        None => None,
        Some(status) => Some(CartRow {
            status,
            cart_type: head.try_get("cart_type")?,
            cart_hash: head.try_get("cart_hash")?,
            loyalty: head.try_get("loyalty_product_id")?,
            expired_notice: head.try_get::<i64, _>("expired_notice")? == 1,
        }),
    };
    let mut items = Vec::with_capacity(rows.len());
    for r in rows {
        let Some(option_id) = r.try_get::<Option<i64>, _>("option_id")? else {
            continue;
        };
        let quantity: i64 = r.try_get("quantity")?;
        let price: i64 = r.try_get("price_cents")?;
        let expires: i64 = r.try_get("expires_at")?;
        let item_id: i64 = r.try_get("product_id")?;
        items.push(CartLine {
            product_id: option_id.to_string(),
            item_id,
            image: crate::catalog::rules::product_image_url(item_id, r.try_get("image_id")?),
            sale_id: r.try_get("sale_id")?,
            name: r.try_get("name")?,
            option_label: r.try_get("label")?,
            quantity,
            unit_price: price,
            total: price * quantity,
            origin: r.try_get("origin")?,
            bundle_id: r.try_get("bundle_id")?,
            remaining_time: (expires - now).max(0),
            is_digital: r.try_get::<i64, _>("digital")? == 1,
        });
    }
    let mut vouchers = if !has_vouchers {
        Vec::new()
    } else {
        sqlx::query(
            // A voucher past its dates no longer counts, even if it was put in the cart in time.
            "SELECT v.id, v.code, v.kind, v.discount_type, v.scope, v.value, v.automatic FROM cart_vouchers c
           JOIN vouchers v ON v.id = c.voucher_id
          WHERE c.member_id = $1 AND (v.valid_from IS NULL OR v.valid_from <= $2)
            AND (v.valid_until IS NULL OR v.valid_until > $2)
          ORDER BY c.created_at, v.id",
        )
        .bind(member_id)
        .bind(now)
        .fetch_all(&db.pool)
        .await?
    };
    if has_automatic && !items.is_empty() {
        vouchers.extend(automatic_vouchers(db, member_id, now).await?);
    }
    let mut cart_vouchers = Vec::new();
    let mut voucher_rules = Vec::new();
    for r in &vouchers {
        let v = CartVoucher {
            voucher_id: r.try_get("id")?,
            code: r.try_get("code")?,
            kind: r.try_get("kind")?,
            discount_type: r.try_get("discount_type")?,
            scope: r.try_get("scope")?,
            value: r.try_get("value")?,
            amount: 0,
            automatic: r.try_get::<i64, _>("automatic")? == 1,
        };
        voucher_rules.push(rules::VoucherRule {
            percent: v.discount_type == "PERCENT",
            shipping: v.scope == "SHIPPING",
            value: v.value,
        });
        cart_vouchers.push(v);
    }
    let loyalty = row.as_ref().and_then(|r| r.loyalty).and_then(|id| {
        rules::loyalty_product(id).map(|(price, key)| LoyaltyItem {
            product_id: id,
            quantity: rules::LOYALTY_QUANTITY,
            price,
            label_key: key.to_string(),
        })
    });
    let priced: Vec<(i64, i64)> = items.iter().map(|l| (l.unit_price, l.quantity)).collect();
    let (totals, amounts) = rules::totals(
        &priced,
        rules::needs_delivery(&items),
        &voucher_rules,
        loyalty.as_ref().map(|l| l.price).unwrap_or(0),
    );
    for (v, a) in cart_vouchers.iter_mut().zip(amounts) {
        v.amount = a;
    }
    let recovery_rows = if !has_recovery {
        Vec::new()
    } else {
        sqlx::query(
            "SELECT r.option_id, r.kind, r.quantity, p.name, o.label FROM cart_recovery r
           JOIN product_options o ON o.id = r.option_id JOIN products p ON p.id = o.product_id
          WHERE r.member_id = $1 ORDER BY r.created_at, r.option_id",
        )
        .bind(member_id)
        .fetch_all(&db.pool)
        .await?
    };
    let mut recovery = Vec::new();
    let mut suspended = false;
    for r in &recovery_rows {
        if r.try_get::<String, _>("kind")? == "suspended" {
            suspended = true;
        }
        recovery.push(RecoveryLine {
            product_id: r.try_get::<i64, _>("option_id")?.to_string(),
            name: r.try_get("name")?,
            option_label: r.try_get("label")?,
            quantity: r.try_get("quantity")?,
        });
    }
    let remaining = items.iter().map(|l| l.remaining_time).min().unwrap_or(0);
    let expired = row.as_ref().is_some_and(|r| r.expired_notice);
    let (soon, expired) = rules::expiry_notices(remaining, expired);
    let has_lines = !items.is_empty();
    Ok(Cart {
        cart_type: row
            .as_ref()
            .and_then(|r| r.cart_type.clone())
            .filter(|_| has_lines),
        status: row
            .as_ref()
            .map(|r| r.status.clone())
            .unwrap_or_else(|| "open".into()),
        cart_hash: row.as_ref().and_then(|r| r.cart_hash.clone()),
        items,
        loyalty,
        vouchers: cart_vouchers,
        totals,
        currency: "EUR".into(),
        remaining_time: remaining,
        has_notify_basket_expire_soon: soon,
        has_notify_basket_expired: expired,
        has_suspended_order: suspended,
        recovery,
    })
}
