//! A travel product with its packages, cities, durations and benefits, priced from its
//! seasons; and the calendar of one duration.
use std::collections::BTreeMap;

use sqlx::Row;

use crate::model::travel::{
    Benefit, CalendarDays, Configurator, DefaultConfiguration, DepartureCity, Duration, Package,
    ParticipantProfile, ParticipantRules, PriceText, Tab, TravelPrice, TravelProduct,
};
use crate::platform::db::Db;
use crate::platform::sql::live_window;
use crate::travel::rules::{calendar, Date, Season};

/// How far ahead departures can be booked: from three days after today, for a year.
pub const FIRST_BOOKABLE_DAY: i64 = 3;
pub const BOOKABLE_DAYS: i64 = 365;

/// The bookable window seen at `now`.
pub fn window(now: i64) -> (Date, Date) {
    let today = Date::from_unix(now);
    (
        today.add_days(FIRST_BOOKABLE_DAY),
        today.add_days(FIRST_BOOKABLE_DAY + BOOKABLE_DAYS),
    )
}

async fn seasons(db: &Db, city_id: i64) -> Result<Vec<Season>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT first_day, last_day, weekdays, price_cents, reference_price_cents, places
           FROM travel_seasons WHERE city_id = $1 ORDER BY first_day, id",
    )
    .bind(city_id)
    .fetch_all(&db.pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let (Some(first_day), Some(last_day)) = (
            Date::parse(&r.try_get::<String, _>("first_day")?),
            Date::parse(&r.try_get::<String, _>("last_day")?),
        ) else {
            continue;
        };
        out.push(Season {
            first_day,
            last_day,
            weekdays: r.try_get::<i64, _>("weekdays")? as u8,
            price: r.try_get("price_cents")?,
            reference_price: r.try_get("reference_price_cents")?,
            places: r.try_get("places")?,
        });
    }
    Ok(out)
}

/// Places and places taken (held + sold) of the departures of a duration that have a row.
async fn taken(db: &Db, duration_id: i64) -> Result<BTreeMap<String, (i64, i64)>, sqlx::Error> {
    let rows =
        sqlx::query("SELECT day, places, held, sold FROM travel_departures WHERE duration_id = $1")
            .bind(duration_id)
            .fetch_all(&db.pool)
            .await?;
    let mut out = BTreeMap::new();
    for r in rows {
        let used: i64 = r.try_get::<i64, _>("held")? + r.try_get::<i64, _>("sold")?;
        out.insert(r.try_get("day")?, (r.try_get("places")?, used));
    }
    Ok(out)
}

/// The places of a departure as its season sets them (before any booking); `None` when no
/// season covers the day.
pub async fn season_places(
    db: &Db,
    duration_id: i64,
    day: Date,
) -> Result<Option<i64>, sqlx::Error> {
    let Some(d) = duration_row(db, duration_id).await? else {
        return Ok(None);
    };
    let seasons = seasons(db, d.city_id).await?;
    Ok(crate::travel::rules::season_of(&seasons, day).map(|s| s.places))
}

/// A duration's city and supplement.
struct DurationRow {
    city_id: i64,
    supplement: i64,
}

async fn duration_row(db: &Db, duration_id: i64) -> Result<Option<DurationRow>, sqlx::Error> {
    let row = sqlx::query("SELECT city_id, supplement_cents FROM travel_durations WHERE id = $1")
        .bind(duration_id)
        .fetch_optional(&db.pool)
        .await?;
    row.map(|r| {
        Ok(DurationRow {
            city_id: r.try_get("city_id")?,
            supplement: r.try_get("supplement_cents")?,
        })
    })
    .transpose()
}

/// The calendar of one duration in the bookable window; `None` for an unknown duration.
pub async fn duration_calendar(
    db: &Db,
    duration_id: i64,
    now: i64,
) -> Result<Option<CalendarDays>, sqlx::Error> {
    let Some(d) = duration_row(db, duration_id).await? else {
        return Ok(None);
    };
    let seasons = seasons(db, d.city_id).await?;
    let (from, to) = window(now);
    Ok(Some(calendar(
        &seasons,
        duration_id,
        d.supplement,
        from,
        to,
        &taken(db, duration_id).await?,
    )))
}

/// The product of a live travel sale of the site, or `None`.
pub async fn product(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    product_id: i64,
    member_id: Option<i64>,
    now: i64,
) -> Result<Option<TravelProduct>, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT p.name, p.image_id, p.description_html, p.price_cents, p.retail_price_cents, s.name AS sale_name,
                s.with_quotation_price, o.*, d.name AS destination
           FROM products p
           JOIN sales s ON s.id = p.sale_id
           JOIN travel_offers o ON o.product_id = p.id
           JOIN travel_destinations d ON d.id = o.destination_id
          WHERE p.id = $1 AND p.sale_id = $2 AND s.site_id = $3 AND s.campaign_kind = 'TRAVEL' AND {} AND {}",
        live_window("$4"),
        crate::platform::sql::shown("p")
    ))
    .bind(product_id)
    .bind(sale_id)
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let rules = ParticipantRules {
        min: row.try_get::<i64, _>("party_min")? as u32,
        max: row.try_get::<i64, _>("party_max")? as u32,
        rules: serde_json::from_str(&row.try_get::<String, _>("party_rules_json")?)
            .unwrap_or_default(),
        profiles: serde_json::from_str::<Vec<ParticipantProfile>>(
            &row.try_get::<String, _>("profiles_json")?,
        )
        .unwrap_or_default(),
    };
    let packages = packages(db, product_id, &rules, now).await?;
    let lowest = match lowest_city_price(&packages) {
        Some(p) => p,
        None => row.try_get("price_cents")?,
    };
    let favorite = crate::catalog::store::is_favourite(db, member_id, product_id).await?;
    let tabs: Vec<Tab> =
        serde_json::from_str(&row.try_get::<String, _>("tabs_json")?).unwrap_or_default();
    let list = |s: String| -> Vec<String> {
        s.split([',', '\n'])
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(String::from)
            .collect()
    };
    let description: String = row.try_get("description_html")?;
    Ok(Some(TravelProduct {
        id: product_id,
        campaign_id: sale_id,
        campaign_name: row.try_get("sale_name")?,
        title: row.try_get("name")?,
        description: crate::text::sanitize::data_sheet(&description),
        bullet_points: list(row.try_get("bullet_points")?),
        is_public: true,
        image: crate::catalog::rules::product_image_url(product_id, row.try_get("image_id")?),
        destination: row.try_get("destination")?,
        lat: row.try_get::<i64, _>("lat_e6")? as f64 / 1e6,
        lng: row.try_get::<i64, _>("lng_e6")? as f64 / 1e6,
        price: TravelPrice {
            value: lowest,
            unit: row.try_get("price_unit")?,
            text: PriceText {
                prefix: row.try_get("price_prefix")?,
            },
            retail_value: row.try_get("retail_price_cents")?,
            retail_price_notice: row.try_get("lowest_30d_cents")?,
            payment_facilities: list(row.try_get("payment_facilities")?),
        },
        tabs,
        benefit: row.try_get("benefit")?,
        default_configuration: DefaultConfiguration {
            package_id: row.try_get("default_package_id")?,
            departure_city: row.try_get("default_city_code")?,
            days: row
                .try_get::<Option<i64>, _>("default_days")?
                .map(|d| d as u32),
            nights: row
                .try_get::<Option<i64>, _>("default_nights")?
                .map(|d| d as u32),
            checkin: None,
        },
        packages,
        with_quotation_price: row.try_get::<i64, _>("with_quotation_price")? != 0,
        favorite,
    }))
}

/// The lowest price of a city in stock, over the packages: the header's "from", and the
/// one stored for the lists.
pub fn lowest_city_price(packages: &[Package]) -> Option<i64> {
    packages
        .iter()
        .flat_map(|p| &p.configurator.departure_cities)
        .filter(|c| !c.is_out_of_stock)
        .map(|c| c.price)
        .min()
}

async fn packages(
    db: &Db,
    product_id: i64,
    rules: &ParticipantRules,
    now: i64,
) -> Result<Vec<Package>, sqlx::Error> {
    let rows =
        sqlx::query("SELECT * FROM travel_packages WHERE product_id = $1 ORDER BY position, id")
            .bind(product_id)
            .fetch_all(&db.pool)
            .await?;
    let mut out = Vec::new();
    for r in rows {
        let id: i64 = r.try_get("id")?;
        let flag =
            |name: &str| -> Result<bool, sqlx::Error> { Ok(r.try_get::<i64, _>(name)? != 0) };
        let cities = cities(db, id, now).await?;
        let benefits = sqlx::query(
            "SELECT id, label, price_cents, min_count FROM travel_benefits WHERE package_id = $1 ORDER BY id",
        )
        .bind(id)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|b| {
            Ok(Benefit {
                id: b.try_get("id")?,
                label: b.try_get("label")?,
                price: b.try_get("price_cents")?,
                min: b.try_get::<i64, _>("min_count")? as u32,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        out.push(Package {
            id,
            title: r.try_get("title")?,
            is_out_of_stock: cities.iter().all(|c| c.is_out_of_stock),
            configurator: Configurator {
                departure_cities: cities,
                participants: rules.clone(),
                benefits,
                with_benefits: flag("with_benefits")?,
                with_departure_dates: flag("with_departure_dates")?,
                with_durations: flag("with_durations")?,
                with_departure_cities: flag("with_departure_cities")?,
                with_participants: flag("with_participants")?,
                with_cheapest_toggle: flag("with_cheapest_toggle")?,
            },
        });
    }
    Ok(out)
}

/// A package's cities, each priced (and its durations) by its lowest bookable day.
pub(super) async fn cities(
    db: &Db,
    package_id: i64,
    now: i64,
) -> Result<Vec<DepartureCity>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, code, name FROM travel_departure_cities WHERE package_id = $1 ORDER BY position, id",
    )
    .bind(package_id)
    .fetch_all(&db.pool)
    .await?;
    let (from, to) = window(now);
    let mut out = Vec::new();
    for r in rows {
        let city_id: i64 = r.try_get("id")?;
        let seasons = seasons(db, city_id).await?;
        let durations = sqlx::query(
            "SELECT id, days, nights, supplement_cents FROM travel_durations WHERE city_id = $1 ORDER BY days, id",
        )
        .bind(city_id)
        .fetch_all(&db.pool)
        .await?;
        let mut priced = Vec::new();
        let mut city_price: Option<(i64, i64)> = None;
        for d in durations {
            let id: i64 = d.try_get("id")?;
            let days = calendar(
                &seasons,
                id,
                d.try_get("supplement_cents")?,
                from,
                to,
                &taken(db, id).await?,
            );
            let lowest = days.values().find(|d| d.is_lowest);
            if let Some(l) = lowest {
                if city_price.is_none_or(|(p, _)| l.price < p) {
                    city_price = Some((l.price, l.reference_price));
                }
            }
            priced.push(Duration {
                id,
                day: d.try_get::<i64, _>("days")? as u32,
                night: d.try_get::<i64, _>("nights")? as u32,
                price: lowest.map(|l| l.price).unwrap_or(0),
                is_out_of_stock: lowest.is_none(),
            });
        }
        out.push(DepartureCity {
            id: city_id,
            code: r.try_get("code")?,
            value: r.try_get("name")?,
            price: city_price.map(|c| c.0).unwrap_or(0),
            reference_price: city_price.map(|c| c.1).unwrap_or(0),
            is_out_of_stock: city_price.is_none(),
            durations: priced,
        });
    }
    Ok(out)
}
