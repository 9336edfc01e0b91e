//! Applies a feed in one transaction: checks every entry (collecting every error with its
//! path), creates or updates what the feed's refs name, and commits only when nothing was
//! wrong and it is not a dry run.
use std::collections::{HashMap, HashSet};

use sqlx::{Any, Transaction};

use app::platform::db::Db;

use super::super::audit::{self, Actor, Entry};
use super::super::sales::pictures::{self, Target};
use super::super::text;
use super::refs::Ids;
use super::sale::apply_sale;
use super::{picture_name_ok, Feed, Input, PictureFiles};
use crate::media::{self, MediaError};

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
    /// Bundles (a changed bundle: its products).
    pub bundles: i64,
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
                "{} sales, {} universes, {} products, {} options, {} pictures, {} travel entries, {} bundles",
                c.sales, c.universes, c.products, c.options, c.pictures, c.travel, c.bundles
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

/// How an import runs: `dry_run` checks and rolls back; errors are in `lang`.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    pub dry_run: bool,
    pub lang: &'a str,
    pub now: i64,
    pub ids: Ids<'a>,
}

fn ref_ok(r: &str) -> bool {
    !r.trim().is_empty() && r.chars().count() <= 100 && !r.chars().any(char::is_control)
}

pub(super) struct Ctx<'a> {
    pub(super) lang: &'a str,
    pub(super) ids: Ids<'a>,
    pub(super) actor: &'a Actor,
    pub(super) now: i64,
    pub(super) out: Outcome,
    pub(super) brands: HashMap<String, i64>,
    /// The universes of the sale being applied, by their feed refs.
    pub(super) universes: HashMap<String, i64>,
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
        // Trips' "from" prices follow their new seasons, stays and prices.
        app::travel::store::from_price::refresh_all(db, now).await?;
    } else if out.errors.is_empty() && !dry_run {
        // Already as the feed says: nothing to write, nothing to record.
        tx.rollback().await?;
        out.applied = true;
    } else {
        tx.rollback().await?;
    }
    Ok(out)
}

/// Sets a place's picture from the feed, unless it already has exactly those bytes.
pub(super) async fn apply_picture(
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
