use std::collections::HashMap;
use std::sync::Mutex;

use sqlx::Row;

use crate::catalog::rules::{keep_banner, sale_picture_url, SalePicture};
use crate::home::rules::{reduce, LiveWindow};
use crate::model::catalog::SaleCard;
use crate::model::home::{Banner, Home, HomeModule, ModuleSettings, NewMemberOverlay};
use crate::platform::db::Db;

/// Live sales of a site, in display order, with their cheapest price and best discount.
pub async fn live_sales(db: &Db, site_id: u16, now: i64) -> Result<Vec<SaleCard>, sqlx::Error> {
    live_sales_in(db, site_id, LiveWindow::now(now)).await
}

/// Sales of a site live within `window` (now, or a previewed day).
pub async fn live_sales_in(
    db: &Db,
    site_id: u16,
    window: LiveWindow,
) -> Result<Vec<SaleCard>, sqlx::Error> {
    // The "from" price is the lowest any option costs (an option may have its own).
    let rows = sqlx::query(concat!(
        "SELECT s.id, s.name, s.slug, s.offer_type, s.ends_at, s.banner_image_id, s.logo_image_id,
                (SELECT MIN(u.id) FROM universes u WHERE u.sale_id = s.id AND u.parent_id IS NULL) AS first_universe,
                (SELECT MIN(",
        crate::platform::sql::option_price!(),
        ") FROM products p LEFT JOIN product_options o ON o.product_id = p.id
                  WHERE p.sale_id = s.id AND ",
        crate::platform::sql::shown_p!(),
        ") AS min_price,
                (SELECT MAX((p.retail_price_cents - p.price_cents) * 100 / p.retail_price_cents)
                   FROM products p WHERE p.sale_id = s.id AND p.retail_price_cents > 0 AND ",
        crate::platform::sql::shown_p!(),
        ") AS max_discount
           FROM sales s
          WHERE s.site_id = $1 AND s.starts_at < $3 AND s.ends_at > $2 AND s.campaign_kind = 'DEFAULT'
          ORDER BY s.position, s.id"
    ))
    .bind(i64::from(site_id))
    .bind(window.from)
    .bind(window.until)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let id: i64 = r.try_get("id")?;
            Ok(SaleCard {
                id,
                name: r.try_get("name")?,
                offer_type: r.try_get("offer_type")?,
                seo_slug: r.try_get("slug")?,
                first_universe_id: r.try_get::<Option<i64>, _>("first_universe")?.unwrap_or(0),
                end_date: r.try_get("ends_at")?,
                banner_url: sale_picture_url(
                    id,
                    SalePicture::Banner,
                    r.try_get("banner_image_id")?,
                ),
                logo_url: sale_picture_url(id, SalePicture::Logo, r.try_get("logo_image_id")?),
                min_price_cents: r.try_get("min_price")?,
                max_discount_percent: r
                    .try_get::<Option<i64>, _>("max_discount")?
                    .filter(|d| *d > 0),
            })
        })
        .collect()
}

/// How long a site's sale list is reused. Every visitor of a site sees the same list, so a
/// few seconds of reuse take the query off the hot path; a sale that just ended may show
/// for at most this long.
pub const CACHE_SECS: i64 = 5;

type HomeKey = (u16, String, bool, Option<i64>, bool);

/// Short-lived copies of what every visitor of a site sees: its live sales and its homes.
/// Owned by the application state (one per database), never a process-wide static.
/// It also carries the home settings, so pages and the REST call read the same ones.
#[derive(Default)]
pub struct HomeCache {
    sales: Mutex<HashMap<u16, (i64, Vec<SaleCard>)>>,
    homes: Mutex<HashMap<HomeKey, (i64, Option<Home>)>>,
    settings: crate::home::settings::HomeSettings,
}

impl HomeCache {
    pub fn new(settings: crate::home::settings::HomeSettings) -> HomeCache {
        HomeCache {
            settings,
            ..Default::default()
        }
    }

    /// The `previewDate` of a request as the server takes it: `None` when it is empty or
    /// when previews are off (review L6: nobody else sees upcoming sales).
    pub fn preview_date<'a>(&self, asked: Option<&'a str>) -> Option<&'a str> {
        asked
            .map(str::trim)
            .filter(|d| self.settings.preview_dates && !d.is_empty())
    }
}

/// [`live_sales`] through the short cache (the database stays the truth).
pub async fn live_sales_cached(
    db: &Db,
    cache: &HomeCache,
    site_id: u16,
    now: i64,
) -> Result<Vec<SaleCard>, sqlx::Error> {
    if let Some((at, sales)) = cache
        .sales
        .lock()
        .ok()
        .and_then(|c| c.get(&site_id).cloned())
    {
        if now - at < CACHE_SECS && now >= at {
            return Ok(sales.into_iter().filter(|s| s.end_date > now).collect());
        }
    }
    let sales = live_sales(db, site_id, now).await?;
    if let Ok(mut c) = cache.sales.lock() {
        c.insert(site_id, (now, sales.clone()));
    }
    Ok(sales)
}

/// How a home is asked for (spec 000 §7 "homes by id or name").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HomeQuery {
    /// A home name (case-insensitive) or a numeric id.
    pub key: String,
    pub reduced: bool,
    /// Start of the previewed day (unix seconds), when previewed.
    pub preview_day: Option<i64>,
    pub preview_date: Option<String>,
    /// Keep sale, campaign and split banners without a mobile image.
    pub skip_mobile_check: bool,
}

/// Empty text stored for "none".
fn non_empty(text: String) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// The site's home `q.key` with its modules and banners: banners of sales not live within
/// the window and banners failing the mobile-image check are dropped; `source: liveSales`
/// group modules get the live sales. `None` when the site has no such home.
pub async fn home(
    db: &Db,
    site_id: u16,
    q: &HomeQuery,
    now: i64,
) -> Result<Option<Home>, sqlx::Error> {
    let window = match q.preview_day {
        Some(day) => LiveWindow::preview(now, day),
        None => LiveWindow::now(now),
    };
    let key = q.key.trim();
    let id_key = key.parse::<i64>().unwrap_or(-1);
    let Some(row) = sqlx::query(
        "SELECT id, type, name, display_name, is_reduced, theme, information_toast, new_member_title,
                new_member_text, background_theme, member_information, scroll_depth FROM homes
          WHERE site_id = $1 AND (LOWER(name) = LOWER($2) OR id = $3)
          ORDER BY id LIMIT 1",
    )
    .bind(i64::from(site_id))
    .bind(key)
    .bind(id_key)
    .fetch_optional(&db.pool)
    .await?
    else {
        return Ok(None);
    };
    let home_id: i64 = row.try_get("id")?;
    let stored_reduced = row.try_get::<i64, _>("is_reduced")? != 0;
    let mut modules: Vec<HomeModule> = Vec::new();
    for m in sqlx::query(
        "SELECT id, kind, name, title, settings FROM home_modules
          WHERE home_id = $1 ORDER BY position, id",
    )
    .bind(home_id)
    .fetch_all(&db.pool)
    .await?
    {
        let settings: String = m.try_get("settings")?;
        modules.push(HomeModule {
            id: m.try_get("id")?,
            kind: m.try_get("kind")?,
            name: m.try_get("name")?,
            title: m.try_get("title")?,
            settings: serde_json::from_str::<ModuleSettings>(&settings).unwrap_or_default(),
            banners: Vec::new(),
            sales: Vec::new(),
        });
    }
    let banners = sqlx::query(
        "SELECT b.id, b.module_id, b.kind, b.sale_id, b.title, b.image_url, b.mobile_image_url,
                b.link, b.tile_size, b.layout, b.advertising_type, s.name AS sale_name, s.slug AS sale_slug,
                s.starts_at, s.ends_at,
                (SELECT MIN(u.id) FROM universes u WHERE u.sale_id = s.id AND u.parent_id IS NULL)
                  AS first_universe
           FROM banners b
           JOIN home_modules m ON m.id = b.module_id
           LEFT JOIN sales s ON s.id = b.sale_id AND s.site_id = $2
          WHERE m.home_id = $1
          ORDER BY b.module_id, b.position, b.id",
    )
    .bind(home_id)
    .bind(i64::from(site_id))
    .fetch_all(&db.pool)
    .await?;
    for b in banners {
        let kind: String = b.try_get("kind")?;
        let mobile: String = b.try_get("mobile_image_url")?;
        if !keep_banner(&kind, &mobile, q.skip_mobile_check) {
            continue;
        }
        let sale_id: Option<i64> = b.try_get("sale_id")?;
        let (starts, ends): (Option<i64>, Option<i64>) =
            (b.try_get("starts_at")?, b.try_get("ends_at")?);
        if sale_id.is_some() {
            // A banner of a sale shows only while that sale is live (for the day).
            match (starts, ends) {
                (Some(s), Some(e)) if window.contains(s, e) => {}
                _ => continue,
            }
        }
        let module_id: i64 = b.try_get("module_id")?;
        let Some(module) = modules.iter_mut().find(|m| m.id == module_id) else {
            continue;
        };
        let mut title: String = b.try_get("title")?;
        if title.is_empty() {
            title = b
                .try_get::<Option<String>, _>("sale_name")?
                .unwrap_or_default();
        }
        let mut link: String = b.try_get("link")?;
        if link.is_empty() {
            if let Some(id) = sale_id {
                let universe = b.try_get::<Option<i64>, _>("first_universe")?.unwrap_or(0);
                let slug = b
                    .try_get::<Option<String>, _>("sale_slug")?
                    .unwrap_or_default();
                // The open-door variant: members and visitors can both follow it.
                link = format!("/c/{slug}/{id}/{universe}");
            }
        }
        module.banners.push(Banner {
            id: b.try_get("id")?,
            kind: kind.clone(),
            sale_id,
            title,
            image_url: b.try_get("image_url")?,
            mobile_image_url: mobile,
            link,
            tile_size: b.try_get("tile_size")?,
            layout: b.try_get("layout")?,
            end_date: sale_id.and(ends),
            advertising_type: super::rules::advertising_type(
                &kind,
                &b.try_get::<String, _>("advertising_type")?,
            ),
        });
    }
    let reduced = q.reduced || stored_reduced;
    if reduced {
        modules = reduce(modules);
    }
    if modules
        .iter()
        .any(|m| m.settings.source.as_deref() == Some("liveSales"))
    {
        let sales = live_sales_in(db, site_id, window).await?;
        for m in modules
            .iter_mut()
            .filter(|m| m.settings.source.as_deref() == Some("liveSales"))
        {
            m.sales = sales.clone();
        }
    }
    Ok(Some(Home {
        id: home_id,
        kind: row.try_get("type")?,
        name: row.try_get("name")?,
        display_name: row.try_get("display_name")?,
        is_reduced: reduced,
        preview_date: q.preview_date.clone(),
        theme: crate::site::theme::Theme::sale_theme(&row.try_get::<String, _>("theme")?, "")
            .to_string(),
        information_section_toast: non_empty(row.try_get("information_toast")?),
        new_member_overlay: non_empty(row.try_get("new_member_title")?).map(|title| {
            NewMemberOverlay {
                title,
                text: row.try_get("new_member_text").unwrap_or_default(),
            }
        }),
        background_theme: crate::home::rules::background_theme(
            &row.try_get::<String, _>("background_theme")?,
        )
        .to_string(),
        member_information: non_empty(row.try_get("member_information")?),
        scroll_depth: row.try_get::<i64, _>("scroll_depth")? != 0,
        modules,
    }))
}

/// [`home`] through the short cache (per site, home key, reduced flag, previewed
/// day and mobile check), for [`CACHE_SECS`]. Sales and sale banners that ended since are
/// taken out of a reused home.
pub async fn home_cached(
    db: &Db,
    cache: &HomeCache,
    site_id: u16,
    q: &HomeQuery,
    now: i64,
) -> Result<Option<Home>, sqlx::Error> {
    let key = (
        site_id,
        q.key.trim().to_lowercase(),
        q.reduced,
        q.preview_day,
        q.skip_mobile_check,
    );
    let hit = cache.homes.lock().ok().and_then(|c| c.get(&key).cloned());
    if let Some((at, home)) = hit {
        if now - at < CACHE_SECS && now >= at {
            return Ok(home.map(|mut h| {
                for m in &mut h.modules {
                    m.sales.retain(|s| s.end_date > now);
                    m.banners.retain(|b| b.end_date.is_none_or(|e| e > now));
                }
                h
            }));
        }
    }
    let home = home(db, site_id, q, now).await?;
    if let Ok(mut c) = cache.homes.lock() {
        // Old entries go when the cache grows (names come from URLs).
        if c.len() > 512 {
            c.retain(|_, (at, _)| now - *at < CACHE_SECS);
        }
        c.insert(key, (now, home.clone()));
    }
    Ok(home)
}
