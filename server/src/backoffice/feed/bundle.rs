//! A sale's bundles from the feed (`FeedBundle`, `app::product::bundle`): each names 2 to
//! 20 products of the same sale by their refs; a bundle the feed made before gets the
//! feed's products in the feed's order, the demo's own stay as they are.
use sqlx::{Any, Transaction};

use super::super::sales::store::next_id;
use super::super::text;
use super::apply::Ctx;
use super::refs::{find, remember_new, Found};
use super::FeedBundle;

/// How many products a bundle holds (`app::product::bundle::MAX_CHOICES` at most).
const SIZES: std::ops::RangeInclusive<usize> = 2..=app::product::bundle::MAX_CHOICES;

pub(super) async fn apply_bundle(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    sale_id: i64,
    b: &FeedBundle,
) -> Result<(), sqlx::Error> {
    let mut ok = true;
    let reference = b.reference.trim();
    if reference.is_empty() || reference.chars().count() > 100 {
        ctx.err(
            &format!("{path}.ref"),
            text::t(ctx.lang, "import.bundle_ref"),
        );
        ok = false;
    }
    if !SIZES.contains(&b.products.len()) {
        ctx.err(
            &format!("{path}.products"),
            text::t(ctx.lang, "import.bundle_size"),
        );
        ok = false;
    }
    let mut products: Vec<i64> = Vec::with_capacity(b.products.len());
    for (k, r) in b.products.iter().enumerate() {
        let id = match find(tx, ctx.ids, "product", r.trim()).await? {
            Found::Known(id) | Found::Kept(id) => Some(id),
            Found::New(_) => None,
        };
        let of_sale = match id {
            Some(id) => sqlx::query_scalar::<_, i64>("SELECT sale_id FROM products WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut **tx)
                .await?
                .is_some_and(|s| s == sale_id),
            None => false,
        };
        match id.filter(|id| of_sale && !products.contains(id)) {
            Some(id) => products.push(id),
            None => {
                ctx.err(
                    &format!("{path}.products[{k}]"),
                    text::t(ctx.lang, "import.bundle_product"),
                );
                ok = false;
            }
        }
    }
    if !ok {
        return Ok(());
    }
    let (id, created) = match find(tx, ctx.ids, "bundle", reference).await? {
        // The demo's bundle is the owner's to change, not the demo's to undo.
        Found::Kept(_) => return Ok(()),
        Found::Known(id) => {
            let same: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM bundles WHERE id = $1 AND sale_id = $2")
                    .bind(id)
                    .bind(sale_id)
                    .fetch_one(&mut **tx)
                    .await?;
            if same == 0 {
                ctx.err(
                    &format!("{path}.ref"),
                    text::t(ctx.lang, "import.bundle_ref"),
                );
                return Ok(());
            }
            let now: Vec<i64> = sqlx::query_scalar(
                "SELECT product_id FROM bundle_items WHERE bundle_id = $1 ORDER BY position, product_id",
            )
            .bind(id)
            .fetch_all(&mut **tx)
            .await?;
            if now == products {
                ctx.out.unchanged += 1;
                return Ok(());
            }
            (id, false)
        }
        Found::New(given) => {
            let id = match given {
                Some(id) => id,
                None => next_id(tx, "bundles", 1).await?,
            };
            sqlx::query("INSERT INTO bundles (id, sale_id) VALUES ($1, $2)")
                .bind(id)
                .bind(sale_id)
                .execute(&mut **tx)
                .await?;
            remember_new(tx, ctx.ids, "bundle", reference, id).await?;
            (id, true)
        }
    };
    if created {
        ctx.out.created.bundles += 1;
    } else {
        ctx.out.updated.bundles += 1;
    }
    sqlx::query("DELETE FROM bundle_items WHERE bundle_id = $1")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    for (position, product) in products.iter().enumerate() {
        sqlx::query(
            "INSERT INTO bundle_items (bundle_id, product_id, position) VALUES ($1, $2, $3)",
        )
        .bind(id)
        .bind(product)
        .bind(position as i64)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}
