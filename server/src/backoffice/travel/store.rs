//! The travel inventory's SQL for the back office: a travel product's packages, departure
//! cities, durations, seasons and the departures that have places of their own, and the
//! writes of the forms (each in the caller's transaction, with its audit record).
use sqlx::{Any, Row, Transaction};

use app::platform::db::Db;

use crate::backoffice::sales::store::next_id;
use app::travel::rules::Season;

pub struct Inventory {
    pub product_id: i64,
    pub product_name: String,
    pub sale_id: i64,
    pub party_min: i64,
    pub party_max: i64,
    pub packages: Vec<Package>,
}

pub struct Package {
    pub id: i64,
    pub title: String,
    pub cities: Vec<City>,
}

pub struct City {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub durations: Vec<Duration>,
    /// Each with its id.
    pub seasons: Vec<(i64, Season)>,
    pub departures: Vec<Departure>,
}

pub struct Duration {
    pub id: i64,
    pub days: i64,
    pub nights: i64,
    pub supplement_cents: i64,
}

pub struct Departure {
    pub duration_id: i64,
    pub day: String,
    pub places: i64,
    pub held: i64,
    pub sold: i64,
}

/// A travel product's inventory; `None` when the product is not a travel offer.
pub async fn inventory(db: &Db, product_id: i64) -> Result<Option<Inventory>, sqlx::Error> {
    let Some(head) = sqlx::query(
        "SELECT p.name, p.sale_id, o.party_min, o.party_max FROM products p
           JOIN travel_offers o ON o.product_id = p.id WHERE p.id = $1",
    )
    .bind(product_id)
    .fetch_optional(&db.pool)
    .await?
    else {
        return Ok(None);
    };
    // Four reads for the whole tree (packages, cities, durations, seasons and departures
    // by product), grouped here.
    let packages = sqlx::query(
        "SELECT id, title FROM travel_packages WHERE product_id = $1 ORDER BY position, id",
    )
    .bind(product_id)
    .fetch_all(&db.pool)
    .await?;
    let cities = sqlx::query(
        "SELECT c.id, c.package_id, c.code, c.name FROM travel_departure_cities c
           JOIN travel_packages k ON k.id = c.package_id
          WHERE k.product_id = $1 ORDER BY c.position, c.id",
    )
    .bind(product_id)
    .fetch_all(&db.pool)
    .await?;
    let durations = sqlx::query(
        "SELECT d.id, d.city_id, d.days, d.nights, d.supplement_cents FROM travel_durations d
           JOIN travel_departure_cities c ON c.id = d.city_id
           JOIN travel_packages k ON k.id = c.package_id
          WHERE k.product_id = $1 ORDER BY d.days, d.id",
    )
    .bind(product_id)
    .fetch_all(&db.pool)
    .await?;
    let seasons = sqlx::query(
        "SELECT s.id, s.city_id, s.first_day, s.last_day, s.weekdays, s.price_cents, s.reference_price_cents, s.places
           FROM travel_seasons s JOIN travel_departure_cities c ON c.id = s.city_id
           JOIN travel_packages k ON k.id = c.package_id
          WHERE k.product_id = $1 ORDER BY s.first_day, s.id",
    )
    .bind(product_id)
    .fetch_all(&db.pool)
    .await?;
    let departures = sqlx::query(
        "SELECT d.city_id, t.duration_id, t.day, t.places, t.held, t.sold FROM travel_departures t
           JOIN travel_durations d ON d.id = t.duration_id
           JOIN travel_departure_cities c ON c.id = d.city_id
           JOIN travel_packages k ON k.id = c.package_id
          WHERE k.product_id = $1 ORDER BY t.day, t.duration_id",
    )
    .bind(product_id)
    .fetch_all(&db.pool)
    .await?;
    let mut tree = Vec::with_capacity(packages.len());
    for p in &packages {
        let package_id: i64 = p.try_get("id")?;
        let mut package = Package {
            id: package_id,
            title: p.try_get("title")?,
            cities: Vec::new(),
        };
        for c in cities
            .iter()
            .filter(|c| c.try_get::<i64, _>("package_id").ok() == Some(package_id))
        {
            let city_id: i64 = c.try_get("id")?;
            let of_city =
                |r: &&sqlx::any::AnyRow| r.try_get::<i64, _>("city_id").ok() == Some(city_id);
            package.cities.push(City {
                id: city_id,
                code: c.try_get("code")?,
                name: c.try_get("name")?,
                durations: durations
                    .iter()
                    .filter(of_city)
                    .map(|d| {
                        Ok(Duration {
                            id: d.try_get("id")?,
                            days: d.try_get("days")?,
                            nights: d.try_get("nights")?,
                            supplement_cents: d.try_get("supplement_cents")?,
                        })
                    })
                    .collect::<Result<_, sqlx::Error>>()?,
                seasons: seasons
                    .iter()
                    .filter(of_city)
                    .filter_map(|s| season_with_id(s).transpose())
                    .collect::<Result<_, sqlx::Error>>()?,
                departures: departures
                    .iter()
                    .filter(of_city)
                    .map(|d| {
                        Ok(Departure {
                            duration_id: d.try_get("duration_id")?,
                            day: d.try_get("day")?,
                            places: d.try_get("places")?,
                            held: d.try_get("held")?,
                            sold: d.try_get("sold")?,
                        })
                    })
                    .collect::<Result<_, sqlx::Error>>()?,
            });
        }
        tree.push(package);
    }
    Ok(Some(Inventory {
        product_id,
        product_name: head.try_get("name")?,
        sale_id: head.try_get("sale_id")?,
        party_min: head.try_get("party_min")?,
        party_max: head.try_get("party_max")?,
        packages: tree,
    }))
}

fn season_with_id(r: &sqlx::any::AnyRow) -> Result<Option<(i64, Season)>, sqlx::Error> {
    let id: i64 = r.try_get("id")?;
    Ok(season_row(r)?.map(|s| (id, s)))
}

fn season_row(r: &sqlx::any::AnyRow) -> Result<Option<Season>, sqlx::Error> {
    use app::travel::rules::Date;
    let (Some(first_day), Some(last_day)) = (
        Date::parse(&r.try_get::<String, _>("first_day")?),
        Date::parse(&r.try_get::<String, _>("last_day")?),
    ) else {
        return Ok(None);
    };
    Ok(Some(Season {
        first_day,
        last_day,
        weekdays: r.try_get::<i64, _>("weekdays")? as u8,
        price: r.try_get("price_cents")?,
        reference_price: r.try_get("reference_price_cents")?,
        places: r.try_get("places")?,
    }))
}

/// The travel product a package, city or duration belongs to.
pub async fn product_of(db: &Db, kind: Owned, id: i64) -> Result<Option<i64>, sqlx::Error> {
    let sql = match kind {
        Owned::Package => "SELECT product_id FROM travel_packages WHERE id = $1",
        Owned::City => {
            "SELECT k.product_id FROM travel_departure_cities c
               JOIN travel_packages k ON k.id = c.package_id WHERE c.id = $1"
        }
        Owned::Duration => {
            "SELECT k.product_id FROM travel_durations d
               JOIN travel_departure_cities c ON c.id = d.city_id
               JOIN travel_packages k ON k.id = c.package_id WHERE d.id = $1"
        }
        Owned::Season => {
            "SELECT k.product_id FROM travel_seasons s
               JOIN travel_departure_cities c ON c.id = s.city_id
               JOIN travel_packages k ON k.id = c.package_id WHERE s.id = $1"
        }
    };
    sqlx::query_scalar(sql)
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

#[derive(Clone, Copy)]
pub enum Owned {
    Package,
    City,
    Duration,
    Season,
}

pub async fn set_party(
    tx: &mut Transaction<'static, Any>,
    product_id: i64,
    (min, max): (i64, i64),
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE travel_offers SET party_min = $2, party_max = $3 WHERE product_id = $1")
        .bind(product_id)
        .bind(min)
        .bind(max)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn add_package(
    tx: &mut Transaction<'static, Any>,
    given: Option<i64>,
    product_id: i64,
    title: &str,
) -> Result<i64, sqlx::Error> {
    let id = match given {
        Some(id) => id,
        None => next_id(tx, "travel_packages", 1).await?,
    };
    sqlx::query(
        "INSERT INTO travel_packages (id, product_id, title, position)
         VALUES ($1, $2, $3, (SELECT COUNT(*) FROM travel_packages WHERE product_id = $2))",
    )
    .bind(id)
    .bind(product_id)
    .bind(title)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

pub async fn add_city(
    tx: &mut Transaction<'static, Any>,
    given: Option<i64>,
    package_id: i64,
    (code, name): (&str, &str),
) -> Result<i64, sqlx::Error> {
    let id = match given {
        Some(id) => id,
        None => next_id(tx, "travel_departure_cities", 1).await?,
    };
    sqlx::query(
        "INSERT INTO travel_departure_cities (id, package_id, code, name, position)
         VALUES ($1, $2, $3, $4, (SELECT COUNT(*) FROM travel_departure_cities WHERE package_id = $2))",
    )
    .bind(id)
    .bind(package_id)
    .bind(code)
    .bind(name)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

pub async fn add_duration(
    tx: &mut Transaction<'static, Any>,
    given: Option<i64>,
    city_id: i64,
    (days, nights, supplement): (i64, i64, i64),
) -> Result<i64, sqlx::Error> {
    let id = match given {
        Some(id) => id,
        None => next_id(tx, "travel_durations", 1).await?,
    };
    sqlx::query(
        "INSERT INTO travel_durations (id, city_id, days, nights, supplement_cents) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(city_id)
    .bind(days)
    .bind(nights)
    .bind(supplement)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

pub async fn add_season(
    tx: &mut Transaction<'static, Any>,
    given: Option<i64>,
    city_id: i64,
    s: &Season,
) -> Result<i64, sqlx::Error> {
    let id = match given {
        Some(id) => id,
        None => next_id(tx, "travel_seasons", 1).await?,
    };
    sqlx::query(
        "INSERT INTO travel_seasons (id, city_id, first_day, last_day, weekdays, price_cents, reference_price_cents, places)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(city_id)
    .bind(s.first_day.to_string())
    .bind(s.last_day.to_string())
    .bind(i64::from(s.weekdays))
    .bind(s.price)
    .bind(s.reference_price)
    .bind(s.places)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

/// Why a departure's places were not set.
pub enum PlacesRefused {
    /// Below what members hold and bought.
    BelowTaken { held: i64, sold: i64 },
}

/// Sets a departure's places through the same guarded row the bookings write under: the
/// row is made with its season's places if no one reserved it yet, then changed only if
/// the new number still covers what is held and sold. Answers the places before.
pub async fn set_places(
    tx: &mut Transaction<'static, Any>,
    duration_id: i64,
    day: &str,
    season_places: i64,
    places: i64,
) -> Result<Result<i64, PlacesRefused>, sqlx::Error> {
    sqlx::query(
        "INSERT INTO travel_departures (duration_id, day, places, held, sold) VALUES ($1, $2, $3, 0, 0)
         ON CONFLICT (duration_id, day) DO NOTHING",
    )
    .bind(duration_id)
    .bind(day)
    .bind(season_places)
    .execute(&mut **tx)
    .await?;
    let row = sqlx::query(
        "SELECT places, held, sold FROM travel_departures WHERE duration_id = $1 AND day = $2",
    )
    .bind(duration_id)
    .bind(day)
    .fetch_one(&mut **tx)
    .await?;
    let (before, held, sold): (i64, i64, i64) = (
        row.try_get("places")?,
        row.try_get("held")?,
        row.try_get("sold")?,
    );
    let changed = sqlx::query(
        "UPDATE travel_departures SET places = $3 WHERE duration_id = $1 AND day = $2 AND held + sold <= $3",
    )
    .bind(duration_id)
    .bind(day)
    .bind(places)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(if changed == 1 {
        Ok(before)
    } else {
        Err(PlacesRefused::BelowTaken { held, sold })
    })
}

/// Removes a duration no member holds, bought or booked (its departures' own places go
/// with it). Answers whether it was removed; a booking made meanwhile is kept by the
/// bookings' reference to the duration, which makes the delete fail.
pub async fn remove_duration(
    tx: &mut Transaction<'static, Any>,
    duration_id: i64,
) -> Result<bool, sqlx::Error> {
    if duration_taken(tx, duration_id).await? {
        return Ok(false);
    }
    sqlx::query("DELETE FROM travel_departures WHERE duration_id = $1")
        .bind(duration_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM travel_durations WHERE id = $1")
        .bind(duration_id)
        .execute(&mut **tx)
        .await?;
    Ok(true)
}

/// A season as stored, for the audit record of a change.
pub async fn season(
    tx: &mut Transaction<'static, Any>,
    season_id: i64,
) -> Result<Option<(i64, Season)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT city_id, first_day, last_day, weekdays, price_cents, reference_price_cents, places
           FROM travel_seasons WHERE id = $1",
    )
    .bind(season_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let city_id: i64 = row.try_get("city_id")?;
    Ok(season_row(&row)?.map(|s| (city_id, s)))
}

/// Removes a season unless members hold or bought a departure of its city within its days
/// (those keep their season: their places are set one by one instead). Answers whether it
/// was removed.
pub async fn remove_season(
    tx: &mut Transaction<'static, Any>,
    season_id: i64,
    (city_id, season): (i64, &Season),
) -> Result<bool, sqlx::Error> {
    if season_taken(tx, city_id, season).await? {
        return Ok(false);
    }
    sqlx::query("DELETE FROM travel_seasons WHERE id = $1")
        .bind(season_id)
        .execute(&mut **tx)
        .await?;
    Ok(true)
}

/// A season's new price, reference price and places per departure (departures with places
/// of their own keep them; bookings keep the price they were made at).
pub async fn set_season_terms(
    tx: &mut Transaction<'static, Any>,
    season_id: i64,
    (price, reference_price, places): (i64, i64, i64),
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE travel_seasons SET price_cents = $2, reference_price_cents = $3, places = $4 WHERE id = $1",
    )
    .bind(season_id)
    .bind(price)
    .bind(reference_price)
    .bind(places)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A product an operator may make a trip: its name, sale, site and price, whether its sale
/// is a travel sale and whether it is a trip already.
pub struct TripCandidate {
    pub name: String,
    pub sale_id: i64,
    pub site_id: i64,
    pub price_cents: i64,
    pub travel_sale: bool,
    pub is_trip: bool,
}

pub async fn trip_candidate(
    db: &Db,
    product_id: i64,
) -> Result<Option<TripCandidate>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT p.name, p.sale_id, s.site_id, p.price_cents, s.campaign_kind,
                CAST(CASE WHEN EXISTS (SELECT 1 FROM travel_offers o WHERE o.product_id = p.id) THEN 1 ELSE 0 END AS BIGINT) AS is_trip
           FROM products p JOIN sales s ON s.id = p.sale_id WHERE p.id = $1",
    )
    .bind(product_id)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok(TripCandidate {
            name: r.try_get("name")?,
            sale_id: r.try_get("sale_id")?,
            site_id: r.try_get("site_id")?,
            price_cents: r.try_get("price_cents")?,
            travel_sale: r.try_get::<String, _>("campaign_kind")? == "TRAVEL",
            is_trip: r.try_get::<i64, _>("is_trip")? == 1,
        })
    })
    .transpose()
}

/// The site's cities a trip may go to, as `City (Region)`, by name.
pub async fn cities(db: &Db, site_id: i64) -> Result<Vec<(i64, String)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT c.id, c.name, r.name AS region FROM travel_destinations c
           LEFT JOIN travel_destinations r ON r.id = c.parent_id
          WHERE c.site_id = $1 AND c.kind = 'city' ORDER BY c.name, c.id",
    )
    .bind(site_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let name: String = r.try_get("name")?;
            let region: Option<String> = r.try_get("region")?;
            Ok((
                r.try_get("id")?,
                match region {
                    Some(region) => format!("{name} ({region})"),
                    None => name,
                },
            ))
        })
        .collect()
}

/// Makes the product a trip of the travel catalog, with no package yet (the inventory page
/// adds them). The words the catalog shows around its price are the site's. Answers false
/// when the destination is not one of the site's cities or the product is a trip already.
pub async fn create_trip(
    tx: &mut Transaction<'static, Any>,
    product_id: i64,
    (site_id, price_cents): (i64, i64),
    trip: &super::rules::Trip,
) -> Result<bool, sqlx::Error> {
    let lang = app::site::by_id_or_default(u16::try_from(site_id).unwrap_or(1)).lang;
    let inserted = sqlx::query(
        "INSERT INTO travel_offers (product_id, destination_id, lat_e6, lng_e6, trip_type, board,
                accommodation_type, rating, transport, thematics, payment_facilities, notorious_brand,
                benefit, bullet_points, tabs_json, price_unit, price_prefix, lowest_30d_cents,
                party_min, party_max, party_rules_json, profiles_json)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, '', '', 0, NULL, $10, '[]', $11, $12, $13, $14, $15, '{}', $16
          WHERE EXISTS (SELECT 1 FROM travel_destinations WHERE id = $2 AND site_id = $17 AND kind = 'city')
            AND NOT EXISTS (SELECT 1 FROM travel_offers WHERE product_id = $1)",
    )
    .bind(product_id)
    .bind(trip.destination_id)
    .bind(trip.lat_e6)
    .bind(trip.lng_e6)
    .bind(trip.trip_type)
    .bind(trip.board)
    .bind(trip.accommodation)
    .bind(trip.rating)
    .bind(trip.transport)
    .bind(trip.highlights.join("\n"))
    .bind(app::site::i18n::t(lang, "travel.offer.per_person"))
    .bind(app::site::i18n::t(lang, "travel.offer.from"))
    .bind(price_cents)
    .bind(trip.party.0)
    .bind(trip.party.1)
    .bind(app::travel::rules::offer::DEFAULT_PROFILES)
    .bind(site_id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(inserted == 1)
}

/// Whether members hold, bought or booked a departure of the duration.
pub async fn duration_taken(
    tx: &mut Transaction<'static, Any>,
    duration_id: i64,
) -> Result<bool, sqlx::Error> {
    let taken: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM travel_bookings WHERE duration_id = $1)
              + (SELECT COUNT(*) FROM travel_departures WHERE duration_id = $1 AND held + sold > 0)",
    )
    .bind(duration_id)
    .fetch_one(&mut **tx)
    .await?;
    Ok(taken > 0)
}

/// Whether members hold or bought a departure of the city within the season's days.
pub async fn season_taken(
    tx: &mut Transaction<'static, Any>,
    city_id: i64,
    season: &Season,
) -> Result<bool, sqlx::Error> {
    let taken: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM travel_departures t JOIN travel_durations d ON d.id = t.duration_id
          WHERE d.city_id = $1 AND t.day >= $2 AND t.day <= $3 AND t.held + t.sold > 0",
    )
    .bind(city_id)
    .bind(season.first_day.to_string())
    .bind(season.last_day.to_string())
    .fetch_one(&mut **tx)
    .await?;
    Ok(taken > 0)
}

/// A trip as stored, in the form's words (so the feed compares it with what it says).
pub async fn trip_fields(
    tx: &mut Transaction<'static, Any>,
    product_id: i64,
) -> Result<Option<super::rules::TripFields>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT destination_id, lat_e6, lng_e6, trip_type, board, accommodation_type, rating,
                transport, bullet_points, party_min, party_max
           FROM travel_offers WHERE product_id = $1",
    )
    .bind(product_id)
    .fetch_optional(&mut **tx)
    .await?;
    let degrees = |e6: i64| format!("{:.6}", e6 as f64 / 1e6);
    row.map(|r| {
        Ok(super::rules::TripFields {
            destination: r.try_get::<i64, _>("destination_id")?.to_string(),
            latitude: degrees(r.try_get("lat_e6")?),
            longitude: degrees(r.try_get("lng_e6")?),
            trip_type: r.try_get("trip_type")?,
            board: r.try_get("board")?,
            accommodation: r.try_get("accommodation_type")?,
            rating: r.try_get::<i64, _>("rating")?.to_string(),
            transport: r.try_get("transport")?,
            highlights: r.try_get("bullet_points")?,
            party_min: r.try_get::<i64, _>("party_min")?.to_string(),
            party_max: r.try_get::<i64, _>("party_max")?.to_string(),
        })
    })
    .transpose()
}

/// A trip's new description (its words around the price and its inventory stay).
pub async fn update_trip(
    tx: &mut Transaction<'static, Any>,
    product_id: i64,
    trip: &super::rules::Trip,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE travel_offers SET destination_id = $2, lat_e6 = $3, lng_e6 = $4, trip_type = $5,
                board = $6, accommodation_type = $7, rating = $8, transport = $9, bullet_points = $10,
                party_min = $11, party_max = $12
          WHERE product_id = $1",
    )
    .bind(product_id)
    .bind(trip.destination_id)
    .bind(trip.lat_e6)
    .bind(trip.lng_e6)
    .bind(trip.trip_type)
    .bind(trip.board)
    .bind(trip.accommodation)
    .bind(trip.rating)
    .bind(trip.transport)
    .bind(trip.highlights.join("\n"))
    .bind(trip.party.0)
    .bind(trip.party.1)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The site's city of that name (compared folded, as the travel search does).
pub async fn city_named(
    tx: &mut Transaction<'static, Any>,
    site_id: i64,
    name: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT MIN(id) FROM travel_destinations WHERE site_id = $1 AND kind = 'city' AND folded = $2",
    )
    .bind(site_id)
    .bind(app::text::fold::fold(name.trim()))
    .fetch_one(&mut **tx)
    .await
}

pub async fn set_package_title(
    tx: &mut Transaction<'static, Any>,
    package_id: i64,
    title: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE travel_packages SET title = $2 WHERE id = $1")
        .bind(package_id)
        .bind(title)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn set_city(
    tx: &mut Transaction<'static, Any>,
    city_id: i64,
    (code, name): (&str, &str),
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE travel_departure_cities SET code = $2, name = $3 WHERE id = $1")
        .bind(city_id)
        .bind(code)
        .bind(name)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn set_duration(
    tx: &mut Transaction<'static, Any>,
    duration_id: i64,
    (days, nights, supplement): (i64, i64, i64),
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE travel_durations SET days = $2, nights = $3, supplement_cents = $4 WHERE id = $1",
    )
    .bind(duration_id)
    .bind(days)
    .bind(nights)
    .bind(supplement)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A season's days, weekdays and terms.
pub async fn set_season(
    tx: &mut Transaction<'static, Any>,
    season_id: i64,
    s: &Season,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE travel_seasons SET first_day = $2, last_day = $3, weekdays = $4, price_cents = $5,
                reference_price_cents = $6, places = $7
          WHERE id = $1",
    )
    .bind(season_id)
    .bind(s.first_day.to_string())
    .bind(s.last_day.to_string())
    .bind(i64::from(s.weekdays))
    .bind(s.price)
    .bind(s.reference_price)
    .bind(s.places)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The row that `kind`'s `id` belongs to (a package's product, a city's package, a
/// duration's or a season's city).
pub async fn parent_of(
    tx: &mut Transaction<'static, Any>,
    kind: Owned,
    id: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let sql = match kind {
        Owned::Package => "SELECT product_id FROM travel_packages WHERE id = $1",
        Owned::City => "SELECT package_id FROM travel_departure_cities WHERE id = $1",
        Owned::Duration => "SELECT city_id FROM travel_durations WHERE id = $1",
        Owned::Season => "SELECT city_id FROM travel_seasons WHERE id = $1",
    };
    sqlx::query_scalar(sql)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await
}

/// A package's title, a city's code and name, or a duration's stay, as stored.
pub async fn package_title(
    tx: &mut Transaction<'static, Any>,
    id: i64,
) -> Result<String, sqlx::Error> {
    sqlx::query_scalar("SELECT title FROM travel_packages WHERE id = $1")
        .bind(id)
        .fetch_one(&mut **tx)
        .await
}

pub async fn city_code_name(
    tx: &mut Transaction<'static, Any>,
    id: i64,
) -> Result<(String, String), sqlx::Error> {
    sqlx::query_as("SELECT code, name FROM travel_departure_cities WHERE id = $1")
        .bind(id)
        .fetch_one(&mut **tx)
        .await
}

pub async fn duration_stay(
    tx: &mut Transaction<'static, Any>,
    id: i64,
) -> Result<(i64, i64, i64), sqlx::Error> {
    sqlx::query_as("SELECT days, nights, supplement_cents FROM travel_durations WHERE id = $1")
        .bind(id)
        .fetch_one(&mut **tx)
        .await
}

/// A destination's name: 1 to 80 characters, control characters removed.
pub fn destination_name(s: &str) -> Option<String> {
    let t: String = s.trim().chars().filter(|c| !c.is_control()).collect();
    (!t.is_empty() && t.chars().count() <= 80).then_some(t)
}

/// The site's destination of `kind` named `name` (folded, as the travel search compares)
/// under `parent`, made if the site has none; its id.
async fn destination(
    tx: &mut Transaction<'static, Any>,
    site_id: i64,
    (kind, name): (&str, &str),
    parent: Option<i64>,
) -> Result<i64, sqlx::Error> {
    let folded = app::text::fold::fold(name);
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT MIN(id) FROM travel_destinations
          WHERE site_id = $1 AND kind = $2 AND folded = $3 AND COALESCE(parent_id, 0) = COALESCE($4, 0)",
    )
    .bind(site_id)
    .bind(kind)
    .bind(&folded)
    .bind(parent)
    .fetch_one(&mut **tx)
    .await?;
    if let Some(id) = found {
        return Ok(id);
    }
    let id = next_id(tx, "travel_destinations", 1).await?;
    sqlx::query(
        "INSERT INTO travel_destinations (id, site_id, kind, name, folded, parent_id)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(site_id)
    .bind(kind)
    .bind(name)
    .bind(&folded)
    .bind(parent)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

/// A new city of the site for trips to go to, in its region and country (each found by
/// name or made); its id, or none when the site has a city of that name already.
pub async fn add_city_destination(
    tx: &mut Transaction<'static, Any>,
    site_id: i64,
    (city, region, country): (&str, &str, &str),
) -> Result<Option<i64>, sqlx::Error> {
    if city_named(tx, site_id, city).await?.is_some() {
        return Ok(None);
    }
    let country = destination(tx, site_id, ("country", country), None).await?;
    let region = destination(tx, site_id, ("region", region), Some(country)).await?;
    destination(tx, site_id, ("city", city), Some(region))
        .await
        .map(Some)
}

/// A trip's description as stored (see `rules::description`).
pub async fn description(
    tx: &mut Transaction<'static, Any>,
    product_id: i64,
) -> Result<super::rules::Described, sqlx::Error> {
    let (thematics, payment_facilities, notorious_brand, benefit, tabs_json, lowest_30d_cents) =
        sqlx::query_as(
            "SELECT thematics, payment_facilities, notorious_brand, benefit, tabs_json, lowest_30d_cents
               FROM travel_offers WHERE product_id = $1",
        )
        .bind(product_id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(super::rules::Described {
        thematics,
        payment_facilities,
        notorious_brand,
        benefit,
        tabs_json,
        lowest_30d_cents,
    })
}

pub async fn set_description(
    tx: &mut Transaction<'static, Any>,
    product_id: i64,
    d: &super::rules::Described,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE travel_offers SET thematics = $2, payment_facilities = $3, notorious_brand = $4,
                benefit = $5, tabs_json = $6, lowest_30d_cents = $7 WHERE product_id = $1",
    )
    .bind(product_id)
    .bind(&d.thematics)
    .bind(&d.payment_facilities)
    .bind(d.notorious_brand)
    .bind(&d.benefit)
    .bind(&d.tabs_json)
    .bind(d.lowest_30d_cents)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
