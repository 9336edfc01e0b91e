//! Making a product of a travel sale a trip: where it goes (one of the site's cities and a
//! point on the map), what kind of trip, board, accommodation, rating and transport, its
//! highlights and who may travel together. The packages, cities, durations and seasons
//! are then added on its travel inventory page, where this leads. A city the site has no
//! trip to yet is added here too, in its region and country.
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;

use app::travel::rules::offer::{ACCOMMODATIONS, BOARDS, RATINGS, TRANSPORTS, TRIP_TYPES};

use super::super::audit::Entry;
use super::super::roles::Permission;
use super::super::session::{Operator, OperatorForm};
use super::super::{ui, PREFIX};
use super::rules::{self, TripFields};
use super::store::{self, TripCandidate};
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(
            &format!("{PREFIX}/products/{{id}}/trip"),
            get(page).post(create_form),
        )
        .route(
            &format!("{PREFIX}/products/{{id}}/trip/destination"),
            post(destination_form),
        )
}

/// A new destination: a city, in its region and country.
#[derive(serde::Deserialize, Default, Clone)]
#[serde(default)]
pub struct DestinationFields {
    city: String,
    region: String,
    country: String,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
pub struct PageQuery {
    done: String,
}

type FieldErrors = Vec<(&'static str, &'static str)>;

/// A select of `values`, each labelled by its back-office word `{prefix}.{value}`.
fn choices(op: &Operator, prefix: &str, values: &[&str], selected: &str) -> AnyView {
    values
        .iter()
        .map(|v| {
            let label = op.t(&format!("{prefix}.{v}")).to_string();
            view! { <option value=v.to_string() selected=*v == selected>{label}</option> }
        })
        .collect_view()
        .into_any()
}

fn view_page(
    op: &Operator,
    product_id: i64,
    (product, cities): (&TripCandidate, &[(i64, String)]),
    (f, place): (&TripFields, &DestinationFields),
    (errors, notice): (&FieldErrors, Option<String>),
    status: StatusCode,
) -> Response {
    let t = |k: &str| op.t(k);
    let said = ui::FieldMessages::new(op, errors);
    let err = |name: &str| said.message(name);
    let invalid = |name: &str| said.invalid(name);
    let described = |name: &str| said.described(name);
    let summary = said.summary();
    let destinations = cities
        .iter()
        .map(|(id, name)| view! { <option value=id.to_string() selected=f.destination == id.to_string()>{name.clone()}</option> })
        .collect_view();
    let ratings = RATINGS
        .map(|r| view! { <option value=r.to_string() selected=f.rating == r.to_string()>{format!("{r} ★")}</option> })
        .collect_view();
    let select = |name: &'static str, label: &str, options: AnyView| {
        ui::field(label, name, view! { <select id=name name=name aria-invalid=invalid(name) aria-describedby=described(name)>{options}</select> }.into_any(), err(name))
    };
    let text = |name: &'static str, label: &str, value: &str, mode: &'static str| {
        ui::field(label, name, view! { <input id=name name=name required inputmode=mode value=value.to_string() aria-invalid=invalid(name) aria-describedby=described(name) /> }.into_any(), err(name))
    };
    let body = view! {
        <p><a href=format!("{PREFIX}/sales/{}/products", product.sale_id)>{t("sales.products")}</a></p>
        <p>{t("trip.help")}</p>
        {summary}
        <form method="post" action=format!("{PREFIX}/products/{product_id}/trip") data-enhance>
            {ui::xsrf_field(op)}
            {select("destination", t("trip.destination"), destinations.into_any())}
            {text("latitude", t("trip.latitude"), &f.latitude, "decimal")}
            {text("longitude", t("trip.longitude"), &f.longitude, "decimal")}
            {select("trip_type", t("trip.trip_type"), choices(op, "trip.trip_type", &TRIP_TYPES, &f.trip_type))}
            {select("board", t("trip.board"), choices(op, "trip.board", &BOARDS, &f.board))}
            {select("accommodation", t("trip.accommodation"), choices(op, "trip.accommodation", &ACCOMMODATIONS, &f.accommodation))}
            {select("rating", t("trip.rating"), ratings.into_any())}
            {select("transport", t("trip.transport"), choices(op, "trip.transport", &TRANSPORTS, &f.transport))}
            {ui::field(t("trip.highlights"), "highlights", view! { <textarea id="highlights" name="highlights" rows="4" aria-invalid=invalid("highlights") aria-describedby=described("highlights")>{f.highlights.clone()}</textarea> }.into_any(), err("highlights"))}
            {text("party_min", t("travel.party_min"), &f.party_min, "numeric")}
            {text("party_max", t("travel.party_max"), &f.party_max, "numeric")}
            <button type="submit">{t("trip.create")}</button>
        </form>
        <h2 id="new-destination">{t("destination.heading")}</h2>
        <p>{t("destination.help")}</p>
        <form method="post" action=format!("{PREFIX}/products/{product_id}/trip/destination")>
            {ui::xsrf_field(op)}
            {text("city", t("destination.city"), &place.city, "text")}
            {text("region", t("destination.region"), &place.region, "text")}
            {text("country", t("destination.country"), &place.country, "text")}
            <button type="submit" class="bo-secondary">{t("destination.add")}</button>
        </form>
    }
    .into_any();
    let title = format!("{} · {}", product.name, t("trip.title"));
    ui::page(status, op.lang(), Some(op), &title, notice, body)
}

/// The product, if the operator may edit the catalogue and it is one of a travel sale and
/// not a trip yet, with its site's cities; else the page to answer (a trip already: its
/// inventory).
async fn candidate(
    app: &AppCtx,
    op: &Operator,
    product_id: i64,
) -> Result<(TripCandidate, Vec<(i64, String)>), Response> {
    op.require(Permission::EditCatalogue)?;
    let product = match store::trip_candidate(&app.state.db, product_id).await {
        Ok(Some(p)) if p.travel_sale => p,
        Ok(_) => return Err(ui::not_found(op)),
        Err(e) => return Err(ui::db_error(e)),
    };
    if product.is_trip {
        return Err(ui::see_other(&format!(
            "{PREFIX}/products/{product_id}/travel"
        )));
    }
    match store::cities(&app.state.db, product.site_id).await {
        Ok(cities) => Ok((product, cities)),
        Err(e) => Err(ui::db_error(e)),
    }
}

async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(product_id): Path<i64>,
    Query(q): Query<PageQuery>,
) -> Response {
    let (product, cities) = match candidate(&app, &op, product_id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let f = TripFields {
        rating: "3".into(),
        party_min: "1".into(),
        party_max: "6".into(),
        ..Default::default()
    };
    let notice = (q.done == "destination").then(|| op.t("destination.added").to_string());
    view_page(
        &op,
        product_id,
        (&product, &cities),
        (&f, &DestinationFields::default()),
        (&Vec::new(), notice),
        StatusCode::OK,
    )
}

async fn create_form(
    State(app): State<Arc<AppCtx>>,
    Path(product_id): Path<i64>,
    form: OperatorForm<TripFields>,
) -> Response {
    let op = &form.operator;
    let (product, cities) = match candidate(&app, op, product_id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let f = &form.fields;
    let refuse = |errors: FieldErrors| {
        view_page(
            op,
            product_id,
            (&product, &cities),
            (f, &DestinationFields::default()),
            (&errors, None),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
    };
    let trip = match rules::trip(f) {
        Ok(t) => t,
        Err(errors) => return refuse(errors),
    };
    if !cities.iter().any(|(id, _)| *id == trip.destination_id) {
        return refuse(vec![("destination", "trip.error.destination")]);
    }
    let result: Result<bool, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let made = store::create_trip(
            &mut tx,
            product_id,
            (product.site_id, product.price_cents),
            &trip,
        )
        .await?;
        if !made {
            return Ok(false);
        }
        let entry = Entry {
            action: "create",
            object_kind: "trip",
            object_id: product_id.to_string(),
            summary: format!(
                "destination {} at {:.4}, {:.4}: {} {} {} {}★ {}",
                trip.destination_id,
                trip.lat_e6 as f64 / 1e6,
                trip.lng_e6 as f64 / 1e6,
                trip.trip_type,
                trip.board,
                trip.accommodation,
                trip.rating,
                trip.transport
            ),
        };
        super::commit(tx, op, entry).await?;
        Ok(true)
    }
    .await;
    match result {
        Ok(_) => ui::see_other(&format!("{PREFIX}/products/{product_id}/travel?done=1")),
        Err(e) => ui::db_error(e),
    }
}

async fn destination_form(
    State(app): State<Arc<AppCtx>>,
    Path(product_id): Path<i64>,
    form: OperatorForm<DestinationFields>,
) -> Response {
    let op = &form.operator;
    let (product, cities) = match candidate(&app, op, product_id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let f = &form.fields;
    let refuse = |errors: FieldErrors| {
        let trip = TripFields {
            rating: "3".into(),
            party_min: "1".into(),
            party_max: "6".into(),
            ..Default::default()
        };
        view_page(
            op,
            product_id,
            (&product, &cities),
            (&trip, f),
            (&errors, None),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
    };
    let names = [&f.city, &f.region, &f.country].map(|n| store::destination_name(n));
    let [Some(city), Some(region), Some(country)] = names.clone() else {
        let errors = ["city", "region", "country"]
            .into_iter()
            .zip(names)
            .filter(|(_, n)| n.is_none())
            .map(|(field, _)| (field, "destination.error.name"))
            .collect();
        return refuse(errors);
    };
    let result: Result<Option<i64>, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let place = (city.as_str(), region.as_str(), country.as_str());
        let Some(id) = store::add_city_destination(&mut tx, product.site_id, place).await? else {
            return Ok(None);
        };
        let entry = Entry {
            action: "create",
            object_kind: "destination",
            object_id: id.to_string(),
            summary: format!("site {}: {city} ({region}, {country})", product.site_id),
        };
        super::commit(tx, op, entry).await?;
        Ok(Some(id))
    }
    .await;
    match result {
        Ok(Some(_)) => ui::see_other(&format!(
            "{PREFIX}/products/{product_id}/trip?done=destination#destination"
        )),
        Ok(None) => refuse(vec![("city", "destination.error.taken")]),
        Err(e) => ui::db_error(e),
    }
}
