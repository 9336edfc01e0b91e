//! Applies a feed in one transaction: checks every entry (collecting every error with its
//! path), creates or updates what the feed's refs name, and commits only when nothing was
//! wrong and it is not a dry run.
use std::collections::{HashMap, HashSet};

use sqlx::{Any, Row, Transaction};

use app::platform::db::Db;

use super::super::audit::{self, Actor, Entry};
use super::super::sales::pictures::{self, Target};
use super::super::sales::rules::{self, SettingsFields};
use super::super::sales::stock::MAX_CHANGE;
use super::super::sales::store::{self as sales, NewProduct};
use super::super::text;
use super::{
    picture_name_ok, Feed, FeedOption, FeedProduct, FeedSale, FeedUniverse, Input, PictureFiles,
};
use crate::media::{self, MediaError};
use app::catalog::rules::SalePicture;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub sales: i64,
    /// Universes and sub-universes.
    pub universes: i64,
    pub products: i64,
    pub options: i64,
    pub pictures: i64,
    /// Trips and their packages, departure cities, durations and seasons.
    pub travel: i64,
}

#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Every error, with its path (`sales[0].products[2].price`) or line.
    pub errors: Vec<String>,
    pub created: Counts,
    pub updated: Counts,
    /// Entries that were already as the feed says.
    pub unchanged: i64,
    /// Whether the changes were committed (no error, not a dry run).
    pub applied: bool,
}

impl Outcome {
    /// What changed, in words (the audit log and the command line).
    pub fn summary(&self) -> String {
        let counts = |c: &Counts| {
            format!(
                "{} sales, {} universes, {} products, {} options, {} pictures, {} travel entries",
                c.sales, c.universes, c.products, c.options, c.pictures, c.travel
            )
        };
        format!(
            "created {}; updated {}; {} unchanged",
            counts(&self.created),
            counts(&self.updated),
            self.unchanged
        )
    }
}

/// How the entries a feed creates get their ids.
#[derive(Clone, Copy)]
pub enum Ids<'a> {
    /// The next free id; an entry is found again by its ref (`feed_refs`).
    Next,
    /// The number its ref ends with (`demo:1001`), and for a brand its place in `brands`
    /// plus one: the demo's feed keeps the ids its links, bookmarks and tests name. An
    /// entry the shop already has stays as it is: the demo fills in what is missing and
    /// never undoes an owner's edits.
    FromRefs { brands: &'a [&'a str] },
}

/// How an import runs: `dry_run` checks and rolls back; errors are in `lang`.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    pub dry_run: bool,
    pub lang: &'a str,
    pub now: i64,
    pub ids: Ids<'a>,
}

/// Where the entry a feed's ref names stands in the shop.
#[derive(Clone, Copy)]
pub(super) enum Found {
    /// Not there: to create, with this id when the feed sets it.
    New(Option<i64>),
    /// Made by an earlier import: to update.
    Known(i64),
    /// The demo's entry, already there: left as it is (see [`Ids::FromRefs`]).
    Kept(i64),
}

/// The table and key column of each kind of entry.
fn table_of(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "sale" => ("sales", "id"),
        "product" => ("products", "id"),
        "option" => ("product_options", "id"),
        "universe" => ("universes", "id"),
        "package" => ("travel_packages", "id"),
        "city" => ("travel_departure_cities", "id"),
        "duration" => ("travel_durations", "id"),
        "benefit" => ("travel_benefits", "id"),
        _ => ("travel_seasons", "id"),
    }
}

/// Where the entry of `kind` named `reference` stands.
pub(super) async fn find(
    tx: &mut Transaction<'static, Any>,
    ids: Ids<'_>,
    kind: &str,
    reference: &str,
) -> Result<Found, sqlx::Error> {
    match ids {
        Ids::Next => Ok(match lookup(tx, kind, reference).await? {
            Some(id) => Found::Known(id),
            None => Found::New(None),
        }),
        Ids::FromRefs { .. } => {
            let Some(id) = reference
                .rsplit(':')
                .next()
                .and_then(|n| n.parse::<i64>().ok())
            else {
                return Ok(Found::New(None));
            };
            let (table, key) = table_of(kind);
            let there: Option<i64> =
                sqlx::query_scalar(&format!("SELECT {key} FROM {table} WHERE {key} = $1"))
                    .bind(id)
                    .fetch_optional(&mut **tx)
                    .await?;
            Ok(match there {
                Some(id) => Found::Kept(id),
                None => Found::New(Some(id)),
            })
        }
    }
}

/// Records the ref of a new entry, so the next import finds it (the demo's refs are its
/// ids already).
pub(super) async fn remember_new(
    tx: &mut Transaction<'static, Any>,
    ids: Ids<'_>,
    kind: &str,
    reference: &str,
    id: i64,
) -> Result<(), sqlx::Error> {
    match ids {
        Ids::Next => remember(tx, kind, reference, id).await,
        Ids::FromRefs { .. } => Ok(()),
    }
}

pub(super) async fn lookup(
    tx: &mut Transaction<'static, Any>,
    kind: &str,
    reference: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM feed_refs WHERE kind = $1 AND feed_ref = $2")
        .bind(kind)
        .bind(reference)
        .fetch_optional(&mut **tx)
        .await
}

pub(super) async fn remember(
    tx: &mut Transaction<'static, Any>,
    kind: &str,
    reference: &str,
    id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO feed_refs (kind, feed_ref, id) VALUES ($1, $2, $3)")
        .bind(kind)
        .bind(reference)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

fn ref_ok(r: &str) -> bool {
    !r.trim().is_empty() && r.chars().count() <= 100 && !r.chars().any(char::is_control)
}

/// The feed's time (`2026-12-01T08:00:00Z`) as the settings form takes it.
fn form_time(s: &str) -> String {
    s.trim().trim_end_matches('Z').to_string()
}

pub(super) struct Ctx<'a> {
    pub(super) lang: &'a str,
    pub(super) ids: Ids<'a>,
    actor: &'a Actor,
    now: i64,
    pub(super) out: Outcome,
    brands: HashMap<String, i64>,
    /// The universes of the sale being applied, by their feed refs.
    universes: HashMap<String, i64>,
    /// The feed's pictures by file name, read and checked before anything is written.
    pictures: HashMap<String, Checked>,
}

/// A picture's bytes, decoded once to know it is one and its size.
struct Checked {
    bytes: Vec<u8>,
    size: (u32, u32),
}

/// Every picture name of the feed with its path (`sales[0].products[1].picture`).
fn picture_names(feed: &Feed) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, s) in feed.sales.iter().enumerate() {
        let sale = format!("sales[{i}]");
        for (field, name) in [("banner", &s.banner), ("logo", &s.logo)] {
            if let Some(n) = name {
                out.push((format!("{sale}.{field}"), n.clone()));
            }
        }
        for (j, p) in s.products.iter().enumerate() {
            let product = format!("{sale}.products[{j}]");
            if let Some(n) = &p.picture {
                out.push((format!("{product}.picture"), n.clone()));
            }
            for (k, o) in p.options.iter().enumerate() {
                if let Some(n) = &o.picture {
                    out.push((format!("{product}.options[{k}].picture"), n.clone()));
                }
            }
        }
    }
    out
}

/// Reads and decodes each named picture once, off the async threads (decoding takes CPU):
/// the checked ones by name, and the errors with their paths.
async fn check_pictures(
    names: Vec<(String, String)>,
    files: PictureFiles,
) -> (HashMap<String, Checked>, Vec<(String, &'static str)>) {
    let work = move || {
        let mut checked: HashMap<String, Result<Checked, &'static str>> = HashMap::new();
        let mut errors = Vec::new();
        for (path, name) in names {
            if !picture_name_ok(&name) {
                errors.push((path, "import.picture_name"));
                continue;
            }
            let result = checked.entry(name.clone()).or_insert_with(|| {
                let bytes = files.read(&name)?;
                let img = media::decode(&bytes).map_err(|e| match e {
                    MediaError::TooLarge => "pictures.error.size",
                    MediaError::TooManyPixels => "pictures.error.pixels",
                    MediaError::NotAPicture => "pictures.error.type",
                })?;
                Ok(Checked {
                    size: (img.width(), img.height()),
                    bytes,
                })
            });
            if let Err(key) = result {
                errors.push((path, *key));
            }
        }
        let ok = checked
            .into_iter()
            .filter_map(|(name, r)| r.ok().map(|c| (name, c)))
            .collect();
        (ok, errors)
    };
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|_| (HashMap::new(), Vec::new()))
}

impl Ctx<'_> {
    pub(super) fn err(&mut self, path: &str, message: impl std::fmt::Display) {
        if self.out.errors.len() < 1000 {
            self.out.errors.push(format!("{path}: {message}"));
        }
    }
}

/// Imports `input`, its pictures read from `files`.
pub async fn import(
    db: &Db,
    actor: &Actor,
    input: Input,
    files: PictureFiles,
    run: Run<'_>,
) -> Result<Outcome, sqlx::Error> {
    let Run {
        dry_run,
        lang,
        now,
        ids,
    } = run;
    let (feed, settings_too) = match input {
        Input::Json(f) => (f, true),
        Input::Csv(f) => (f, false),
    };
    let (pictures, picture_errors) = check_pictures(picture_names(&feed), files).await;
    let mut ctx = Ctx {
        lang,
        ids,
        actor,
        now,
        out: Outcome::default(),
        brands: HashMap::new(),
        universes: HashMap::new(),
        pictures,
    };
    for (path, key) in picture_errors {
        ctx.err(&path, text::t(lang, key));
    }
    // Refs are unique per kind within the feed.
    let mut seen: [HashSet<String>; 9] = Default::default();
    for (i, s) in feed.sales.iter().enumerate() {
        let mut check = |kind: usize, r: &str, path: String, ctx: &mut Ctx| {
            if !ref_ok(r) {
                ctx.err(&path, "ref: 1 to 100 characters");
            } else if !seen[kind].insert(r.to_string()) {
                ctx.err(&path, format!("ref {r:?} is used twice in this feed"));
            }
        };
        check(0, &s.reference, format!("sales[{i}]"), &mut ctx);
        for (u, universe) in s.universes.iter().enumerate() {
            let at = format!("sales[{i}].universes[{u}]");
            check(7, &universe.reference, at.clone(), &mut ctx);
            for (n, sub) in universe.subs.iter().enumerate() {
                check(7, &sub.reference, format!("{at}.subs[{n}]"), &mut ctx);
            }
        }
        for (j, p) in s.products.iter().enumerate() {
            check(
                1,
                &p.reference,
                format!("sales[{i}].products[{j}]"),
                &mut ctx,
            );
            for (k, o) in p.options.iter().enumerate() {
                check(
                    2,
                    &o.reference,
                    format!("sales[{i}].products[{j}].options[{k}]"),
                    &mut ctx,
                );
            }
            let packages = p.travel.iter().flat_map(|t| t.packages.iter());
            for (k, package) in packages.enumerate() {
                let at = format!("sales[{i}].products[{j}].travel.packages[{k}]");
                check(3, &package.reference, at.clone(), &mut ctx);
                for (b, benefit) in package.benefits.iter().enumerate() {
                    check(
                        8,
                        &benefit.reference,
                        format!("{at}.benefits[{b}]"),
                        &mut ctx,
                    );
                }
                for (c, city) in package.cities.iter().enumerate() {
                    let at = format!("{at}.cities[{c}]");
                    check(4, &city.reference, at.clone(), &mut ctx);
                    for (d, duration) in city.durations.iter().enumerate() {
                        check(
                            5,
                            &duration.reference,
                            format!("{at}.durations[{d}]"),
                            &mut ctx,
                        );
                    }
                    for (n, season) in city.seasons.iter().enumerate() {
                        check(6, &season.reference, format!("{at}.seasons[{n}]"), &mut ctx);
                    }
                }
            }
        }
    }
    let mut tx = db.begin().await?;
    if ctx.out.errors.is_empty() {
        for (i, sale) in feed.sales.iter().enumerate() {
            apply_sale(
                &mut tx,
                &mut ctx,
                &format!("sales[{i}]"),
                sale,
                settings_too,
            )
            .await?;
        }
    }
    let mut out = ctx.out;
    let changed = out.created != Counts::default() || out.updated != Counts::default();
    if out.errors.is_empty() && !dry_run && changed {
        let entry = Entry {
            action: "import",
            object_kind: "feed",
            object_id: String::new(),
            summary: out.summary(),
        };
        audit::record(&mut tx, actor, entry, now).await?;
        tx.commit().await?;
        out.applied = true;
    } else if out.errors.is_empty() && !dry_run {
        // Already as the feed says: nothing to write, nothing to record.
        tx.rollback().await?;
        out.applied = true;
    } else {
        tx.rollback().await?;
    }
    Ok(out)
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
fn or_default<'a>(value: &'a str, default: &'a str) -> &'a str {
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

async fn apply_sale(
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
            with_quotation_price: s.with_quotation_price.then(|| "on".into()),
            with_map: s.with_map.then(|| "on".into()),
            kind: s.kind.clone(),
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
                    && stored_extras(tx, id).await? == extras;
                if same {
                    ctx.out.unchanged += 1;
                } else {
                    sales::update(tx, id, &settings).await?;
                    set_extras(tx, id, &extras).await?;
                    ctx.out.updated.sales += 1;
                    let entry = Entry {
                        action: "import",
                        object_kind: "sale",
                        object_id: id.to_string(),
                        summary: format!("updated from feed ref {:?}", s.reference),
                    };
                    audit::record(tx, ctx.actor, entry, ctx.now).await?;
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
                let entry = Entry {
                    action: "import",
                    object_kind: "sale",
                    object_id: id.to_string(),
                    summary: format!("created from feed ref {:?}", s.reference),
                };
                audit::record(tx, ctx.actor, entry, ctx.now).await?;
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
    Ok(())
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

/// Sets a place's picture from the feed, unless it already has exactly those bytes.
async fn apply_picture(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    target: Target,
    sale_id: i64,
    product_id: Option<i64>,
    name: Option<&str>,
) -> Result<(), sqlx::Error> {
    let Some(picture) = name.and_then(|n| ctx.pictures.get(n)) else {
        return Ok(());
    };
    if pictures::is_current(tx, target, &picture.bytes).await? {
        ctx.out.unchanged += 1;
        return Ok(());
    }
    let (before, _) = pictures::save(
        tx,
        target,
        sale_id,
        product_id,
        &picture.bytes,
        picture.size,
        ctx.now,
    )
    .await?;
    if before.is_some() {
        ctx.out.updated.pictures += 1;
    } else {
        ctx.out.created.pictures += 1;
    }
    Ok(())
}

async fn brand_id(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    name: &str,
) -> Result<Option<i64>, sqlx::Error> {
    let name = name.trim();
    if name.is_empty() {
        return Ok(None);
    }
    let key = name.to_lowercase();
    if let Some(id) = ctx.brands.get(&key) {
        return Ok(Some(*id));
    }
    let found: Option<i64> =
        sqlx::query_scalar("SELECT MIN(id) FROM brands WHERE LOWER(name) = $1")
            .bind(&key)
            .fetch_one(&mut **tx)
            .await?;
    let id = match found {
        Some(id) => id,
        None => {
            let given = match ctx.ids {
                Ids::FromRefs { brands } => brands
                    .iter()
                    .position(|b| b.eq_ignore_ascii_case(name))
                    .map(|i| i as i64 + 1),
                Ids::Next => None,
            };
            let id = match given {
                Some(id) => id,
                None => sales::next_id(tx, "brands", 1).await?,
            };
            sqlx::query("INSERT INTO brands (id, name, slug) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(name)
                .bind(app::text::slug::slug(name))
                .execute(&mut **tx)
                .await?;
            id
        }
    };
    ctx.brands.insert(key, id);
    Ok(Some(id))
}

async fn apply_product(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    sale_id: i64,
    p: &FeedProduct,
) -> Result<(), sqlx::Error> {
    let name: String = p.name.trim().chars().filter(|c| !c.is_control()).collect();
    let mut ok = true;
    if name.is_empty() || name.chars().count() > 200 {
        ctx.err(
            &format!("{path}.name"),
            text::t(ctx.lang, "sales.error.product_name"),
        );
        ok = false;
    }
    let (price, retail) = (rules::cents(&p.price), rules::cents(&p.retail_price));
    if price.is_none() {
        ctx.err(
            &format!("{path}.price"),
            text::t(ctx.lang, "sales.error.price"),
        );
        ok = false;
    }
    if retail.is_none() {
        ctx.err(
            &format!("{path}.retail_price"),
            text::t(ctx.lang, "sales.error.price"),
        );
        ok = false;
    }
    if let (Some(pr), Some(r)) = (price, retail) {
        if r < pr {
            ctx.err(
                &format!("{path}.retail_price"),
                text::t(ctx.lang, "sales.error.retail_below"),
            );
            ok = false;
        }
    }
    let listing = listing(ctx, path, p);
    ok &= listing.is_some();
    // Options' own prices are checked against the product's once those are right (else
    // that is the error).
    let valid_prices = price.zip(retail).filter(|(p, r)| r >= p);
    for (k, o) in p.options.iter().enumerate() {
        if o.label.trim().is_empty() || o.label.trim().chars().count() > 40 {
            ctx.err(
                &format!("{path}.options[{k}].label"),
                text::t(ctx.lang, "sales.error.option_label"),
            );
            ok = false;
        }
        if !(0..=MAX_CHANGE).contains(&o.stock) {
            ctx.err(
                &format!("{path}.options[{k}].stock"),
                text::t(ctx.lang, "sales.error.option_stock"),
            );
            ok = false;
        }
        if let Some(product_prices) = valid_prices {
            if let Err(key) = option_prices(o, product_prices) {
                ctx.err(
                    &format!("{path}.options[{k}].price"),
                    text::t(ctx.lang, key),
                );
                ok = false;
            }
        }
    }
    let Some(listing) = listing.filter(|_| ok) else {
        return Ok(());
    };
    let product = NewProduct {
        name,
        brand_id: brand_id(tx, ctx, &p.brand).await?,
        color: p.color.trim().chars().take(40).collect(),
        description_html: app::text::sanitize::data_sheet(&p.data_sheet),
        price_cents: price.unwrap_or_default(),
        retail_price_cents: retail.unwrap_or_default(),
    };
    let kept = matches!(ctx.ids, Ids::FromRefs { .. });
    let product_id = match find(tx, ctx.ids, "product", &p.reference).await? {
        Found::Kept(id) => {
            ctx.out.unchanged += 1;
            id
        }
        Found::Known(id) => {
            let row = sqlx::query("SELECT sale_id, name, brand_id, color, description_html, price_cents, retail_price_cents, tier, delivery_mode, seller_kind, universe_id, item_type FROM products WHERE id = $1")
                .bind(id)
                .fetch_one(&mut **tx)
                .await?;
            if row.try_get::<i64, _>("sale_id")? != sale_id {
                ctx.err(
                    path,
                    format!("the product {:?} belongs to another sale", p.reference),
                );
                return Ok(());
            }
            let same = row.try_get::<String, _>("name")? == product.name
                && row.try_get::<Option<i64>, _>("brand_id")? == product.brand_id
                && row.try_get::<String, _>("color")? == product.color
                && row.try_get::<String, _>("description_html")? == product.description_html
                && row.try_get::<i64, _>("price_cents")? == product.price_cents
                && row.try_get::<i64, _>("retail_price_cents")? == product.retail_price_cents;
            let listed = row.try_get::<String, _>("tier")? == listing.tier
                && row.try_get::<i64, _>("delivery_mode")? == listing.delivery_mode
                && row.try_get::<String, _>("seller_kind")? == listing.seller_kind
                && listing
                    .universe_id
                    .is_none_or(|u| row.try_get::<i64, _>("universe_id").ok() == Some(u))
                && row.try_get::<i64, _>("item_type")? == listing.item_type;
            if !same {
                sales::update_product(tx, id, &product).await?;
            }
            if !listed {
                set_listing(tx, id, &listing).await?;
            }
            if same && listed {
                ctx.out.unchanged += 1;
            } else {
                ctx.out.updated.products += 1;
            }
            id
        }
        Found::New(given) => {
            let id = sales::insert_product(tx, given, sale_id, &product).await?;
            set_listing(tx, id, &listing).await?;
            remember_new(tx, ctx.ids, "product", &p.reference, id).await?;
            ctx.out.created.products += 1;
            id
        }
    };
    let picture = p.picture.as_deref();
    apply_picture(
        tx,
        ctx,
        Target::Product(product_id),
        sale_id,
        Some(product_id),
        picture,
    )
    .await?;
    if let Some(trip) = &p.travel {
        let at = (product_id, product.price_cents);
        super::travel::apply_trip(tx, ctx, &format!("{path}.travel"), at, trip, kept).await?;
    }
    for (k, o) in p.options.iter().enumerate() {
        let prices =
            option_prices(o, (product.price_cents, product.retail_price_cents)).unwrap_or_default();
        let option = apply_option(
            tx,
            ctx,
            &format!("{path}.options[{k}]"),
            product_id,
            o,
            prices,
        )
        .await?;
        if let Some(option) = option {
            let picture = o.picture.as_deref();
            apply_picture(
                tx,
                ctx,
                Target::Option(option),
                sale_id,
                Some(product_id),
                picture,
            )
            .await?;
        }
    }
    Ok(())
}

/// How a product is listed: its tier, delivery, seller, universe and item type.
struct Listing {
    tier: String,
    delivery_mode: i64,
    seller_kind: String,
    /// None: where it is (a new product: the sale's first universe).
    universe_id: Option<i64>,
    item_type: i64,
}

/// Item types a product may have in lists (spec 000 §3): an item, a carousel, an ad.
const ITEM_TYPES: [i64; 3] = [1, 7, 10];

/// The product's listing, checked with the product page's lists (errors said).
fn listing(ctx: &mut Ctx<'_>, path: &str, p: &FeedProduct) -> Option<Listing> {
    let mut ok = true;
    let mut refuse = |ctx: &mut Ctx<'_>, field: &str, key: &str| {
        ctx.err(&format!("{path}.{field}"), text::t(ctx.lang, key));
        ok = false;
    };
    let tier = or_default(&p.tier, rules::TIERS[0]);
    if !rules::TIERS.contains(&tier) {
        refuse(ctx, "tier", "import.choice");
    }
    if !rules::DELIVERY_MODES.contains(&p.delivery_mode) {
        refuse(ctx, "delivery_mode", "import.choice");
    }
    let seller_kind = or_default(&p.seller_kind, rules::SELLER_KINDS[0]);
    if !rules::SELLER_KINDS.contains(&seller_kind) {
        refuse(ctx, "seller_kind", "import.choice");
    }
    let item_type = p.item_type.unwrap_or(ITEM_TYPES[0]);
    if !ITEM_TYPES.contains(&item_type) {
        refuse(ctx, "item_type", "import.choice");
    }
    let universe_id = match &p.universe {
        None => None,
        Some(r) => {
            let id = ctx.universes.get(r).copied();
            if id.is_none() {
                refuse(ctx, "universe", "import.universe");
            }
            id
        }
    };
    ok.then(|| Listing {
        tier: tier.to_string(),
        delivery_mode: p.delivery_mode,
        seller_kind: seller_kind.to_string(),
        universe_id,
        item_type,
    })
}

async fn set_listing(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    l: &Listing,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE products SET tier = $2, delivery_mode = $3, seller_kind = $4,
                universe_id = COALESCE($5, universe_id), item_type = $6 WHERE id = $1",
    )
    .bind(id)
    .bind(&l.tier)
    .bind(l.delivery_mode)
    .bind(&l.seller_kind)
    .bind(l.universe_id)
    .bind(l.item_type)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// An option's own prices, checked against its product's as the back-office form does.
fn option_prices(
    o: &FeedOption,
    product: (i64, i64),
) -> Result<(Option<i64>, Option<i64>), &'static str> {
    rules::option_prices(
        o.price.as_deref().unwrap_or(""),
        o.retail_price.as_deref().unwrap_or(""),
        product,
    )
}

async fn apply_option(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    product_id: i64,
    o: &FeedOption,
    (price, retail): (Option<i64>, Option<i64>),
) -> Result<Option<i64>, sqlx::Error> {
    let label: String = o.label.trim().chars().filter(|c| !c.is_control()).collect();
    let id = match find(tx, ctx.ids, "option", &o.reference).await? {
        Found::Kept(id) => {
            ctx.out.unchanged += 1;
            id
        }
        Found::Known(id) => {
            let row = sqlx::query(
                "SELECT product_id, label, stock, held, sold, price_cents, retail_price_cents FROM product_options WHERE id = $1",
            )
            .bind(id)
            .fetch_one(&mut **tx)
            .await?;
            if row.try_get::<i64, _>("product_id")? != product_id {
                ctx.err(
                    path,
                    format!("the option {:?} belongs to another product", o.reference),
                );
                return Ok(None);
            }
            let (stock, held, sold): (i64, i64, i64) = (
                row.try_get("stock")?,
                row.try_get("held")?,
                row.try_get("sold")?,
            );
            let details_changed = row.try_get::<String, _>("label")? != label
                || row.try_get::<Option<i64>, _>("price_cents")? != price
                || row.try_get::<Option<i64>, _>("retail_price_cents")? != retail;
            if o.stock < held + sold {
                ctx.err(
                    &format!("{path}.stock"),
                    format!(
                        "{} ({held} held, {sold} sold)",
                        text::t(ctx.lang, "stock.error.below")
                    ),
                );
                return Ok(None);
            }
            if details_changed {
                sqlx::query("UPDATE product_options SET label = $2, price_cents = $3, retail_price_cents = $4 WHERE id = $1")
                    .bind(id)
                    .bind(&label)
                    .bind(price)
                    .bind(retail)
                    .execute(&mut **tx)
                    .await?;
            }
            let delta = o.stock - stock;
            if delta != 0 {
                // The guarded write: what members hold and bought is re-checked on the row.
                let n = sqlx::query("UPDATE product_options SET stock = stock + $2 WHERE id = $1 AND stock + $2 >= held + sold")
                    .bind(id)
                    .bind(delta)
                    .execute(&mut **tx)
                    .await?
                    .rows_affected();
                if n == 0 {
                    ctx.err(
                        &format!("{path}.stock"),
                        text::t(ctx.lang, "stock.error.below"),
                    );
                    return Ok(None);
                }
                history(tx, ctx, id, delta, o.stock, held, sold).await?;
            }
            if details_changed || delta != 0 {
                ctx.out.updated.options += 1;
            } else {
                ctx.out.unchanged += 1;
            }
            id
        }
        Found::New(given) => {
            let option = sales::NewOption {
                kind: "size",
                label: &label,
                stock: o.stock,
                price_cents: price,
                retail_price_cents: retail,
            };
            let id = sales::insert_option(tx, given, product_id, &option).await?;
            remember_new(tx, ctx.ids, "option", &o.reference, id).await?;
            history(tx, ctx, id, o.stock, o.stock, 0, 0).await?;
            ctx.out.created.options += 1;
            id
        }
    };
    Ok(Some(id))
}

async fn history(
    tx: &mut Transaction<'static, Any>,
    ctx: &Ctx<'_>,
    option_id: i64,
    delta: i64,
    after: i64,
    held: i64,
    sold: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO stock_history (option_id, at, operator_id, delta, stock_after, held, sold, reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'feed import')",
    )
    .bind(option_id)
    .bind(ctx.now)
    .bind(ctx.actor.operator_id)
    .bind(delta)
    .bind(after)
    .bind(held)
    .bind(sold)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
