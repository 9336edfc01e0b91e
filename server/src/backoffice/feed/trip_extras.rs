//! What a feed says of a trip beyond the "make it a trip" form: its themes, instalments,
//! perk, tabs, lowest price of 30 days and party rules (`travel_offers`), a package's
//! extras and flags, and where the configurator starts. Checked here, written only when
//! they differ from what the shop has.
use std::collections::HashMap;

use sqlx::{Any, Transaction};

use super::super::sales::rules::cents;
use super::super::text;
use super::super::travel::rules::{self, Described, Description};
use super::super::travel::store;
use super::apply::Ctx;
use super::refs::{find, remember_new, Found};
use super::{FeedBenefit, FeedPackage, FeedTrip};

const MAX_PARTY: i64 = rules::MAX_PARTY;

/// The offer's columns the feed sets beyond the form's: its description (the description
/// form's rule) and its party rules.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct TripExtras {
    described: Described,
    party_rules_json: String,
    profiles_json: String,
}

fn plain(s: &str, max: usize) -> Option<String> {
    let t: String = s.trim().chars().filter(|c| !c.is_control()).collect();
    (!t.is_empty() && t.chars().count() <= max).then_some(t)
}

/// The trip's extras, checked (errors said), for a product priced `price_cents`.
pub(super) fn trip_extras(
    ctx: &mut Ctx<'_>,
    path: &str,
    trip: &FeedTrip,
    price_cents: i64,
) -> Option<TripExtras> {
    let description = Description {
        themes: trip.themes.clone(),
        payment_facilities: trip.payment_facilities.clone(),
        renowned_brand: trip.renowned_brand,
        perk: trip.perk.clone().unwrap_or_default(),
        tabs: (trip.tabs.iter())
            .map(|t| (t.title.clone(), t.content.clone()))
            .collect(),
        lowest_price: trip.lowest_price_30_days.clone().unwrap_or_default(),
    };
    let described = rules::description(&description, price_cents);
    if let Err(errors) = &described {
        for (field, key) in errors {
            ctx.err(&format!("{path}.{field}"), text::t(ctx.lang, key));
        }
    }
    let rules = match &trip.party_rules {
        None => Some("{}".to_string()),
        Some(table) => {
            let fits = table.iter().all(|(adults, children)| {
                let a = adults.parse::<i64>().unwrap_or(-1);
                a >= 1
                    && children.iter().all(|(c, babies)| {
                        let c = c.parse::<i64>().unwrap_or(-1);
                        c >= 0
                            && babies.iter().all(|b| {
                                (0..=MAX_PARTY).contains(b)
                                    && (trip.party_min..=trip.party_max).contains(&(a + c + b))
                            })
                    })
            });
            if !fits {
                ctx.err(
                    &format!("{path}.party_rules"),
                    text::t(ctx.lang, "import.party_rules"),
                );
            }
            fits.then(|| serde_json::to_string(table).unwrap_or_else(|_| "{}".into()))
        }
    };
    // The profiles' age windows are the shop's; the offer says what a child pays.
    let over = trip.child_price_percent.is_some_and(|p| p > 100);
    if over {
        ctx.err(
            &format!("{path}.child_price_percent"),
            text::t(ctx.lang, "import.child_price_percent"),
        );
    }
    let mut profiles: Vec<app::model::travel::ParticipantProfile> =
        serde_json::from_str(app::travel::rules::offer::DEFAULT_PROFILES).unwrap_or_default();
    for p in &mut profiles {
        if p.kind == app::model::travel::ParticipantType::Children {
            p.price_percent = trip.child_price_percent;
        }
    }
    let profiles_json = serde_json::to_string(&profiles).unwrap_or_default();
    Some(TripExtras {
        described: described.ok()?,
        party_rules_json: rules?,
        profiles_json: (!over).then_some(profiles_json)?,
    })
}

/// Writes the extras of product `product_id`'s trip unless they are already so; whether
/// they changed.
pub(super) async fn set_trip_extras(
    tx: &mut Transaction<'static, Any>,
    product_id: i64,
    e: &TripExtras,
) -> Result<bool, sqlx::Error> {
    let mut changed = false;
    if store::description(tx, product_id).await? != e.described {
        store::set_description(tx, product_id, &e.described).await?;
        changed = true;
    }
    let rules: String =
        sqlx::query_scalar("SELECT party_rules_json FROM travel_offers WHERE product_id = $1")
            .bind(product_id)
            .fetch_one(&mut **tx)
            .await?;
    if rules != e.party_rules_json {
        sqlx::query("UPDATE travel_offers SET party_rules_json = $2 WHERE product_id = $1")
            .bind(product_id)
            .bind(&e.party_rules_json)
            .execute(&mut **tx)
            .await?;
        changed = true;
    }
    let profiles: String =
        sqlx::query_scalar("SELECT profiles_json FROM travel_offers WHERE product_id = $1")
            .bind(product_id)
            .fetch_one(&mut **tx)
            .await?;
    if profiles != e.profiles_json {
        sqlx::query("UPDATE travel_offers SET profiles_json = $2 WHERE product_id = $1")
            .bind(product_id)
            .bind(&e.profiles_json)
            .execute(&mut **tx)
            .await?;
        changed = true;
    }
    Ok(changed)
}

/// A package's flags from the feed (extras offered, the cheapest-city toggle), written
/// unless already so; whether they changed.
pub(super) async fn set_package_flags(
    tx: &mut Transaction<'static, Any>,
    package_id: i64,
    p: &FeedPackage,
) -> Result<bool, sqlx::Error> {
    let wanted = (
        i64::from(!p.benefits.is_empty()),
        i64::from(p.cheapest_toggle),
    );
    let stored: (i64, i64) = sqlx::query_as(
        "SELECT with_benefits, with_cheapest_toggle FROM travel_packages WHERE id = $1",
    )
    .bind(package_id)
    .fetch_one(&mut **tx)
    .await?;
    if stored == wanted {
        return Ok(false);
    }
    sqlx::query(
        "UPDATE travel_packages SET with_benefits = $2, with_cheapest_toggle = $3 WHERE id = $1",
    )
    .bind(package_id)
    .bind(wanted.0)
    .bind(wanted.1)
    .execute(&mut **tx)
    .await?;
    Ok(true)
}

/// The package's extras by their refs: made, updated or left as they are.
pub(super) async fn apply_benefits(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    package_id: i64,
    benefits: &[FeedBenefit],
) -> Result<(), sqlx::Error> {
    for (i, b) in benefits.iter().enumerate() {
        let path = format!("{path}.benefits[{i}]");
        let label = plain(&b.label, 120);
        let price = cents(&b.price);
        if label.is_none() {
            ctx.err(&format!("{path}.label"), text::t(ctx.lang, "import.text"));
        }
        if price.is_none() {
            ctx.err(
                &format!("{path}.price"),
                text::t(ctx.lang, "sales.error.price"),
            );
        }
        if !(0..=MAX_PARTY).contains(&b.min_count) {
            ctx.err(
                &format!("{path}.min_count"),
                text::t(ctx.lang, "import.position"),
            );
        }
        let (Some(label), Some(price)) = (label, price) else {
            continue;
        };
        if !(0..=MAX_PARTY).contains(&b.min_count) {
            continue;
        }
        let wanted = (package_id, label, price, b.min_count);
        match find(tx, ctx.ids, "benefit", &b.reference).await? {
            Found::Kept(_) => ctx.out.unchanged += 1,
            Found::Known(id) => {
                let stored: Option<(i64, String, i64, i64)> = sqlx::query_as(
                    "SELECT package_id, label, price_cents, min_count FROM travel_benefits WHERE id = $1",
                )
                .bind(id)
                .fetch_optional(&mut **tx)
                .await?;
                match stored {
                    Some(s) if s == wanted => ctx.out.unchanged += 1,
                    Some(s) if s.0 != package_id => ctx.err(
                        &path,
                        format!("the benefit {:?} belongs to another package", b.reference),
                    ),
                    _ => {
                        sqlx::query(
                            "UPDATE travel_benefits SET label = $2, price_cents = $3, min_count = $4 WHERE id = $1",
                        )
                        .bind(id)
                        .bind(&wanted.1)
                        .bind(wanted.2)
                        .bind(wanted.3)
                        .execute(&mut **tx)
                        .await?;
                        ctx.out.updated.travel += 1;
                    }
                }
            }
            Found::New(given) => {
                let id = match given {
                    Some(id) => id,
                    None => super::super::sales::store::next_id(tx, "travel_benefits", 1).await?,
                };
                sqlx::query(
                    "INSERT INTO travel_benefits (id, package_id, label, price_cents, min_count)
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(id)
                .bind(package_id)
                .bind(&wanted.1)
                .bind(wanted.2)
                .bind(wanted.3)
                .execute(&mut **tx)
                .await?;
                remember_new(tx, ctx.ids, "benefit", &b.reference, id).await?;
                ctx.out.created.travel += 1;
            }
        }
    }
    Ok(())
}

/// Where the configurator starts, from the feed's `start` (checked against the trip's
/// packages, their cities and stays in the feed); whether it changed.
pub(super) async fn apply_start(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    product_id: i64,
    trip: &FeedTrip,
    packages: &HashMap<String, i64>,
) -> Result<bool, sqlx::Error> {
    let wanted = match &trip.start {
        None => (None, None, None, None),
        Some(start) => {
            let package = trip.packages.iter().find(|p| p.reference == start.package);
            let city = package.and_then(|p| {
                p.cities
                    .iter()
                    .find(|c| c.code.trim().eq_ignore_ascii_case(start.city.trim()))
            });
            let stay = city.is_some_and(|c| {
                c.durations
                    .iter()
                    .any(|d| (d.days, d.nights) == (start.days, start.nights))
            });
            let package_id = packages.get(&start.package).copied();
            match (package_id, city) {
                (Some(id), Some(city)) if stay => (
                    Some(id),
                    Some(city.code.trim().to_ascii_uppercase()),
                    Some(start.days),
                    Some(start.nights),
                ),
                _ => {
                    ctx.err(&format!("{path}.start"), text::t(ctx.lang, "import.start"));
                    return Ok(false);
                }
            }
        }
    };
    let stored: (Option<i64>, Option<String>, Option<i64>, Option<i64>) = sqlx::query_as(
        "SELECT default_package_id, default_city_code, default_days, default_nights
           FROM travel_offers WHERE product_id = $1",
    )
    .bind(product_id)
    .fetch_one(&mut **tx)
    .await?;
    if stored == wanted {
        return Ok(false);
    }
    sqlx::query(
        "UPDATE travel_offers SET default_package_id = $2, default_city_code = $3, default_days = $4,
                default_nights = $5 WHERE product_id = $1",
    )
    .bind(product_id)
    .bind(wanted.0)
    .bind(&wanted.1)
    .bind(wanted.2)
    .bind(wanted.3)
    .execute(&mut **tx)
    .await?;
    Ok(true)
}
