//! Bundles (`app::product::bundle`): on every site the first sale sells its Carrousel item
//! (the eighth product, type 7) with the two products after it, so its catalog shows the
//! strip and each of the three product pages the bundle.
use app::site::SITES;
use sqlx::{Any, Transaction};

/// The first sale's products in the bundle, by position in the sale (`k` of the catalog).
const POSITIONS: [i64; 3] = [7, 8, 9];

pub(super) async fn insert(tx: &mut Transaction<'_, Any>) -> Result<(), sqlx::Error> {
    for site_index in 0..SITES.len() {
        // As `catalog::generate` numbers them: sales from 1000 × (index + 1) + 1, products
        // from 100 × sale + 1. The bundle takes its sale's id.
        let sale_id = (site_index as i64 + 1) * 1000 + 1;
        sqlx::query("INSERT INTO bundles (id, sale_id) VALUES ($1, $1) ON CONFLICT DO NOTHING")
            .bind(sale_id)
            .execute(&mut **tx)
            .await?;
        for (position, k) in POSITIONS.iter().enumerate() {
            sqlx::query(
                "INSERT INTO bundle_items (bundle_id, product_id, position)
                 SELECT $1, id, $3 FROM products WHERE id = $2 AND sale_id = $1
                 ON CONFLICT DO NOTHING",
            )
            .bind(sale_id)
            .bind(sale_id * 100 + k + 1)
            .bind(position as i64)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}
