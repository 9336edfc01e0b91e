//! A feed's sale: its settings, checked by the sale form's rules; who sells it, its theme
//! and its place; its universes and sub-universes; then its pictures and products.
use sqlx::{Any, Transaction};

use super::super::audit::{self, Entry};
use super::super::sales::pictures::Target;
use super::super::sales::rules::{self, SettingsFields};
use super::super::sales::store as sales;
use super::super::text;
use super::apply::{apply_picture, Ctx};
use super::product::apply_product;
use super::refs::{find, remember_new, Found};
use super::{FeedSale, FeedUniverse};
use app::catalog::rules::SalePicture;

/// The feed's time (`2026-12-01T08:00:00Z`) as the settings form takes it.
fn form_time(s: &str) -> String {
    s.trim().trim_end_matches('Z').to_string()
}

/// A sale's settings beyond the form's, checked: who sells it, its theme, its place.
#[derive(PartialEq, Eq)]
struct SaleExtras {
    seller_kind: String,
    theme: String,
    position: i64,
}

const THEMES: [&str; 3] = [
    "",
    app::site::theme::RECYCLE,
    app::site::theme::BLACK_AND_WHITE,
];
const MAX_POSITION: i64 = 100_000;

fn sale_extras(ctx: &mut Ctx<'_>, path: &str, s: &FeedSale) -> Option<SaleExtras> {
    let seller_kind = or_default(&s.seller_kind, rules::SELLER_KINDS[0]);
    let mut ok = true;
    if !rules::SELLER_KINDS.contains(&seller_kind) {
        ctx.err(
            &format!("{path}.seller_kind"),
            text::t(ctx.lang, "import.choice"),
        );
        ok = false;
    }
    let theme = s.theme.trim();
    if !THEMES.contains(&theme) {
        ctx.err(&format!("{path}.theme"), text::t(ctx.lang, "import.choice"));
        ok = false;
    }
    if !(0..=MAX_POSITION).contains(&s.position) {
        ctx.err(
            &format!("{path}.position"),
            text::t(ctx.lang, "import.position"),
        );
        ok = false;
    }
    ok.then(|| SaleExtras {
        seller_kind: seller_kind.to_string(),
        theme: theme.to_string(),
        position: s.position,
    })
}

/// A field's value, or `default` when the feed leaves it out.
pub(super) fn or_default<'a>(value: &'a str, default: &'a str) -> &'a str {
    match value.trim() {
        "" => default,
        v => v,
    }
}

async fn stored_extras(
    tx: &mut Transaction<'static, Any>,
    id: i64,
) -> Result<SaleExtras, sqlx::Error> {
    let (seller_kind, theme, position): (String, String, i64) =
        sqlx::query_as("SELECT seller_kind, theme, position FROM sales WHERE id = $1")
            .bind(id)
            .fetch_one(&mut **tx)
            .await?;
    Ok(SaleExtras {
        seller_kind,
        theme,
        position,
    })
}

async fn set_extras(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    e: &SaleExtras,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sales SET seller_kind = $2, theme = $3, position = $4 WHERE id = $1")
        .bind(id)
        .bind(&e.seller_kind)
        .bind(&e.theme)
        .bind(e.position)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub(super) async fn apply_sale(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    s: &FeedSale,
    settings_too: bool,
) -> Result<(), sqlx::Error> {
    let found = find(tx, ctx.ids, "sale", &s.reference).await?;
    let sale_id = if settings_too {
        let fields = SettingsFields {
            site: s.site.to_string(),
            name: s.name.clone(),
            offer_type: s.offer_type.clone(),
            starts_at: form_time(&s.opens),
            ends_at: form_time(&s.closes),
            description: s.description.clone(),
            legal_merchant: s.legal_merchant.clone(),
            legal_terms: s.legal_terms.clone(),
            // The feed does not carry listing conditions: a sale's stay as the back
            // office set them.
            products_listing_cgu: None,
            // Nor SEO settings: the back office's stay.
            seo_title: None,
            seo_description: None,
            seo_footer: None,
            with_quotation_price: s.with_quotation_price.then(|| "on".into()),
            with_map: s.with_map.then(|| "on".into()),
            kind: s.kind.clone(),
            catalog_type: s.catalog_type.map(|t| t.to_string()).unwrap_or_default(),
            banner_title: message(&s.marketing.banner, |m| &m.title),
            banner_text: message(&s.marketing.banner, |m| &m.text),
            insert_title: message(&s.marketing.insert, |m| &m.title),
            insert_text: message(&s.marketing.insert, |m| &m.text),
        };
        let site = rules::site(&fields.site);
        let kind = rules::kind(&fields.kind);
        if kind.is_none() {
            ctx.err(
                &format!("{path}.kind"),
                text::t(ctx.lang, "sales.error.kind"),
            );
        }
        if site.is_none() {
            ctx.err(
                &format!("{path}.site"),
                text::t(ctx.lang, "sales.error.site"),
            );
        }
        let extras = sale_extras(ctx, path, s);
        let settings = match rules::settings(&fields) {
            Ok(s) => Some(s),
            Err(errors) => {
                for (field, key) in errors {
                    let name = match field {
                        "starts_at" => "opens",
                        "ends_at" => "closes",
                        "catalog_type" => "catalogType",
                        "banner_title" => "marketing.banner.title",
                        "banner_text" => "marketing.banner.text",
                        "insert_title" => "marketing.insert.title",
                        "insert_text" => "marketing.insert.text",
                        other => other,
                    };
                    ctx.err(&format!("{path}.{name}"), text::t(ctx.lang, key));
                }
                None
            }
        };
        let (Some(site), Some(kind), Some(settings), Some(extras)) = (site, kind, settings, extras)
        else {
            return Ok(());
        };
        match found {
            Found::Kept(id) => {
                ctx.out.unchanged += 1;
                id
            }
            Found::Known(id) => {
                let Some(before) = sales::by_id_tx(tx, id).await? else {
                    ctx.err(path, "the sale of this ref is gone");
                    return Ok(());
                };
                if before.archived_at.is_some() {
                    ctx.err(path, text::t(ctx.lang, "sales.error.archived"));
                    return Ok(());
                }
                if before.campaign_kind != kind {
                    ctx.err(
                        &format!("{path}.kind"),
                        "a sale's kind does not change once it is made",
                    );
                    return Ok(());
                }
                if before.site_id != site {
                    ctx.err(
                        &format!("{path}.site"),
                        format!(
                            "the sale is on site {}; a sale does not move (duplicate it instead)",
                            before.site_id
                        ),
                    );
                    return Ok(());
                }
                let same = before.name == settings.name
                    && before.offer_type == settings.offer_type
                    && before.description == settings.description
                    && before.legal_merchant == settings.legal_merchant
                    && before.legal_terms == settings.legal_terms
                    && before.starts_at == settings.starts_at
                    && before.ends_at == settings.ends_at
                    && before.with_quotation_price == settings.with_quotation_price
                    && before.with_map == settings.with_map
                    && settings
                        .presentation
                        .as_ref()
                        .is_none_or(|p| *p == before.presentation)
                    && stored_extras(tx, id).await? == extras;
                if same {
                    ctx.out.unchanged += 1;
                } else {
                    sales::update(tx, id, &settings).await?;
                    set_extras(tx, id, &extras).await?;
                    ctx.out.updated.sales += 1;
                    recorded(tx, ctx, id, "updated", &s.reference).await?;
                }
                id
            }
            Found::New(given) => {
                // A sale without universes in the feed gets one for its products.
                let first_universe = s.universes.is_empty().then_some("All");
                let new = sales::NewSale {
                    id: given,
                    site_id: site,
                    campaign_kind: kind,
                    universe_title: first_universe,
                };
                let id = sales::insert(tx, &new, &settings).await?;
                set_extras(tx, id, &extras).await?;
                remember_new(tx, ctx.ids, "sale", &s.reference, id).await?;
                ctx.out.created.sales += 1;
                recorded(tx, ctx, id, "created", &s.reference).await?;
                id
            }
        }
    } else {
        match found {
            Found::Known(id) | Found::Kept(id) => id,
            Found::New(_) => {
                ctx.err(path, format!("no sale has the feed ref {:?} (a CSV adds products to sales a JSON feed made)", s.reference));
                return Ok(());
            }
        }
    };
    apply_universes(tx, ctx, path, sale_id, &s.universes).await?;
    for (kind, name) in [
        (SalePicture::Banner, &s.banner),
        (SalePicture::Logo, &s.logo),
    ] {
        let target = Target::Sale(sale_id, kind);
        apply_picture(tx, ctx, target, sale_id, None, name.as_deref()).await?;
    }
    for (j, p) in s.products.iter().enumerate() {
        apply_product(tx, ctx, &format!("{path}.products[{j}]"), sale_id, p).await?;
    }
    for (j, b) in s.bundles.iter().enumerate() {
        super::bundle::apply_bundle(tx, ctx, &format!("{path}.bundles[{j}]"), sale_id, b).await?;
    }
    Ok(())
}

/// The audit log's line for a sale the feed made or changed.
async fn recorded(
    tx: &mut Transaction<'static, Any>,
    ctx: &Ctx<'_>,
    id: i64,
    what: &str,
    reference: &str,
) -> Result<(), sqlx::Error> {
    let entry = Entry {
        action: "import",
        object_kind: "sale",
        object_id: id.to_string(),
        summary: format!("{what} from feed ref {reference:?}"),
    };
    audit::record(tx, ctx.actor, entry, ctx.now).await
}

/// The sale's universes from the feed, in order; the ones the feed leaves out stay.
async fn apply_universes(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    sale_id: i64,
    universes: &[FeedUniverse],
) -> Result<(), sqlx::Error> {
    ctx.universes.clear();
    for (u, top) in universes.iter().enumerate() {
        let at = format!("{path}.universes[{u}]");
        let entry = (top.reference.as_str(), top.title.as_str());
        let Some(top_id) = apply_universe(tx, ctx, &at, (sale_id, None), entry).await? else {
            continue;
        };
        for (n, sub) in top.subs.iter().enumerate() {
            let entry = (sub.reference.as_str(), sub.title.as_str());
            let at = format!("{at}.subs[{n}]");
            apply_universe(tx, ctx, &at, (sale_id, Some(top_id)), entry).await?;
        }
    }
    Ok(())
}

/// A universe (`parent` none) or sub-universe of the sale, made or renamed; its id.
async fn apply_universe(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    (sale_id, parent): (i64, Option<i64>),
    (reference, title): (&str, &str),
) -> Result<Option<i64>, sqlx::Error> {
    let Some(title) = super::super::sales::universes::title(title) else {
        ctx.err(
            &format!("{path}.title"),
            text::t(ctx.lang, "universes.error.title"),
        );
        return Ok(None);
    };
    let id = match find(tx, ctx.ids, "universe", reference).await? {
        Found::Kept(id) => {
            ctx.out.unchanged += 1;
            id
        }
        Found::Known(id) => {
            let row: Option<(i64, Option<i64>, String)> =
                sqlx::query_as("SELECT sale_id, parent_id, title FROM universes WHERE id = $1")
                    .bind(id)
                    .fetch_optional(&mut **tx)
                    .await?;
            let Some((at_sale, at_parent, before)) = row else {
                ctx.err(path, "the universe of this ref was removed");
                return Ok(None);
            };
            if at_sale != sale_id || at_parent != parent {
                ctx.err(
                    path,
                    format!("the universe {reference:?} is under another sale or universe"),
                );
                return Ok(None);
            }
            if before == title {
                ctx.out.unchanged += 1;
            } else {
                sales::rename_universe(tx, id, &title).await?;
                ctx.out.updated.universes += 1;
            }
            id
        }
        Found::New(given) => {
            let id = sales::add_universe(tx, given, sale_id, parent, &title).await?;
            remember_new(tx, ctx.ids, "universe", reference, id).await?;
            ctx.out.created.universes += 1;
            id
        }
    };
    ctx.universes.insert(reference.to_string(), id);
    Ok(Some(id))
}

fn message(m: &Option<super::FeedMessage>, part: fn(&super::FeedMessage) -> &String) -> String {
    m.as_ref().map(|m| part(m).clone()).unwrap_or_default()
}
