use sqlx::Row;

use crate::cart::store::Viewer;
use crate::model::catalog::ProductDetail;
use crate::model::catalog_api::{Bundle, BundleItem, Price};
use crate::platform::db::Db;
use crate::platform::sql::live_window;

/// A product of a live sale of the site, or `None`. The data sheet is sanitised here, so no
/// caller can render seller HTML unfiltered.
pub async fn product(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    product_id: i64,
    viewer: Viewer,
    now: i64,
) -> Result<Option<ProductDetail>, sqlx::Error> {
    let member_id = viewer.member_id;
    let row = sqlx::query(&format!(
        "SELECT p.id, p.image_id, p.name, p.price_cents, p.retail_price_cents, p.color, p.tier, p.delivery_mode,
                p.seller_kind, p.description_html, s.name AS sale_name,
                s.theme AS sale_theme, s.seller_kind AS sale_seller_kind, COALESCE(b.name, '') AS brand, b.id AS brand_id
           FROM products p
           JOIN sales s ON s.id = p.sale_id
           LEFT JOIN brands b ON b.id = p.brand_id
          WHERE p.id = $1 AND p.sale_id = $2 AND s.site_id = $3 AND {} AND {}",
        live_window("$4"),
        crate::platform::sql::shown("p")
    ))
    .bind(product_id)
    .bind(sale_id)
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let options =
        crate::catalog::store::item_options(db, site_id, sale_id, product_id, viewer, now)
            .await?
            .unwrap_or_default();
    let favorite = crate::catalog::store::is_favourite(db, member_id, product_id).await?;
    let html: String = row.try_get("description_html")?;
    Ok(Some(ProductDetail {
        id: row.try_get("id")?,
        sale_id,
        sale_name: row.try_get("sale_name")?,
        name: row.try_get("name")?,
        brand: row.try_get("brand")?,
        brand_id: row.try_get("brand_id")?,
        image_url: crate::catalog::rules::product_image_url(product_id, row.try_get("image_id")?),
        price_cents: row.try_get("price_cents")?,
        retail_price_cents: row.try_get("retail_price_cents")?,
        options,
        favorite,
        color: row.try_get("color")?,
        tier: row.try_get("tier")?,
        delivery_mode: row.try_get("delivery_mode")?,
        seller_kind: row.try_get("seller_kind")?,
        html_datasheet: crate::text::sanitize::data_sheet(&html),
        // The sale's theme, as its catalog page and the sale call have it.
        theme: crate::site::theme::Theme::sale_theme(
            &row.try_get::<String, _>("sale_theme")?,
            &row.try_get::<String, _>("sale_seller_kind")?,
        )
        .to_string(),
        bundle: bundle_of(db, site_id, sale_id, product_id, viewer, now).await?,
    }))
}

/// The bundle a product of a live sale is sold in (its first, if the operators put it in
/// more than one), or `None`.
pub async fn bundle_of(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    product_id: i64,
    viewer: Viewer,
    now: i64,
) -> Result<Option<Bundle>, sqlx::Error> {
    let id: Option<i64> = sqlx::query_scalar(
        "SELECT MIN(bi.bundle_id) FROM bundle_items bi JOIN bundles b ON b.id = bi.bundle_id
          WHERE bi.product_id = $1 AND b.sale_id = $2",
    )
    .bind(product_id)
    .bind(sale_id)
    .fetch_one(&db.pool)
    .await?;
    match id {
        Some(id) => bundle(db, site_id, sale_id, id, viewer, now).await,
        None => Ok(None),
    }
}

/// A bundle of a live sale of the site with its products on show (in the operators'
/// order) and their options, or `None`; a bundle down to one product on show is none.
pub async fn bundle(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    bundle_id: i64,
    viewer: Viewer,
    now: i64,
) -> Result<Option<Bundle>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT p.id, p.image_id, p.name, p.price_cents, p.retail_price_cents, p.seller_kind,
                COALESCE(br.name, '') AS brand
           FROM bundle_items bi
           JOIN bundles bu ON bu.id = bi.bundle_id
           JOIN products p ON p.id = bi.product_id
           JOIN sales s ON s.id = p.sale_id
           LEFT JOIN brands br ON br.id = p.brand_id
          WHERE bi.bundle_id = $1 AND bu.sale_id = $2 AND p.sale_id = $2 AND s.site_id = $3
            AND {} AND {}
          ORDER BY bi.position, p.id",
        live_window("$4"),
        crate::platform::sql::shown("p")
    ))
    .bind(bundle_id)
    .bind(sale_id)
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    if rows.len() < 2 {
        return Ok(None);
    }
    let mut items = Vec::with_capacity(rows.len());
    for r in rows {
        let id: i64 = r.try_get("id")?;
        let options = crate::catalog::store::item_options(db, site_id, sale_id, id, viewer, now)
            .await?
            .unwrap_or_default();
        items.push(BundleItem {
            product_id: id,
            name: r.try_get("name")?,
            brand: r.try_get("brand")?,
            image_url: crate::catalog::rules::product_image_url(id, r.try_get("image_id")?),
            price: Price {
                value: r.try_get("price_cents")?,
                retail_value: r.try_get("retail_price_cents")?,
                unit: "EUR".into(),
            },
            options,
            seller_kind: r.try_get("seller_kind")?,
        });
    }
    Ok(Some(Bundle {
        id: bundle_id,
        sale_id,
        items,
    }))
}

/// Whether a moderator removed the product for good (its page answers 410; a disabled
/// one, which may come back, answers 404).
pub async fn taken_off(db: &Db, product_id: i64) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM products WHERE id = $1 AND moderation = 'removed'",
    )
    .bind(product_id)
    .fetch_one(&db.pool)
    .await?;
    Ok(n > 0)
}
