//! The rows an offers query starts from: the offers of the live travel sales in scope with
//! their departure cities, seasons and shortest stay, and the site's destinations.
use std::collections::{BTreeMap, BTreeSet, HashMap};

use sqlx::Row;

use crate::model::travel::TravelOffer;
use crate::model::travel_catalog::OfferQuery;
use crate::platform::db::Db;
use crate::platform::sql::live_window;
use crate::travel::rules::Date;

use super::select::{Candidate, Departures};

/// The sales in scope: `$1` site, `$2` now, then the campaign and universe if any.
fn scope(query: &OfferQuery) -> (String, Vec<i64>) {
    let mut w = vec![
        "s.site_id = $1".to_string(),
        "s.campaign_kind = 'TRAVEL'".to_string(),
        live_window("$2"),
        crate::platform::sql::shown("p"),
    ];
    let mut binds = vec![];
    if let Some(c) = query.campaign_id {
        binds.push(c);
        w.push(format!("s.id = ${}", binds.len() + 2));
    }
    if let Some(u) = query.universe_id.filter(|u| *u > 0) {
        binds.push(u);
        let n = binds.len() + 2;
        w.push(format!(
            "(p.universe_id = ${n} OR p.universe_id IN (SELECT id FROM universes WHERE parent_id = ${n}))"
        ));
    }
    (w.join(" AND "), binds)
}

async fn rows(
    db: &Db,
    sql: &str,
    query: &OfferQuery,
    binds: &[i64],
    now: i64,
) -> Result<Vec<sqlx::any::AnyRow>, sqlx::Error> {
    let mut q = sqlx::query(sql).bind(i64::from(query.site_id)).bind(now);
    for b in binds {
        q = q.bind(*b);
    }
    q.fetch_all(&db.pool).await
}

fn list(s: &str) -> Vec<String> {
    s.split([',', '\n'])
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(String::from)
        .collect()
}

/// Every offer in scope, in catalog order, with its cities, seasons and shortest stay.
pub(super) async fn candidates(
    db: &Db,
    query: &OfferQuery,
    now: i64,
) -> Result<Vec<Candidate>, sqlx::Error> {
    let (scope, binds) = scope(query);
    let from = "FROM products p JOIN sales s ON s.id = p.sale_id JOIN travel_offers o ON o.product_id = p.id";
    let offers = rows(
        db,
        &format!(
            "SELECT p.id, p.image_id, p.sale_id, p.name, {from_price} AS price_cents, p.retail_price_cents, s.with_map,
                    o.destination_id, d.name AS destination, o.lat_e6, o.lng_e6, o.trip_type, o.board,
                    o.accommodation_type, o.rating, o.transport, o.thematics, o.payment_facilities,
                    o.notorious_brand, o.benefit
               {from} JOIN travel_destinations d ON d.id = o.destination_id
              WHERE {scope} ORDER BY s.position, s.id, p.position, p.id",
            from_price = crate::travel::store::from_price::SQL,
        ),
        query,
        &binds,
        now,
    )
    .await?;
    let cities = rows(
        db,
        &format!(
            "SELECT c.id, c.code, pk.product_id {from}
               JOIN travel_packages pk ON pk.product_id = p.id
               JOIN travel_departure_cities c ON c.package_id = pk.id
              WHERE {scope} ORDER BY c.id"
        ),
        query,
        &binds,
        now,
    )
    .await?;
    let seasons = rows(
        db,
        &format!(
            "SELECT se.city_id, se.first_day, se.last_day, se.weekdays {from}
               JOIN travel_packages pk ON pk.product_id = p.id
               JOIN travel_departure_cities c ON c.package_id = pk.id
               JOIN travel_seasons se ON se.city_id = c.id
              WHERE {scope} AND se.places > 0 ORDER BY se.id"
        ),
        query,
        &binds,
        now,
    )
    .await?;
    // Days on which no duration of a city has a place left: not a departure to offer.
    let sold_out = rows(
        db,
        &format!(
            "SELECT du.city_id, dp.day {from}
               JOIN travel_packages pk ON pk.product_id = p.id
               JOIN travel_departure_cities c ON c.package_id = pk.id
               JOIN travel_durations du ON du.city_id = c.id
               JOIN travel_departures dp ON dp.duration_id = du.id
              WHERE {scope} AND dp.held + dp.sold >= dp.places
              GROUP BY du.city_id, dp.day
             HAVING COUNT(*) = (SELECT COUNT(*) FROM travel_durations d2 WHERE d2.city_id = du.city_id)"
        ),
        query,
        &binds,
        now,
    )
    .await?;
    let stays = rows(
        db,
        &format!(
            "SELECT du.city_id, du.days {from}
               JOIN travel_packages pk ON pk.product_id = p.id
               JOIN travel_departure_cities c ON c.package_id = pk.id
               JOIN travel_durations du ON du.city_id = c.id
              WHERE {scope} ORDER BY du.id"
        ),
        query,
        &binds,
        now,
    )
    .await?;
    let mut stays_of: HashMap<i64, Vec<u32>> = HashMap::new();
    for r in stays {
        let days = u32::try_from(r.try_get::<i64, _>("days")?).unwrap_or(0);
        stays_of
            .entry(r.try_get("city_id")?)
            .or_default()
            .push(days);
    }
    let mut sold_out_of: HashMap<i64, BTreeSet<Date>> = HashMap::new();
    for r in sold_out {
        if let Some(day) = Date::parse(&r.try_get::<String, _>("day")?) {
            sold_out_of
                .entry(r.try_get("city_id")?)
                .or_default()
                .insert(day);
        }
    }
    let nights = rows(
        db,
        &format!(
            "SELECT pk.product_id, MIN(du.nights) AS nights {from}
               JOIN travel_packages pk ON pk.product_id = p.id
               JOIN travel_departure_cities c ON c.package_id = pk.id
               JOIN travel_durations du ON du.city_id = c.id
              WHERE {scope} GROUP BY pk.product_id"
        ),
        query,
        &binds,
        now,
    )
    .await?;
    let mut by_city: HashMap<i64, Vec<Departures>> = HashMap::new();
    for r in seasons {
        let (Some(first), Some(last)) = (
            Date::parse(&r.try_get::<String, _>("first_day")?),
            Date::parse(&r.try_get::<String, _>("last_day")?),
        ) else {
            continue;
        };
        let city_id: i64 = r.try_get("city_id")?;
        let sold_out = sold_out_of
            .get(&city_id)
            .map(|days| days.range(first..=last).copied().collect())
            .unwrap_or_default();
        by_city.entry(city_id).or_default().push(Departures {
            first,
            last,
            weekdays: r.try_get::<i64, _>("weekdays")? as u8,
            sold_out,
            stays: stays_of.get(&city_id).cloned().unwrap_or_default(),
        });
    }
    let mut cities_of: HashMap<i64, Vec<(String, Vec<Departures>)>> = HashMap::new();
    for r in cities {
        let id: i64 = r.try_get("id")?;
        cities_of
            .entry(r.try_get("product_id")?)
            .or_default()
            .push((r.try_get("code")?, by_city.remove(&id).unwrap_or_default()));
    }
    let nights: HashMap<i64, i64> = nights
        .iter()
        .map(|r| {
            Ok((
                r.try_get("product_id")?,
                r.try_get::<Option<i64>, _>("nights")?.unwrap_or(0),
            ))
        })
        .collect::<Result<_, sqlx::Error>>()?;
    offers
        .into_iter()
        .map(|r| {
            let id: i64 = r.try_get("id")?;
            let campaign_id: i64 = r.try_get("sale_id")?;
            let destination_id: i64 = r.try_get("destination_id")?;
            let transport: String = r.try_get("transport")?;
            let rating = r.try_get::<i64, _>("rating")?;
            let board: String = r.try_get("board")?;
            let mut values: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
            values.insert("location", vec![destination_id.to_string()]);
            values.insert(
                "transportation",
                vec![if transport == "none" {
                    "none"
                } else {
                    "included"
                }
                .to_string()],
            );
            values.insert(
                "transportationtype",
                if transport == "none" {
                    vec![]
                } else {
                    vec![transport.clone()]
                },
            );
            values.insert("accomodationtype", vec![r.try_get("accommodation_type")?]);
            values.insert("board", vec![board.clone()]);
            values.insert("establishmentrating", vec![rating.to_string()]);
            values.insert("thematics", list(&r.try_get::<String, _>("thematics")?));
            values.insert(
                "paymentfacility",
                list(&r.try_get::<String, _>("payment_facilities")?),
            );
            values.insert(
                "notoriousbrands",
                if r.try_get::<i64, _>("notorious_brand")? != 0 {
                    vec!["1".into()]
                } else {
                    vec![]
                },
            );
            Ok(Candidate {
                offer: TravelOffer {
                    id,
                    campaign_id,
                    title: r.try_get("name")?,
                    destination: r.try_get("destination")?,
                    image: crate::catalog::rules::product_image_url(id, r.try_get("image_id")?),
                    href: format!("/t/p/{campaign_id}/{id}"),
                    price_from: r.try_get("price_cents")?,
                    retail_value: r.try_get("retail_price_cents")?,
                    nights: nights.get(&id).copied().unwrap_or(0) as u32,
                    board,
                    rating: rating as u32,
                    lat: r.try_get::<i64, _>("lat_e6")? as f64 / 1e6,
                    lng: r.try_get::<i64, _>("lng_e6")? as f64 / 1e6,
                    benefit: r.try_get("benefit")?,
                    favorite: false,
                },
                with_map: r.try_get::<i64, _>("with_map")? != 0,
                destination_id,
                trip_type: r.try_get("trip_type")?,
                values,
                cities: cities_of.remove(&id).unwrap_or_default(),
            })
        })
        .collect()
}

/// The site's destinations: id to (parent, folded name).
pub(super) async fn destinations(
    db: &Db,
    site_id: u16,
) -> Result<HashMap<i64, (Option<i64>, String)>, sqlx::Error> {
    let rows =
        sqlx::query("SELECT id, parent_id, folded FROM travel_destinations WHERE site_id = $1")
            .bind(i64::from(site_id))
            .fetch_all(&db.pool)
            .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("id")?,
                (r.try_get("parent_id")?, r.try_get("folded")?),
            ))
        })
        .collect()
}
