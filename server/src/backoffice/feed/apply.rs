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
use super::{picture_name_ok, Feed, FeedOption, FeedProduct, FeedSale, Input, PictureFiles};
use crate::media::{self, MediaError};
use app::catalog::rules::SalePicture;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub sales: i64,
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
    actor: &'a Actor,
    now: i64,
    pub(super) out: Outcome,
    brands: HashMap<String, i64>,
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

/// Imports `input`, its pictures read from `files`; `lang` is the language of the error
/// messages.
pub async fn import(
    db: &Db,
    actor: &Actor,
    input: Input,
    files: PictureFiles,
    dry_run: bool,
    lang: &str,
    now: i64,
) -> Result<Outcome, sqlx::Error> {
    let (feed, settings_too) = match input {
        Input::Json(f) => (f, true),
        Input::Csv(f) => (f, false),
    };
    let (pictures, picture_errors) = check_pictures(picture_names(&feed), files).await;
    let mut ctx = Ctx {
        lang,
        actor,
        now,
        out: Outcome::default(),
        brands: HashMap::new(),
        pictures,
    };
    for (path, key) in picture_errors {
        ctx.err(&path, text::t(lang, key));
    }
    // Refs are unique per kind within the feed.
    let mut seen: [HashSet<String>; 7] = Default::default();
    for (i, s) in feed.sales.iter().enumerate() {
        let mut check = |kind: usize, r: &str, path: String, ctx: &mut Ctx| {
            if !ref_ok(r) {
                ctx.err(&path, "ref: 1 to 100 characters");
            } else if !seen[kind].insert(r.to_string()) {
                ctx.err(&path, format!("ref {r:?} is used twice in this feed"));
            }
        };
        check(0, &s.reference, format!("sales[{i}]"), &mut ctx);
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
        let summary = format!(
            "created {} sales, {} products, {} options, {} pictures, {} travel entries; updated {} sales, {} products, {} options, {} pictures, {} travel entries; {} unchanged",
            out.created.sales, out.created.products, out.created.options, out.created.pictures, out.created.travel,
            out.updated.sales, out.updated.products, out.updated.options, out.updated.pictures, out.updated.travel, out.unchanged
        );
        let entry = Entry {
            action: "import",
            object_kind: "feed",
            object_id: String::new(),
            summary,
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

async fn apply_sale(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    s: &FeedSale,
    settings_too: bool,
) -> Result<(), sqlx::Error> {
    let existing = lookup(tx, "sale", &s.reference).await?;
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
        let (Some(site), Some(kind), Some(settings)) = (site, kind, settings) else {
            return Ok(());
        };
        match existing {
            Some(id) => {
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
                    && before.with_map == settings.with_map;
                if same {
                    ctx.out.unchanged += 1;
                } else {
                    sales::update(tx, id, &settings).await?;
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
            None => {
                let id = sales::insert(tx, site, &settings, "All", kind).await?;
                remember(tx, "sale", &s.reference, id).await?;
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
        match existing {
            Some(id) => id,
            None => {
                ctx.err(path, format!("no sale has the feed ref {:?} (a CSV adds products to sales a JSON feed made)", s.reference));
                return Ok(());
            }
        }
    };
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
            let id = sales::next_id(tx, "brands", 1).await?;
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
    if !ok {
        return Ok(());
    }
    let product = NewProduct {
        name,
        brand_id: brand_id(tx, ctx, &p.brand).await?,
        color: p.color.trim().chars().take(40).collect(),
        description_html: app::text::sanitize::data_sheet(&p.data_sheet),
        price_cents: price.unwrap_or_default(),
        retail_price_cents: retail.unwrap_or_default(),
    };
    let product_id = match lookup(tx, "product", &p.reference).await? {
        Some(id) => {
            let row = sqlx::query("SELECT sale_id, name, brand_id, color, description_html, price_cents, retail_price_cents FROM products WHERE id = $1")
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
            if same {
                ctx.out.unchanged += 1;
            } else {
                sales::update_product(tx, id, &product).await?;
                ctx.out.updated.products += 1;
            }
            id
        }
        None => {
            let id = sales::insert_product(tx, sale_id, &product).await?;
            remember(tx, "product", &p.reference, id).await?;
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
        super::travel::apply_trip(tx, ctx, &format!("{path}.travel"), at, trip).await?;
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
    let id = match lookup(tx, "option", &o.reference).await? {
        Some(id) => {
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
        None => {
            let option = sales::NewOption {
                kind: "size",
                label: &label,
                stock: o.stock,
                price_cents: price,
                retail_price_cents: retail,
            };
            let id = sales::insert_option(tx, product_id, &option).await?;
            remember(tx, "option", &o.reference, id).await?;
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
