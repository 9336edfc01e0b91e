//! A sale, whether it is live, and its universe tree.
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::catalog::rules::{sale_picture_url, SalePicture};
use crate::model::catalog_api::*;
use crate::platform::db::Db;
use crate::platform::sql::live_window;

pub(super) async fn live_sale_row(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    now: i64,
) -> Result<Option<AnyRow>, sqlx::Error> {
    sqlx::query(&format!(
        "SELECT s.id, s.name, s.offer_type, s.ends_at, s.description, s.legal_merchant, s.legal_terms,
                s.with_quotation_price, s.with_map, s.theme, s.seller_kind, s.banner_image_id, s.logo_image_id,
                s.catalog_type, s.marketing_banner_title, s.marketing_banner_text,
                s.marketing_insert_title, s.marketing_insert_text, s.products_listing_cgu,
                s.seo_title, s.seo_description, s.seo_footer
           FROM sales s WHERE s.id = $1 AND s.site_id = $2 AND {}",
        live_window("$3")
    ))
    .bind(sale_id)
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_optional(&db.pool)
    .await
}

/// Whether a sale is live on the site, without loading its tree.
pub async fn sale_is_live(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    Ok(live_sale_row(db, site_id, sale_id, now).await?.is_some())
}

pub async fn sale(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    now: i64,
) -> Result<Option<Sale>, sqlx::Error> {
    let Some(r) = live_sale_row(db, site_id, sale_id, now).await? else {
        return Ok(None);
    };
    let universes = catalog_tree(db, sale_id).await?;
    Ok(Some(Sale {
        id: sale_id,
        name: r.try_get("name")?,
        offer_type: r.try_get("offer_type")?,
        end_date: r.try_get("ends_at")?,
        banner: sale_picture_url(sale_id, SalePicture::Banner, r.try_get("banner_image_id")?),
        logo: sale_picture_url(sale_id, SalePicture::Logo, r.try_get("logo_image_id")?),
        description: r.try_get("description")?,
        features: SaleFeatures {
            with_quotation_price: r.try_get::<i64, _>("with_quotation_price")? == 1,
            with_map: r.try_get::<i64, _>("with_map")? == 1,
        },
        legal: SaleLegal {
            merchant: r.try_get("legal_merchant")?,
            terms_of_service: r.try_get("legal_terms")?,
            products_listing_cgu: r.try_get("products_listing_cgu")?,
        },
        universes,
        theme: crate::site::theme::Theme::sale_theme(
            &r.try_get::<String, _>("theme")?,
            &r.try_get::<String, _>("seller_kind")?,
        )
        .to_string(),
        catalog_type: r.try_get("catalog_type")?,
        marketing: SaleMarketing {
            banner: MarketingMessage::of(
                r.try_get("marketing_banner_title")?,
                r.try_get("marketing_banner_text")?,
            ),
            insert: MarketingMessage::of(
                r.try_get("marketing_insert_title")?,
                r.try_get("marketing_insert_text")?,
            ),
        },
        state: SaleState::default(),
        seo_config: SeoConfig::of(
            r.try_get("seo_title")?,
            r.try_get("seo_description")?,
            &r.try_get::<String, _>("seo_footer")?,
        ),
    }))
}

/// Universes and sub-universes of a sale with the ids of their products.
pub async fn catalog_tree(db: &Db, sale_id: i64) -> Result<Vec<Universe>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, parent_id, title FROM universes WHERE sale_id = $1 ORDER BY position, id",
    )
    .bind(sale_id)
    .fetch_all(&db.pool)
    .await?;
    let products = sqlx::query(
        "SELECT id, universe_id FROM products WHERE sale_id = $1 AND moderation IN ('', 'restricted')
          ORDER BY position, id",
    )
    .bind(sale_id)
    .fetch_all(&db.pool)
    .await?;
    let mut by_universe: std::collections::HashMap<i64, Vec<i64>> = Default::default();
    for p in &products {
        by_universe
            .entry(p.try_get("universe_id")?)
            .or_default()
            .push(p.try_get("id")?);
    }
    let mut flat = Vec::new();
    for r in &rows {
        let id: i64 = r.try_get("id")?;
        flat.push((
            id,
            r.try_get::<Option<i64>, _>("parent_id")?,
            r.try_get::<String, _>("title")?,
        ));
    }
    let universe = |id: i64, title: String, subs: Vec<Universe>| Universe {
        id,
        title,
        products: by_universe.get(&id).cloned().unwrap_or_default(),
        sub_universes: subs,
    };
    Ok(flat
        .iter()
        .filter(|(_, parent, _)| parent.is_none())
        .map(|(id, _, title)| {
            let subs = flat
                .iter()
                .filter(|(_, parent, _)| *parent == Some(*id))
                .map(|(sid, _, st)| universe(*sid, st.clone(), vec![]))
                .collect();
            universe(*id, title.clone(), subs)
        })
        .collect())
}
