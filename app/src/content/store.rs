//! The content area's SQL: landing pages and the live sales of their selection.
use sqlx::Row;

use crate::content::model::{ContentBlock, LandingLink, LandingSale, LandingTranslation};
use crate::platform::db::Db;
use crate::platform::sql::LIVE_SALE;

/// A landing page row as stored (blocks and paragraphs still JSON).
#[derive(Clone, Debug)]
pub struct LandingRow {
    pub slug: String,
    pub heading: String,
    pub seo_title: String,
    pub seo_description: String,
    pub blocks: Vec<ContentBlock>,
    pub footer_paragraphs: Vec<String>,
    pub selection_kind: String,
    pub selection_value: String,
    pub selection_limit: i64,
    /// Shared by the translations of this page on other sites; empty when it has none.
    pub translation_key: String,
}

pub async fn landing(db: &Db, site_id: u16, slug: &str) -> Result<Option<LandingRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT slug, heading, seo_title, seo_description, blocks, footer_paragraphs,
                selection_kind, selection_value, selection_limit, translation_key
           FROM landing_pages WHERE site_id = $1 AND slug = $2",
    )
    .bind(i64::from(site_id))
    .bind(slug)
    .fetch_optional(&db.pool)
    .await?;
    let Some(r) = row else { return Ok(None) };
    let blocks: String = r.try_get("blocks")?;
    let paragraphs: String = r.try_get("footer_paragraphs")?;
    Ok(Some(LandingRow {
        slug: r.try_get("slug")?,
        heading: r.try_get("heading")?,
        seo_title: r.try_get("seo_title")?,
        seo_description: r.try_get("seo_description")?,
        // Written by the demo data or an editor: unreadable JSON shows no blocks.
        blocks: serde_json::from_str(&blocks).unwrap_or_default(),
        footer_paragraphs: serde_json::from_str(&paragraphs).unwrap_or_default(),
        selection_kind: r.try_get("selection_kind")?,
        selection_value: r.try_get("selection_value")?,
        selection_limit: r.try_get("selection_limit")?,
        translation_key: r.try_get("translation_key")?,
    }))
}

/// The pages sharing a translation key, on any site, by site id: the caller keeps the
/// brand's sites.
pub async fn translations(db: &Db, key: &str) -> Result<Vec<LandingTranslation>, sqlx::Error> {
    if key.is_empty() {
        return Ok(Vec::new());
    }
    let rows = sqlx::query(
        "SELECT site_id, slug FROM landing_pages WHERE translation_key = $1 ORDER BY site_id, id",
    )
    .bind(key)
    .fetch_all(&db.pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let site_id: i64 = r.try_get("site_id")?;
        let Ok(site_id) = u16::try_from(site_id) else {
            continue;
        };
        out.push(LandingTranslation {
            site_id,
            slug: r.try_get("slug")?,
        });
    }
    Ok(out)
}

/// The slug of the site's landing page with this translation key (the first by display
/// order); `None` when the site has none.
pub async fn slug_by_key(db: &Db, site_id: u16, key: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT slug FROM landing_pages WHERE site_id = $1 AND translation_key = $2
          ORDER BY position, id LIMIT 1",
    )
    .bind(i64::from(site_id))
    .bind(key)
    .fetch_optional(&db.pool)
    .await
}

/// The site's landing pages in display order (footer, sitemap).
pub async fn landings(db: &Db, site_id: u16) -> Result<Vec<LandingLink>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT slug, heading FROM landing_pages WHERE site_id = $1 ORDER BY position, id",
    )
    .bind(i64::from(site_id))
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(LandingLink {
                slug: r.try_get("slug")?,
                heading: r.try_get("heading")?,
            })
        })
        .collect()
}

/// Live sales of the site (of one offer type when given), in the home's order.
pub async fn live_sales(
    db: &Db,
    site_id: u16,
    offer_type: Option<&str>,
    limit: i64,
    now: i64,
) -> Result<Vec<LandingSale>, sqlx::Error> {
    let sql = format!(
        "SELECT s.id, s.name, s.slug, s.description, s.ends_at, s.banner_image_id,
                (SELECT MIN(u.id) FROM universes u WHERE u.sale_id = s.id AND u.parent_id IS NULL) AS u
           FROM sales s
          WHERE {LIVE_SALE} AND ($3 = '' OR s.offer_type = $3)
          ORDER BY s.position, s.id LIMIT $4"
    );
    let rows = sqlx::query(&sql)
        .bind(i64::from(site_id))
        .bind(now)
        .bind(offer_type.unwrap_or(""))
        .bind(limit)
        .fetch_all(&db.pool)
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        // A sale without a universe has no catalog to open: left out.
        let Some(universe) = r.try_get::<Option<i64>, _>("u")? else {
            continue;
        };
        let id: i64 = r.try_get("id")?;
        let slug: String = r.try_get("slug")?;
        out.push(LandingSale {
            id,
            name: r.try_get("name")?,
            description: r.try_get("description")?,
            url: format!("/c/{slug}/{id}/{universe}"),
            image_url: crate::catalog::rules::sale_picture_url(
                id,
                crate::catalog::rules::SalePicture::Banner,
                r.try_get("banner_image_id")?,
            ),
            ends_at: r.try_get("ends_at")?,
        });
    }
    Ok(out)
}
