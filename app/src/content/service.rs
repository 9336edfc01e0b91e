//! The content area's operations (reads only): the footer of a site for a member or a
//! visitor, and a landing page with its selection.
use crate::cart::store::Viewer;
use crate::content::error::ContentError;
use crate::content::model::{Footer, FooterLink, FooterSection, Landing, SeoConfig};
use crate::content::rules::{self, Selection};
use crate::content::store;
use crate::platform::db::Db;
use crate::site::{self, i18n};

/// The footer's sections in the site's language. The `inspirations` section lists the
/// site's landing pages and is dropped when the site has none.
pub async fn footer(db: &Db, site_id: u16, is_member: bool) -> Result<Footer, ContentError> {
    let site = site::by_id_or_default(site_id);
    let lang = i18n::lang_of(site.locale);
    let landings = store::landings(db, site_id).await?;
    let sections = rules::footer_sections(is_member)
        .into_iter()
        .map(|s| {
            let links = if s.id == "inspirations" {
                landings
                    .iter()
                    .map(|l| FooterLink {
                        id: format!("landing-{}", l.slug),
                        label: l.heading.clone(),
                        href: format!("/l/{}", l.slug),
                        logged_in: false,
                    })
                    .collect()
            } else {
                s.links
                    .iter()
                    .map(|l| FooterLink {
                        id: l.id.to_string(),
                        label: i18n::t(lang, l.label_key),
                        href: l.href.to_string(),
                        logged_in: l.logged_in,
                    })
                    .collect()
            };
            FooterSection {
                id: s.id.to_string(),
                title: i18n::t_with(lang, s.title_key, &[("brand", site.brand.name())]),
                links,
            }
        })
        .filter(|s| !s.links.is_empty())
        .collect();
    Ok(Footer {
        site_id: site.site_id,
        sections,
        copyright: i18n::t_with(lang, "footer.copyright", &[("brand", site.brand.name())]),
    })
}

/// A landing page of the site with its selection as live now; `NotFound` for a slug the
/// site does not have.
pub async fn landing(
    db: &Db,
    site_id: u16,
    slug: &str,
    viewer: Viewer,
    now: i64,
) -> Result<Landing, ContentError> {
    if !rules::valid_landing_slug(slug) {
        return Err(ContentError::NotFound);
    }
    let row = store::landing(db, site_id, slug)
        .await?
        .ok_or(ContentError::NotFound)?;
    let limit = rules::selection_limit(row.selection_limit);
    let translations = rules::landing_translations(
        site_id,
        &row.slug,
        store::translations(db, &row.translation_key).await?,
    );
    let mut landing = Landing {
        slug: row.slug,
        heading: row.heading,
        seo_config: SeoConfig {
            title: row.seo_title,
            description: row.seo_description,
            footer_paragraphs: row.footer_paragraphs,
        },
        blocks: row.blocks,
        selection_kind: row.selection_kind.clone(),
        sales: vec![],
        brand: None,
        products: vec![],
        translations,
    };
    match rules::selection(&row.selection_kind, &row.selection_value) {
        Some(Selection::Sales { offer_type }) => {
            landing.sales =
                store::live_sales(db, site_id, offer_type.as_deref(), limit, now).await?;
        }
        Some(Selection::Brand { brand_id }) => {
            if let Some((name, content)) =
                crate::catalog::store::brand_items(db, site_id, brand_id, limit, 0, viewer, now)
                    .await?
            {
                landing.brand = Some(name);
                landing.products = content.items;
            }
        }
        None => {}
    }
    Ok(landing)
}
