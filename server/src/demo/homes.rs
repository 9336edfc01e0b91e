//! Homes of every site: the default one, the travel one and a named one ("summer"), with
//! modules of every kind and banners in every tile size and layout. They use no random draw.
use sqlx::{Any, Transaction};

use app::site::i18n::lang_of;
use app::site::SITES;

use super::words::words;
use super::{insert, t, Rows, V};

/// The home rows of every site, in the order they are inserted.
#[derive(Default)]
pub(super) struct Homes {
    homes: Rows,
    modules: Rows,
    banners: Rows,
}

/// Generates the homes of all sites. Ids derive from the site's base (1000 × its position
/// in `SITES`, from 1, as for its sales): homes base + 0, 1, 2; modules base × 10 + m;
/// banners module × 100 + b.
pub(super) fn generate() -> Homes {
    let mut hs = Homes::default();
    for (site_index, site) in SITES.iter().enumerate() {
        let w = words(lang_of(site.locale));
        let base = (site_index as i64 + 1) * 1000;
        // A site without sponsorship has no page for it, so nothing of its home leads there.
        let sponsorship = !app::shell::rules::SPONSORSHIP_OFF_SITES.contains(&site.site_id);
        let site_id = i64::from(site.site_id);
        for (h, (name, display, kind, theme)) in [
            ("default", "default", "DEFAULT", ""),
            ("travel", "travel", "TRAVEL", ""),
            // The summer home asks for the green "recycle" theme (spec 000 §9).
            ("summer", w.summer, "DEFAULT", THEMED_HOME.1),
        ]
        .iter()
        .enumerate()
        {
            let home_id = base + h as i64;
            hs.homes.push(vec![
                V::I(home_id),
                V::I(site_id),
                t(*name),
                t(*display),
                t(*kind),
                t(*theme),
            ]);
        }
        let json = |v: serde_json::Value| v.to_string();
        let cta = |label: &str, link: &str| serde_json::json!({ "label": label, "link": link });
        // (home, kind, name, title, settings)
        let module_defs: [(i64, &str, &str, &str, String); 12] = [
            (
                base,
                "highlight",
                "highlights",
                w.home_highlight,
                "{}".into(),
            ),
            (
                base,
                "pedagogical",
                "pedagogy",
                w.pedagogical,
                json(serde_json::json!({
                    "subtitle": w.ped_subtitle,
                    "webTextColor": "#FFFFFF",
                    "backgroundColor": "#2B2D42",
                    "primaryButton": cta(w.ped_cta, "/gr/home/summer"),
                    "twoPerPage": true
                })),
            ),
            (base, "universe", "universes", w.universe_title, "{}".into()),
            // Every live sale of the site, as the flat grid.
            (
                base,
                "group",
                "sales",
                "",
                json(serde_json::json!({ "source": "liveSales" })),
            ),
            (base, "deal", "deals", w.deals, "{}".into()),
            (
                base,
                "text",
                "about",
                "",
                json(serde_json::json!({ "text": w.description })),
            ),
            (
                base + 2,
                "sectionBanner",
                "summer-banner",
                w.summer,
                "{}".into(),
            ),
            (
                base + 2,
                "pedagogical",
                "summer-pedagogy",
                w.pedagogical,
                json(serde_json::json!({
                    "subtitle": w.ped_subtitle,
                    "webTextColor": "#1D1D1F",
                    "backgroundColor": "#FFF4E0",
                    "primaryButton": cta(w.ped_cta, "/gr/home/default"),
                    "secondaryButton": sponsorship.then(|| cta(w.ped_cta2, "/gr/sponsorship"))
                })),
            ),
            // A module asking for a theme of its own: black and white.
            (
                base + 2,
                "subNavigationCategory",
                THEMED_MODULE.0,
                w.universe_title,
                THEMED_MODULE.1.into(),
            ),
            (
                base + 2,
                "group",
                "summer-sales",
                w.home_highlight,
                "{}".into(),
            ),
            // The travel home: its sales as banners, and a way back to the shop's homes.
            (
                base + 1,
                "highlight",
                "travel-highlights",
                w.home_highlight,
                "{}".into(),
            ),
            (
                base + 1,
                "universe",
                "travel-universes",
                w.universe_title,
                "{}".into(),
            ),
        ];
        // (kind, sale n (0: none), size, layout, mobile image, link)
        type B = (
            &'static str,
            i64,
            &'static str,
            &'static str,
            bool,
            &'static str,
        );
        let banner_defs: [&[B]; 12] = [
            &[
                ("SaleBanner", 1, "MEGAFAT", "2x2", true, ""),
                ("HighlightBanner", 2, "XL", "2x1", true, ""),
                ("CampaignBanner", 3, "XXL", "1x2", true, ""),
                ("SaleBanner", 4, "M", "1x1", true, ""),
                // No mobile image: the banner filter drops it.
                ("SplittedBanner", 5, "M", "1x1", false, ""),
                ("SaleBanner", 6, "M", "1x1", true, ""),
                // With these two, the tiles shown fill whole rows of 2, 3 and 4 columns (12
                // cells): no hole in the desktop grid.
                ("SaleBanner", 10, "M", "1x1", true, ""),
                ("SaleBanner", 11, "M", "1x1", true, ""),
            ],
            &[
                ("HighlightBanner", 7, "M", "1x1", true, ""),
                ("HighlightBanner", 8, "M", "1x1", true, ""),
                ("HighlightBanner", 9, "M", "1x1", true, ""),
            ],
            &[
                ("UniverseBanner", 0, "XL", "2x1", true, "/gr/home/summer"),
                ("UniverseBanner", 0, "XL", "2x1", true, "/home/travel"),
            ],
            &[],
            &[
                ("DealBanner", 12, "XL", "2x1", true, ""),
                ("DealBanner", 13, "M", "1x1", true, ""),
                ("MediaAdsBanner", 0, "M", "1x1", true, "/gr/sponsorship"),
            ],
            &[],
            &[("CampaignBanner", 14, "MEGAFAT", "2x2", true, "")],
            &[("HighlightBanner", 15, "M", "1x1", true, "")],
            &[
                ("ProductBanner", 16, "M", "1x1", true, "product"),
                ("ProductBanner", 17, "M", "1x1", true, "product"),
            ],
            &[
                ("SaleBanner", 18, "XXL", "1x2", true, ""),
                ("SaleBanner", 19, "XL", "2x1", true, ""),
                ("SaleBanner", 20, "M", "1x1", true, ""),
                ("SaleBanner", 21, "M", "1x1", true, ""),
            ],
            // Sales 25 to 27 are the site's travel sales.
            &[
                ("SaleBanner", 25, "XL", "2x1", true, "travel"),
                ("SaleBanner", 26, "M", "1x1", true, "travel"),
                ("SaleBanner", 27, "M", "1x1", true, "travel"),
            ],
            &[
                ("UniverseBanner", 0, "XL", "2x1", true, "/gr/home/default"),
                ("UniverseBanner", 0, "XL", "2x1", true, "/gr/home/summer"),
            ],
        ];
        for (m, ((home_id, kind, name, title, settings), defs)) in
            module_defs.iter().zip(banner_defs).enumerate()
        {
            let module_id = base * 10 + m as i64;
            hs.modules.push(vec![
                V::I(module_id),
                V::I(*home_id),
                t(*kind),
                t(*name),
                t(*title),
                t(settings.clone()),
                V::I(m as i64),
            ]);
            for (b, (banner_kind, n, size, layout, mobile, link)) in defs.iter().enumerate() {
                if !sponsorship && *link == "/gr/sponsorship" {
                    continue;
                }
                let b = b as i64;
                // Pictures of the sale (or of a sale of the site for sale-less banners).
                let picture = if *n > 0 { base + n } else { base + 10 + b };
                let sale = if *n > 0 { V::I(base + n) } else { V::NullI };
                let link = if *link == "product" {
                    format!("/product/{0}/{0}01", base + n)
                } else if *link == "travel" {
                    // The open-door travel catalog: members and visitors can follow it.
                    format!("/voyages/c/{}", base + n)
                } else {
                    link.to_string()
                };
                let title = if *banner_kind == "MediaAdsBanner" {
                    w.ped_cta2.to_string()
                } else if *n == 0 {
                    // A universe banner is named after the home it leads to.
                    match link.as_str() {
                        "/gr/home/default" => w.shop,
                        "/gr/home/summer" => w.summer,
                        "/home/travel" => w.travel,
                        _ => w.themes[(b % 8) as usize],
                    }
                    .to_string()
                } else {
                    String::new()
                };
                hs.banners.push(vec![
                    V::I(module_id * 100 + b),
                    V::I(module_id),
                    t(*banner_kind),
                    sale,
                    t(title),
                    t(format!("/img/sale/{picture}/banner.svg")),
                    t(if *mobile {
                        format!("/img/sale/{picture}/mobile.svg")
                    } else {
                        String::new()
                    }),
                    t(link),
                    t(*size),
                    t(*layout),
                    V::I(b),
                ]);
            }
        }
    }
    hs
}

impl Homes {
    /// Inserts the homes, then their modules and banners.
    pub(super) async fn insert(self, tx: &mut Transaction<'_, Any>) -> Result<(), sqlx::Error> {
        insert(
            tx,
            "homes",
            &["id", "site_id", "name", "display_name", "type", "theme"],
            self.homes,
        )
        .await?;
        insert(
            tx,
            "home_modules",
            &[
                "id", "home_id", "kind", "name", "title", "settings", "position",
            ],
            self.modules,
        )
        .await?;
        insert(
            tx,
            "banners",
            &[
                "id",
                "module_id",
                "kind",
                "sale_id",
                "title",
                "image_url",
                "mobile_image_url",
                "link",
                "tile_size",
                "layout",
                "position",
            ],
            self.banners,
        )
        .await?;
        Ok(())
    }
}

/// The demo home that asks for a theme (by name, on every site) and its theme.
pub const THEMED_HOME: (&str, &str) = ("summer", app::site::theme::RECYCLE);
/// The demo home whose header is transparent over its dark hero band, and the band's colour.
pub const HERO_HOME: (&str, &str) = ("summer", "#2b2d42");
/// The demo home module that asks for a theme, and its settings.
pub const THEMED_MODULE: (&str, &str) = ("summer-categories", r#"{"theme":"bw"}"#);

/// The demo home and module themes, for a database seeded before homes had them (an
/// UPDATE of rows still without one: a theme an editor changed since is left alone).
pub(super) async fn ensure_themes(db: &app::platform::db::Db) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE homes SET theme = $1 WHERE name = $2 AND theme = ''")
        .bind(THEMED_HOME.1)
        .bind(THEMED_HOME.0)
        .execute(&db.pool)
        .await?;
    // The summer home has a dark hero band: the header is transparent over it at the top
    // of the page (spec 001 §2; app/src/shell/rules.rs `transparent_hero`).
    sqlx::query("UPDATE homes SET header_hero = $1 WHERE name = $2 AND header_hero = ''")
        .bind(HERO_HOME.1)
        .bind(HERO_HOME.0)
        .execute(&db.pool)
        .await?;
    sqlx::query("UPDATE home_modules SET settings = $1 WHERE name = $2 AND settings = '{}'")
        .bind(THEMED_MODULE.1)
        .bind(THEMED_MODULE.0)
        .execute(&db.pool)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A banner leading to a home is named after it: the travel home offers no fashion
    /// theme, and no theme's name leads to the travel home (a walk found "Mode homme" → the
    /// summer home on the travel page).
    #[test]
    fn universe_banners_are_named_after_the_home_they_lead_to() {
        let hs = generate();
        let text = |v: &V| match v {
            V::T(s) => s.clone(),
            _ => String::new(),
        };
        let mut checked = 0;
        for (site_index, site) in SITES.iter().enumerate() {
            let w = words(lang_of(site.locale));
            let base = (site_index as i64 + 1) * 1000;
            for b in &hs.banners {
                let module = match b[1] {
                    V::I(m) => m,
                    _ => unreachable!("a banner's module is an id"),
                };
                if module / 10 < base || module / 10 >= base + 3 {
                    continue;
                }
                let (title, link) = (text(&b[4]), text(&b[7]));
                let expected = match link.as_str() {
                    "/gr/home/default" => w.shop,
                    "/gr/home/summer" => w.summer,
                    "/home/travel" => w.travel,
                    _ => continue,
                };
                assert_eq!(title, expected, "site {} banner to {link}", site.site_id);
                assert!(!w.themes.contains(&title.as_str()));
                checked += 1;
            }
        }
        // Two on the default home and two on the travel home, on every site.
        assert_eq!(checked, 4 * SITES.len());
    }
}
