//! A feed product's trip: its description (checked by the "make it a trip" form's rule)
//! and its packages, departure cities, durations and seasons by their refs (checked by the
//! travel inventory forms' rules), created or updated in place. What members hold, bought
//! or booked is never moved from under them: a duration's stay or a season's days change
//! only while none of its departures is taken.
use sqlx::{Any, Transaction};

use super::super::text;
use super::super::travel::rules::{self, SeasonFields, TripFields};
use super::super::travel::store::{self, Owned};
use super::apply::Ctx;
use super::refs::{find, remember_new, Found};
use super::trip_extras::{
    apply_benefits, apply_start, set_package_flags, set_trip_extras, trip_extras,
};
use super::{FeedCity, FeedSeason, FeedTrip};

const WEEKDAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/// Counts an entry as changed or as already as the feed says.
fn counted(ctx: &mut Ctx<'_>, changed: bool) {
    if changed {
        ctx.out.updated.travel += 1;
    } else {
        ctx.out.unchanged += 1;
    }
}

/// Errors of a rule at `path`: each field's key in the operator's language.
fn field_errors(ctx: &mut Ctx<'_>, path: &str, errors: Vec<(&'static str, &'static str)>) {
    for (field, key) in errors {
        ctx.err(&format!("{path}.{field}"), text::t(ctx.lang, key));
    }
}

/// Makes or updates product `product_id`'s trip from `trip` (at `path`).
pub(super) async fn apply_trip(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    (product_id, price_cents): (i64, i64),
    trip: &FeedTrip,
    kept: bool,
) -> Result<(), sqlx::Error> {
    let (site_id, kind): (i64, String) = sqlx::query_as(
        "SELECT s.site_id, s.campaign_kind FROM products p JOIN sales s ON s.id = p.sale_id WHERE p.id = $1",
    )
    .bind(product_id)
    .fetch_one(&mut **tx)
    .await?;
    if kind != "TRAVEL" {
        ctx.err(path, text::t(ctx.lang, "import.not_trips"));
        return Ok(());
    }
    let destination = match store::city_named(tx, site_id, &trip.destination).await? {
        Some(id) => Some(id),
        None => new_destination(tx, ctx, site_id, trip).await?,
    };
    let Some(destination) = destination else {
        ctx.err(
            &format!("{path}.destination"),
            text::t(ctx.lang, "trip.error.destination"),
        );
        return Ok(());
    };
    let fields = TripFields {
        destination: destination.to_string(),
        latitude: trip.latitude.clone(),
        longitude: trip.longitude.clone(),
        trip_type: trip.trip_type.clone(),
        board: trip.board.clone(),
        accommodation: trip.accommodation.clone(),
        rating: trip.rating.to_string(),
        transport: trip.transport.clone(),
        highlights: trip.highlights.join("\n"),
        party_min: trip.party_min.to_string(),
        party_max: trip.party_max.to_string(),
    };
    let described = match rules::trip(&fields) {
        Ok(t) => t,
        Err(errors) => {
            field_errors(ctx, path, errors);
            return Ok(());
        }
    };
    let Some(extras) = trip_extras(ctx, path, trip, price_cents) else {
        return Ok(());
    };
    // The demo's trip already there stays as it is (see `Ids::FromRefs`).
    let mut left_alone = false;
    match store::trip_fields(tx, product_id).await? {
        Some(_) if kept => {
            ctx.out.unchanged += 1;
            left_alone = true;
        }
        Some(stored) => {
            let same = rules::trip(&stored).is_ok_and(|t| t == described);
            if !same {
                store::update_trip(tx, product_id, &described).await?;
            }
            let extras_changed = set_trip_extras(tx, product_id, &extras).await?;
            counted(ctx, !same || extras_changed);
        }
        None => {
            if !store::create_trip(tx, product_id, (site_id, price_cents), &described).await? {
                ctx.err(
                    &format!("{path}.destination"),
                    text::t(ctx.lang, "trip.error.destination"),
                );
                return Ok(());
            }
            set_trip_extras(tx, product_id, &extras).await?;
            ctx.out.created.travel += 1;
        }
    }
    let mut package_ids = std::collections::HashMap::new();
    for (i, package) in trip.packages.iter().enumerate() {
        let path = format!("{path}.packages[{i}]");
        let Ok(title) = rules::title(&package.title) else {
            ctx.err(
                &format!("{path}.title"),
                text::t(ctx.lang, "travel.error.name"),
            );
            continue;
        };
        let reference = ("package", package.reference.as_str());
        let package_id = match placed(tx, ctx, &path, reference, Owned::Package, product_id).await?
        {
            Placed::Elsewhere => continue,
            Placed::At(id) => {
                let changed = store::package_title(tx, id).await? != title;
                if changed {
                    store::set_package_title(tx, id, &title).await?;
                }
                let flags_changed = set_package_flags(tx, id, package).await?;
                counted(ctx, changed || flags_changed);
                id
            }
            Placed::Kept(id) => id,
            Placed::New(given) => {
                let id = store::add_package(tx, given, product_id, &title).await?;
                set_package_flags(tx, id, package).await?;
                remember_new(tx, ctx.ids, "package", &package.reference, id).await?;
                ctx.out.created.travel += 1;
                id
            }
        };
        package_ids.insert(package.reference.clone(), package_id);
        apply_benefits(tx, ctx, &path, package_id, &package.benefits).await?;
        apply_cities(tx, ctx, &path, package_id, &package.cities).await?;
    }
    if !left_alone && apply_start(tx, ctx, path, product_id, trip, &package_ids).await? {
        ctx.out.updated.travel += 1;
    }
    Ok(())
}

/// Where a feed's ref of the inventory stands.
enum Placed {
    /// Not imported before: to create, with this id when the feed sets it.
    New(Option<i64>),
    /// The demo's entry, already there: left as it is.
    Kept(i64),
    /// Made by an earlier import, under the same parent: to update.
    At(i64),
    /// Made under another parent: an error (said), nothing to do.
    Elsewhere,
}

/// Where the feed's `reference` of `kind` stands under `parent`.
async fn placed(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    (kind, reference): (&str, &str),
    owned: Owned,
    parent: i64,
) -> Result<Placed, sqlx::Error> {
    let id = match find(tx, ctx.ids, kind, reference).await? {
        Found::New(given) => return Ok(Placed::New(given)),
        Found::Kept(id) => {
            ctx.out.unchanged += 1;
            return Ok(Placed::Kept(id));
        }
        Found::Known(id) => id,
    };
    Ok(match store::parent_of(tx, owned, id).await? {
        Some(p) if p == parent => Placed::At(id),
        _ => {
            ctx.err(
                path,
                format!("the {kind} {reference:?} belongs to another place of the shop"),
            );
            Placed::Elsewhere
        }
    })
}

async fn apply_cities(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    package_id: i64,
    cities: &[FeedCity],
) -> Result<(), sqlx::Error> {
    for (j, city) in cities.iter().enumerate() {
        let path = format!("{path}.cities[{j}]");
        let (code, name) = match rules::city(&city.code, &city.name) {
            Ok(c) => c,
            Err(key) => {
                ctx.err(&path, text::t(ctx.lang, key));
                continue;
            }
        };
        let reference = ("city", city.reference.as_str());
        let city_id = match placed(tx, ctx, &path, reference, Owned::City, package_id).await? {
            Placed::Elsewhere => continue,
            Placed::At(id) => {
                let changed = store::city_code_name(tx, id).await? != (code.clone(), name.clone());
                if changed {
                    store::set_city(tx, id, (&code, &name)).await?;
                }
                counted(ctx, changed);
                id
            }
            Placed::Kept(id) => id,
            Placed::New(given) => {
                let id = store::add_city(tx, given, package_id, (&code, &name)).await?;
                remember_new(tx, ctx.ids, "city", &city.reference, id).await?;
                ctx.out.created.travel += 1;
                id
            }
        };
        for (k, d) in city.durations.iter().enumerate() {
            let path = format!("{path}.durations[{k}]");
            let stay =
                match rules::duration(&d.days.to_string(), &d.nights.to_string(), &d.supplement) {
                    Ok(s) => s,
                    Err(key) => {
                        ctx.err(&path, text::t(ctx.lang, key));
                        continue;
                    }
                };
            let reference = ("duration", d.reference.as_str());
            match placed(tx, ctx, &path, reference, Owned::Duration, city_id).await? {
                Placed::Elsewhere | Placed::Kept(_) => {}
                Placed::At(id) => {
                    let before = store::duration_stay(tx, id).await?;
                    let length_changed = (before.0, before.1) != (stay.0, stay.1);
                    if length_changed && store::duration_taken(tx, id).await? {
                        ctx.err(&path, text::t(ctx.lang, "import.duration_taken"));
                        continue;
                    }
                    if before != stay {
                        store::set_duration(tx, id, stay).await?;
                    }
                    counted(ctx, before != stay);
                }
                Placed::New(given) => {
                    let id = store::add_duration(tx, given, city_id, stay).await?;
                    remember_new(tx, ctx.ids, "duration", &d.reference, id).await?;
                    ctx.out.created.travel += 1;
                }
            }
        }
        for (k, season) in city.seasons.iter().enumerate() {
            let path = format!("{path}.seasons[{k}]");
            apply_season(tx, ctx, &path, city_id, season).await?;
        }
    }
    Ok(())
}

async fn apply_season(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    city_id: i64,
    s: &FeedSeason,
) -> Result<(), sqlx::Error> {
    let mut ticked: [Option<String>; 7] = Default::default();
    for day in &s.weekdays {
        match WEEKDAYS
            .iter()
            .position(|w| w.eq_ignore_ascii_case(day.trim()))
        {
            Some(i) => ticked[i] = Some("on".into()),
            None => {
                ctx.err(
                    &format!("{path}.weekdays"),
                    text::t(ctx.lang, "import.weekday"),
                );
                return Ok(());
            }
        }
    }
    let [wd0, wd1, wd2, wd3, wd4, wd5, wd6] = ticked;
    let fields = SeasonFields {
        first_day: s.first_day.clone(),
        last_day: s.last_day.clone(),
        wd0,
        wd1,
        wd2,
        wd3,
        wd4,
        wd5,
        wd6,
        price: s.price.clone(),
        reference_price: s.reference_price.clone(),
        places: s.places.to_string(),
    };
    let season = match rules::season(&fields) {
        Ok(season) => season,
        Err(key) => {
            ctx.err(path, text::t(ctx.lang, key));
            return Ok(());
        }
    };
    let reference = ("season", s.reference.as_str());
    match placed(tx, ctx, path, reference, Owned::Season, city_id).await? {
        Placed::Elsewhere | Placed::Kept(_) => {}
        Placed::At(id) => {
            let Some((_, before)) = store::season(tx, id).await? else {
                return Ok(());
            };
            let days_changed = (before.first_day, before.last_day, before.weekdays)
                != (season.first_day, season.last_day, season.weekdays);
            if days_changed && store::season_taken(tx, city_id, &before).await? {
                ctx.err(path, text::t(ctx.lang, "travel.error.season_taken"));
                return Ok(());
            }
            if before != season {
                store::set_season(tx, id, &season).await?;
            }
            counted(ctx, before != season);
        }
        Placed::New(given) => {
            let id = store::add_season(tx, given, city_id, &season).await?;
            remember_new(tx, ctx.ids, "season", &s.reference, id).await?;
            ctx.out.created.travel += 1;
        }
    }
    Ok(())
}

/// The trip's city added to the site's destinations, when the feed gives its region and
/// country with names the back office would take.
async fn new_destination(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    site_id: i64,
    trip: &FeedTrip,
) -> Result<Option<i64>, sqlx::Error> {
    let names = (
        store::destination_name(&trip.destination),
        trip.region.as_deref().and_then(store::destination_name),
        trip.country.as_deref().and_then(store::destination_name),
    );
    let (Some(city), Some(region), Some(country)) = names else {
        return Ok(None);
    };
    let added = store::add_city_destination(tx, site_id, (&city, &region, &country)).await?;
    if added.is_some() {
        ctx.out.created.travel += 1;
    }
    Ok(added)
}
