//! The header's content (spec 001 §2, §7 "Header"): home tabs from the site's homes,
//! header categories from the live sales and their universes, the member's newest
//! messages. Read-only; one source for the server-rendered header and for
//! `GET /api/content/v1/header` and `GET /api/content/v1/homes/headers`.
use sqlx::Row;

use super::model::{HeaderContent, HeaderMessage, HomeHeader};
use super::rules::{self, Audience, HomeModule, LiveSale, SaleUniverse};
use crate::home::rules::LiveWindow;
use crate::model::home::ModuleSettings;
use crate::platform::db::Db;
use crate::site::i18n;

/// How many of the newest messages the bell lists.
pub const BELL_MESSAGES: i64 = 3;

/// The site's homes as header tabs (the default home first), each leading where
/// `audience` may go (`rules::home_tab_href`: the travel tab is `/voyages` for a visitor),
/// with at most 7 modules labelled in `lang` (`rules::home_module_links`), and transparent
/// when its hero band is dark enough (`rules::transparent_hero` of `homes.header_hero`).
pub async fn home_headers(
    db: &Db,
    site_id: u16,
    lang: &str,
    audience: Audience,
) -> Result<Vec<HomeHeader>, sqlx::Error> {
    let homes = sqlx::query(
        "SELECT id, name, display_name, type, header_hero FROM homes WHERE site_id = $1
          ORDER BY CASE WHEN name = 'default' THEN 0 ELSE 1 END, id",
    )
    .bind(i64::from(site_id))
    .fetch_all(&db.pool)
    .await?;
    let modules = sqlx::query(
        "SELECT m.home_id, m.name, m.title, m.settings FROM home_modules m JOIN homes h ON h.id = m.home_id
          WHERE h.site_id = $1 ORDER BY m.home_id, m.position, m.id",
    )
    .bind(i64::from(site_id))
    .fetch_all(&db.pool)
    .await?;
    let mut by_home: Vec<(i64, HomeModule)> = Vec::with_capacity(modules.len());
    for m in &modules {
        let settings: ModuleSettings =
            serde_json::from_str(&m.try_get::<String, _>("settings")?).unwrap_or_default();
        by_home.push((
            m.try_get("home_id")?,
            HomeModule {
                name: m.try_get("name")?,
                title: m.try_get("title")?,
                live_sales: settings.source.as_deref() == Some("liveSales"),
            },
        ));
    }
    let mut out = Vec::with_capacity(homes.len());
    for h in &homes {
        let id: i64 = h.try_get("id")?;
        let name: String = h.try_get("name")?;
        let kind: String = h.try_get("type")?;
        let Some(href) = rules::home_tab_href(audience, &name, &kind) else {
            continue;
        };
        let label = match (name.as_str(), kind.as_str()) {
            ("default", _) => i18n::t(lang, "menu.home"),
            (_, "TRAVEL") => i18n::t(lang, "menu.travel"),
            _ => h.try_get("display_name")?,
        };
        let modules = if kind == "TRAVEL" {
            Vec::new()
        } else {
            let home_path = if name == "default" {
                "/gr/home/default".to_string()
            } else {
                href.clone()
            };
            let own: Vec<HomeModule> = by_home
                .iter()
                .filter(|(home, _)| *home == id)
                .map(|(_, m)| m.clone())
                .collect();
            rules::home_module_links(&home_path, &own, |key| i18n::t(lang, key))
        };
        let hero = rules::transparent_hero(&h.try_get::<String, _>("header_hero")?);
        out.push(HomeHeader {
            id,
            transparent: hero.is_some(),
            hero_color: hero.unwrap_or_default(),
            name,
            label,
            kind,
            href,
            modules,
        });
    }
    Ok(out)
}

/// The header of a site for a member (or a visitor), with the sales live in `window`.
pub async fn header(
    db: &Db,
    site_id: u16,
    member_id: Option<i64>,
    window: LiveWindow,
) -> Result<HeaderContent, sqlx::Error> {
    let lang = i18n::lang_of(crate::site::by_id_or_default(site_id).locale);
    let audience = if member_id.is_some() {
        Audience::Member
    } else {
        Audience::Visitor
    };
    let sales: Vec<LiveSale> = crate::home::store::live_sales_in(db, site_id, window)
        .await?
        .into_iter()
        .map(|s| LiveSale {
            id: s.id,
            name: s.name,
            first_universe_id: s.first_universe_id,
            seo_slug: s.seo_slug,
            logo_url: s.logo_url,
        })
        .collect();
    let universes = sqlx::query(
        "SELECT u.sale_id, u.id, u.title FROM universes u JOIN sales s ON s.id = u.sale_id
          WHERE s.site_id = $1 AND s.starts_at < $3 AND s.ends_at > $2 AND s.campaign_kind = 'DEFAULT'
          ORDER BY u.sale_id, CASE WHEN u.parent_id IS NULL THEN 0 ELSE 1 END, u.position, u.id",
    )
    .bind(i64::from(site_id))
    .bind(window.from)
    .bind(window.until)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(SaleUniverse {
            sale_id: r.try_get("sale_id")?,
            id: r.try_get("id")?,
            title: r.try_get("title")?,
        })
    })
    .collect::<Result<Vec<_>, sqlx::Error>>()?;
    let (unread_count, messages) = match member_id {
        Some(m) => (
            crate::help::store::unread_count(db, m).await?,
            bell_messages(db, lang, m).await?,
        ),
        None => (0, Vec::new()),
    };
    Ok(HeaderContent {
        site_id,
        member_id,
        home_tabs: home_headers(db, site_id, lang, audience).await?,
        categories: rules::header_categories(&sales, &universes, audience),
        unread_count,
        messages,
    })
}

/// The member's newest messages for the header's bell, labelled in `lang`.
pub async fn bell_messages(
    db: &Db,
    lang: &str,
    member_id: i64,
) -> Result<Vec<HeaderMessage>, sqlx::Error> {
    Ok(
        crate::help::store::notifications(db, member_id, BELL_MESSAGES)
            .await?
            .into_iter()
            .map(|n| HeaderMessage {
                id: n.id,
                label: match (n.kind.as_str(), n.subject_title, n.status) {
                    ("ticket", Some(subject), _) => {
                        i18n::t_with(lang, "shell.bell.ticket", &[("subject", &subject)])
                    }
                    (_, _, Some(status)) => i18n::t_with(
                        lang,
                        "shell.bell.order",
                        &[
                            ("order", &n.order_id.unwrap_or_default().to_string()),
                            ("status", &i18n::t(lang, &format!("help.status.{status}"))),
                        ],
                    ),
                    _ => i18n::t(lang, "header.messages"),
                },
                href: format!("/gr/my-notifications/?notification={}", n.id),
                read: n.read,
                created_at: n.created_at,
            })
            .collect(),
    )
}
