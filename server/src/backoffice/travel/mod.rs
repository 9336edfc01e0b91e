//! A travel product's inventory in the back office: its packages, their departure cities,
//! each city's durations (stay lengths with a supplement) and seasons (departure days by
//! weekday between two days, a price, a reference price and places per departure), the
//! places of single departures while members book them, and who may travel together.
//! What the shop's price calendar and configurator read (`app::travel`), edited here.
pub mod description;
pub mod rules;
pub mod store;
pub mod trip;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;
use sqlx::{Any, Transaction};

use app::platform::state::now;
use app::travel::rules::Date;

use super::audit::{self, Entry};
use super::roles::Permission;
use super::session::{Operator, OperatorForm};
use super::{ui, PREFIX};
use crate::state::AppCtx;
use store::{Inventory, Owned, PlacesRefused};

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/products/{{id}}/travel"), get(page))
        .route(
            &format!("{PREFIX}/products/{{id}}/travel/party"),
            post(party_form),
        )
        .route(
            &format!("{PREFIX}/products/{{id}}/travel/packages"),
            post(package_form),
        )
        .route(
            &format!("{PREFIX}/travel/packages/{{id}}/cities"),
            post(city_form),
        )
        .route(
            &format!("{PREFIX}/travel/cities/{{id}}/durations"),
            post(duration_form),
        )
        .route(
            &format!("{PREFIX}/travel/cities/{{id}}/seasons"),
            post(season_form),
        )
        .route(&format!("{PREFIX}/travel/places"), post(places_form))
        .merge(trip::router())
        .merge(description::router())
        .route(
            &format!("{PREFIX}/travel/durations/{{id}}/remove"),
            post(remove_duration_form),
        )
        .route(
            &format!("{PREFIX}/travel/seasons/{{id}}"),
            post(season_terms_form),
        )
        .route(
            &format!("{PREFIX}/travel/seasons/{{id}}/remove"),
            post(remove_season_form),
        )
}

const WEEKDAYS: [&str; 7] = [
    "travel.mon",
    "travel.tue",
    "travel.wed",
    "travel.thu",
    "travel.fri",
    "travel.sat",
    "travel.sun",
];

fn weekdays_text(op: &Operator, bits: u8) -> String {
    WEEKDAYS
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, k)| op.t(k))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A refused form: its key on the page, the message, and what was typed (shown again).
#[derive(Default)]
struct Refusal {
    form: String,
    message: String,
    typed: Vec<(&'static str, String)>,
}

impl Refusal {
    /// What was typed in field `name` of form `form`, when that form was refused.
    fn typed(&self, form: &str, name: &str) -> String {
        if self.form != form {
            return String::new();
        }
        self.typed
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PageQuery {
    done: String,
}

async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(product_id): Path<i64>,
    Query(q): Query<PageQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ReadCatalogue) {
        return r;
    }
    let notice = (!q.done.is_empty()).then(|| op.t("travel.saved").to_string());
    render(&app, &op, product_id, notice, None, StatusCode::OK).await
}

async fn render(
    app: &AppCtx,
    op: &Operator,
    product_id: i64,
    notice: Option<String>,
    refusal: Option<Refusal>,
    status: StatusCode,
) -> Response {
    match store::inventory(&app.state.db, product_id).await {
        Ok(Some(inv)) => view_page(op, &inv, notice, refusal, status),
        Ok(None) => ui::not_found(op),
        Err(e) => ui::db_error(e),
    }
}

fn view_page(
    op: &Operator,
    inv: &Inventory,
    notice: Option<String>,
    refusal: Option<Refusal>,
    status: StatusCode,
) -> Response {
    let t = |k: &str| op.t(k);
    let edit = op.can(Permission::EditCatalogue);
    let stock = op.can(Permission::AdjustStock);
    let refusal = refusal.unwrap_or_default();
    let error_for = |form: &str| {
        (refusal.form == form)
            .then(|| view! { <p class="bo-error" role="alert">{refusal.message.clone()}</p> })
    };
    let pid = inv.product_id;
    let party = view! {
        {edit.then(|| view! { <p><a href=format!("{PREFIX}/products/{pid}/travel/description") data-description>{t("description.link")}</a></p> })}
        <h2>{t("travel.party")}</h2>
        <p data-party>{format!("{}: {} – {}", t("travel.travellers"), inv.party_min, inv.party_max)}</p>
        {edit.then(|| view! {
            {error_for("party")}
            <form method="post" action=format!("{PREFIX}/products/{pid}/travel/party") class="bo-inline">
                {ui::xsrf_field(op)}
                <label for="party-min">{t("travel.party_min")}</label>
                <input id="party-min" name="min" inputmode="numeric" required value=Some(refusal.typed("party", "min")).filter(|v| !v.is_empty()).unwrap_or(inv.party_min.to_string()) />
                <label for="party-max">{t("travel.party_max")}</label>
                <input id="party-max" name="max" inputmode="numeric" required value=Some(refusal.typed("party", "max")).filter(|v| !v.is_empty()).unwrap_or(inv.party_max.to_string()) />
                <button type="submit" class="bo-secondary">{t("travel.save")}</button>
            </form>
        })}
    };
    let packages = inv
        .packages
        .iter()
        .map(|p| {
            let cities = p
                .cities
                .iter()
                .map(|c| {
                    let label = format!("{} {}", c.code, c.name);
                    let durations = c
                        .durations
                        .iter()
                        .map(|d| {
                            let text = format!("{} {} / {} {}", d.days, t("travel.days"), d.nights, t("travel.nights"));
                            let key = format!("duration-remove-{}", d.id);
                            let remove = edit.then(|| view! {
                                {error_for(&key)}
                                <form method="post" action=format!("{PREFIX}/travel/durations/{}/remove", d.id) class="bo-inline" data-enhance-confirm=t("travel.remove_confirm")>
                                    {ui::xsrf_field(op)}
                                    <button type="submit" class="bo-secondary" aria-label=format!("{label} · {text} · {}", t("travel.remove"))>{t("travel.remove")}</button>
                                </form>
                            });
                            view! { <li data-duration=d.id.to_string()>{format!("{text} · +{}", ui::amount(d.supplement_cents))}{remove}</li> }
                        })
                        .collect_view();
                    let seasons = c
                        .seasons
                        .iter()
                        .map(|(id, s)| {
                            let id = *id;
                            let key = format!("season-terms-{id}");
                            let days = format!("{} → {}", s.first_day, s.last_day);
                            let named = |what: &str| format!("{label} · {days} · {what}");
                            let typed = |name: &str, stored: String| Some(refusal.typed(&key, name)).filter(|v| !v.is_empty()).unwrap_or(stored);
                            let actions = edit.then(|| view! {
                                <td>
                                    {error_for(&key)}
                                    <form method="post" action=format!("{PREFIX}/travel/seasons/{id}") class="bo-inline">
                                        {ui::xsrf_field(op)}
                                        <input name="price" inputmode="decimal" required size="7" value=typed("price", ui::amount(s.price)) aria-label=named(t("travel.price")) />
                                        <input name="reference_price" inputmode="decimal" required size="7" value=typed("reference_price", ui::amount(s.reference_price)) aria-label=named(t("travel.reference_price")) />
                                        <input name="places" inputmode="numeric" required size="4" value=typed("places", s.places.to_string()) aria-label=named(t("travel.places")) />
                                        <button type="submit" class="bo-secondary" aria-label=named(t("travel.save"))>{t("travel.save")}</button>
                                    </form>
                                    <form method="post" action=format!("{PREFIX}/travel/seasons/{id}/remove") class="bo-inline" data-enhance-confirm=t("travel.remove_confirm")>
                                        {ui::xsrf_field(op)}
                                        <button type="submit" class="bo-secondary" aria-label=named(t("travel.remove"))>{t("travel.remove")}</button>
                                    </form>
                                </td>
                            });
                            view! {
                                <tr data-season=id.to_string()>
                                    <td>{days.clone()}</td>
                                    <td>{weekdays_text(op, s.weekdays)}</td>
                                    <td class="num">{ui::amount(s.price)}</td>
                                    <td class="num">{ui::amount(s.reference_price)}</td>
                                    <td class="num">{s.places}</td>
                                    {actions}
                                </tr>
                            }
                        })
                        .collect_view();
                    let departures = c
                        .departures
                        .iter()
                        .map(|d| view! {
                            <tr data-departure=format!("{}/{}", d.duration_id, d.day)>
                                <td>{d.day.clone()}</td>
                                <td>{c.durations.iter().find(|x| x.id == d.duration_id).map(|x| format!("{} {}", x.days, t("travel.days"))).unwrap_or_default()}</td>
                                <td class="num">{d.places}</td><td class="num">{d.held}</td><td class="num">{d.sold}</td>
                                <td class="num">{d.places - d.held - d.sold}</td>
                            </tr>
                        })
                        .collect_view();
                    let city_id = c.id;
                    let add_duration = edit.then(|| {
                        let key = format!("duration-{city_id}");
                        view! {
                            {error_for(&key)}
                            <form method="post" action=format!("{PREFIX}/travel/cities/{city_id}/durations") class="bo-inline">
                                {ui::xsrf_field(op)}
                                <input name="days" inputmode="numeric" required value=refusal.typed(&key, "days") aria-label=format!("{label} · {}", t("travel.days")) placeholder=t("travel.days") />
                                <input name="nights" inputmode="numeric" required value=refusal.typed(&key, "nights") aria-label=format!("{label} · {}", t("travel.nights")) placeholder=t("travel.nights") />
                                <input name="supplement" inputmode="decimal" value=refusal.typed(&key, "supplement") aria-label=format!("{label} · {}", t("travel.supplement")) placeholder=t("travel.supplement") />
                                <button type="submit" class="bo-secondary">{t("travel.add_duration")}</button>
                            </form>
                        }
                    });
                    let add_season = edit.then(|| {
                        let key = format!("season-{city_id}");
                        let boxes = WEEKDAYS
                            .iter()
                            .enumerate()
                            .map(|(i, k)| {
                                let id = format!("season-{city_id}-wd{i}");
                                let name = format!("wd{i}");
                                let checked = !refusal.typed(&key, &name).is_empty();
                                view! { <input type="checkbox" id=id.clone() name=name checked=checked /><label for=id>{t(k)}</label> }
                            })
                            .collect_view();
                        view! {
                            {error_for(&key)}
                            <form method="post" action=format!("{PREFIX}/travel/cities/{city_id}/seasons") class="bo-inline">
                                {ui::xsrf_field(op)}
                                <input name="first_day" type="date" required value=refusal.typed(&key, "first_day") aria-label=format!("{label} · {}", t("travel.first_day")) />
                                <input name="last_day" type="date" required value=refusal.typed(&key, "last_day") aria-label=format!("{label} · {}", t("travel.last_day")) />
                                <fieldset><legend>{format!("{label} · {}", t("travel.weekdays"))}</legend>{boxes}</fieldset>
                                <input name="price" inputmode="decimal" required value=refusal.typed(&key, "price") aria-label=format!("{label} · {}", t("travel.price")) placeholder=t("travel.price") />
                                <input name="reference_price" inputmode="decimal" required value=refusal.typed(&key, "reference_price") aria-label=format!("{label} · {}", t("travel.reference_price")) placeholder=t("travel.reference_price") />
                                <input name="places" inputmode="numeric" required value=refusal.typed(&key, "places") aria-label=format!("{label} · {}", t("travel.places")) placeholder=t("travel.places") />
                                <button type="submit" class="bo-secondary">{t("travel.add_season")}</button>
                            </form>
                        }
                    });
                    let set_places = (stock && !c.durations.is_empty()).then(|| {
                        let key = format!("places-{city_id}");
                        let choices = c
                            .durations
                            .iter()
                            .map(|d| view! { <option value=d.id.to_string()>{format!("{} {} / {} {}", d.days, t("travel.days"), d.nights, t("travel.nights"))}</option> })
                            .collect_view();
                        view! {
                            {error_for(&key)}
                            <form method="post" action=format!("{PREFIX}/travel/places") class="bo-inline" data-city=city_id.to_string()>
                                {ui::xsrf_field(op)}
                                <select name="duration" aria-label=format!("{label} · {}", t("travel.duration"))>{choices}</select>
                                <input name="day" type="date" required value=refusal.typed(&key, "day") aria-label=format!("{label} · {}", t("travel.day")) />
                                <input name="places" inputmode="numeric" required value=refusal.typed(&key, "places") aria-label=format!("{label} · {}", t("travel.departure_places")) placeholder=t("travel.places") />
                                <button type="submit">{t("travel.set_places")}</button>
                            </form>
                        }
                    });
                    view! {
                        <section class="bo-travel-city" data-city=city_id.to_string()>
                            <h4>{label.clone()}</h4>
                            <ul>{durations}</ul>
                            {add_duration}
                            <div class="bo-table-wrap" tabindex="0">
                                <table>
                                    <caption>{format!("{label} · {}", t("travel.seasons"))}</caption>
                                    <thead><tr>
                                        <th scope="col">{t("travel.days_range")}</th><th scope="col">{t("travel.weekdays")}</th>
                                        <th scope="col" class="num">{t("travel.price")}</th><th scope="col" class="num">{t("travel.reference_price")}</th>
                                        <th scope="col" class="num">{t("travel.places")}</th>
                                        {edit.then(|| view! { <th scope="col">{t("travel.change")}</th> })}
                                    </tr></thead>
                                    <tbody>{seasons}</tbody>
                                </table>
                            </div>
                            {add_season}
                            <div class="bo-table-wrap" tabindex="0">
                                <table>
                                    <caption>{format!("{label} · {}", t("travel.departures"))}</caption>
                                    <thead><tr>
                                        <th scope="col">{t("travel.day")}</th><th scope="col">{t("travel.duration")}</th>
                                        <th scope="col" class="num">{t("travel.places")}</th><th scope="col" class="num">{t("stock.held")}</th>
                                        <th scope="col" class="num">{t("stock.sold")}</th><th scope="col" class="num">{t("stock.available")}</th>
                                    </tr></thead>
                                    <tbody>{departures}</tbody>
                                </table>
                            </div>
                            {set_places}
                        </section>
                    }
                })
                .collect_view();
            let package_id = p.id;
            let add_city = edit.then(|| {
                let key = format!("city-{package_id}");
                view! {
                    {error_for(&key)}
                    <form method="post" action=format!("{PREFIX}/travel/packages/{package_id}/cities") class="bo-inline">
                        {ui::xsrf_field(op)}
                        <input name="code" maxlength="5" required value=refusal.typed(&key, "code") aria-label=format!("{} · {}", p.title, t("travel.code")) placeholder="CDG" />
                        <input name="name" maxlength="80" required value=refusal.typed(&key, "name") aria-label=format!("{} · {}", p.title, t("travel.city")) placeholder=t("travel.city") />
                        <button type="submit" class="bo-secondary">{t("travel.add_city")}</button>
                    </form>
                }
            });
            view! {
                <section class="bo-travel-package" data-package=package_id.to_string()>
                    <h3>{p.title.clone()}</h3>
                    {cities}
                    {add_city}
                </section>
            }
        })
        .collect_view();
    let add_package = edit.then(|| {
        view! {
            <h2>{t("travel.new_package")}</h2>
            {error_for("package")}
            <form method="post" action=format!("{PREFIX}/products/{pid}/travel/packages") class="bo-inline">
                {ui::xsrf_field(op)}
                <label for="package-title">{t("travel.package_title")}</label>
                <input id="package-title" name="title" maxlength="120" required value=refusal.typed("package", "title") />
                <button type="submit" class="bo-secondary">{t("travel.add_package")}</button>
            </form>
        }
    });
    let empty = inv
        .packages
        .is_empty()
        .then(|| view! { <p>{t("travel.no_package")}</p> });
    let body = view! {
        <p><a href=format!("{PREFIX}/sales/{}/products", inv.sale_id)>{t("sales.products")}</a></p>
        {party}
        <h2>{t("travel.packages")}</h2>
        {empty}
        {packages}
        {add_package}
    }
    .into_any();
    let title = format!("{} · {}", inv.product_name, t("travel.title"));
    ui::page(status, op.lang(), Some(op), &title, notice, body)
}

/// Records the write and commits: the audit record is in the write's own transaction.
async fn commit(
    mut tx: Transaction<'static, Any>,
    op: &Operator,
    entry: Entry<'_>,
) -> Result<(), sqlx::Error> {
    audit::record(&mut tx, &op.actor(), entry, now()).await?;
    tx.commit().await
}

fn saved(product_id: i64) -> Response {
    ui::see_other(&format!("{PREFIX}/products/{product_id}/travel?done=1"))
}

/// A form's write: given the transaction, it writes and says what to record.
type Work<'t> = Pin<Box<dyn Future<Output = Result<Entry<'static>, sqlx::Error>> + Send + 't>>;

/// Runs a form's write in one transaction with its audit record, then back to the page.
async fn write(
    app: &AppCtx,
    op: &Operator,
    product_id: i64,
    work: impl for<'t> FnOnce(&'t mut Transaction<'static, Any>) -> Work<'t>,
) -> Response {
    let result = async {
        let mut tx = app.state.db.begin().await?;
        let entry = work(&mut tx).await?;
        commit(tx, op, entry).await
    }
    .await;
    match result {
        Ok(()) => saved(product_id),
        Err(e) => ui::db_error(e),
    }
}

async fn refused(
    app: &AppCtx,
    op: &Operator,
    product_id: i64,
    form: String,
    key: &str,
    typed: Vec<(&'static str, String)>,
) -> Response {
    let refusal = Refusal {
        form,
        message: op.t(key).to_string(),
        typed,
    };
    let status = StatusCode::UNPROCESSABLE_ENTITY;
    render(app, op, product_id, None, Some(refusal), status).await
}

/// The travel product `id` of `kind` belongs to, or the page to answer.
async fn owner(app: &AppCtx, op: &Operator, kind: Owned, id: i64) -> Result<i64, Response> {
    match store::product_of(&app.state.db, kind, id).await {
        Ok(Some(p)) => Ok(p),
        Ok(None) => Err(ui::not_found(op)),
        Err(e) => Err(ui::db_error(e)),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PartyFields {
    min: String,
    max: String,
}

async fn party_form(
    State(app): State<Arc<AppCtx>>,
    Path(product_id): Path<i64>,
    form: OperatorForm<PartyFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let before = match store::inventory(&app.state.db, product_id).await {
        Ok(Some(inv)) => (inv.party_min, inv.party_max),
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let party = match rules::party(&form.fields.min, &form.fields.max) {
        Ok(p) => p,
        Err(key) => {
            let typed = vec![
                ("min", form.fields.min.clone()),
                ("max", form.fields.max.clone()),
            ];
            return refused(&app, op, product_id, "party".into(), key, typed).await;
        }
    };
    write(&app, op, product_id, move |tx| {
        Box::pin(async move {
            store::set_party(tx, product_id, party).await?;
            Ok(Entry {
                action: "update",
                object_kind: "travel_party",
                object_id: product_id.to_string(),
                summary: format!(
                    "travellers {}–{} → {}–{}",
                    before.0, before.1, party.0, party.1
                ),
            })
        })
    })
    .await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PackageFields {
    title: String,
}

async fn package_form(
    State(app): State<Arc<AppCtx>>,
    Path(product_id): Path<i64>,
    form: OperatorForm<PackageFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    match store::inventory(&app.state.db, product_id).await {
        Ok(Some(_)) => {}
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    }
    let title = match rules::title(&form.fields.title) {
        Ok(t) => t,
        Err(key) => {
            let typed = vec![("title", form.fields.title.clone())];
            return refused(&app, op, product_id, "package".into(), key, typed).await;
        }
    };
    write(&app, op, product_id, move |tx| {
        Box::pin(async move {
            let id = store::add_package(tx, None, product_id, &title).await?;
            Ok(Entry {
                action: "create",
                object_kind: "travel_package",
                object_id: id.to_string(),
                summary: format!("product {product_id}: {title:?}"),
            })
        })
    })
    .await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CityFields {
    code: String,
    name: String,
}

async fn city_form(
    State(app): State<Arc<AppCtx>>,
    Path(package_id): Path<i64>,
    form: OperatorForm<CityFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let product_id = match owner(&app, op, Owned::Package, package_id).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let (code, name) = match rules::city(&form.fields.code, &form.fields.name) {
        Ok(c) => c,
        Err(key) => {
            let typed = vec![
                ("code", form.fields.code.clone()),
                ("name", form.fields.name.clone()),
            ];
            let form = format!("city-{package_id}");
            return refused(&app, op, product_id, form, key, typed).await;
        }
    };
    write(&app, op, product_id, move |tx| {
        Box::pin(async move {
            let id = store::add_city(tx, None, package_id, (&code, &name)).await?;
            Ok(Entry {
                action: "create",
                object_kind: "travel_city",
                object_id: id.to_string(),
                summary: format!("package {package_id}: {code} {name:?}"),
            })
        })
    })
    .await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DurationFields {
    days: String,
    nights: String,
    supplement: String,
}

async fn duration_form(
    State(app): State<Arc<AppCtx>>,
    Path(city_id): Path<i64>,
    form: OperatorForm<DurationFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let product_id = match owner(&app, op, Owned::City, city_id).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let f = &form.fields;
    let duration = match rules::duration(&f.days, &f.nights, &f.supplement) {
        Ok(d) => d,
        Err(key) => {
            let typed = vec![
                ("days", f.days.clone()),
                ("nights", f.nights.clone()),
                ("supplement", f.supplement.clone()),
            ];
            let form = format!("duration-{city_id}");
            return refused(&app, op, product_id, form, key, typed).await;
        }
    };
    write(&app, op, product_id, move |tx| {
        Box::pin(async move {
            let id = store::add_duration(tx, None, city_id, duration).await?;
            let (days, nights, supplement) = duration;
            Ok(Entry {
                action: "create",
                object_kind: "travel_duration",
                object_id: id.to_string(),
                summary: format!(
                    "city {city_id}: {days} days / {nights} nights, supplement {supplement}"
                ),
            })
        })
    })
    .await
}

fn season_typed(f: &rules::SeasonFields) -> Vec<(&'static str, String)> {
    let ticked = |v: &Option<String>| v.clone().unwrap_or_default();
    vec![
        ("first_day", f.first_day.clone()),
        ("last_day", f.last_day.clone()),
        ("wd0", ticked(&f.wd0)),
        ("wd1", ticked(&f.wd1)),
        ("wd2", ticked(&f.wd2)),
        ("wd3", ticked(&f.wd3)),
        ("wd4", ticked(&f.wd4)),
        ("wd5", ticked(&f.wd5)),
        ("wd6", ticked(&f.wd6)),
        ("price", f.price.clone()),
        ("reference_price", f.reference_price.clone()),
        ("places", f.places.clone()),
    ]
}

async fn season_form(
    State(app): State<Arc<AppCtx>>,
    Path(city_id): Path<i64>,
    form: OperatorForm<rules::SeasonFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let product_id = match owner(&app, op, Owned::City, city_id).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let form_fields = &form.fields;
    let season = match rules::season(form_fields) {
        Ok(s) => s,
        Err(key) => {
            let form = format!("season-{city_id}");
            return refused(&app, op, product_id, form, key, season_typed(form_fields)).await;
        }
    };
    write(&app, op, product_id, move |tx| {
        Box::pin(async move {
            let id = store::add_season(tx, None, city_id, &season).await?;
            Ok(Entry {
                action: "create",
                object_kind: "travel_season",
                object_id: id.to_string(),
                summary: format!(
                    "city {city_id}: {} → {}, weekdays {:07b}, {} (ref. {}), {} places",
                    season.first_day,
                    season.last_day,
                    season.weekdays,
                    season.price,
                    season.reference_price,
                    season.places
                ),
            })
        })
    })
    .await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PlacesFields {
    /// One of the city's durations (the form lists them).
    duration: String,
    day: String,
    places: String,
}

async fn places_form(State(app): State<Arc<AppCtx>>, form: OperatorForm<PlacesFields>) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::AdjustStock) {
        return r;
    }
    let f = &form.fields;
    let Ok(duration_id) = f.duration.trim().parse::<i64>() else {
        return ui::not_found(op);
    };
    let product_id = match owner(&app, op, Owned::Duration, duration_id).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let city_id: i64 =
        match sqlx::query_scalar("SELECT city_id FROM travel_durations WHERE id = $1")
            .bind(duration_id)
            .fetch_one(&app.state.db.pool)
            .await
        {
            Ok(c) => c,
            Err(e) => return ui::db_error(e),
        };
    let key = format!("places-{city_id}");
    let typed = || vec![("day", f.day.clone()), ("places", f.places.clone())];
    let (Some(day), Some(places)) = (Date::parse(f.day.trim()), rules::places(&f.places)) else {
        return refused(&app, op, product_id, key, "travel.error.places", typed()).await;
    };
    let season_places =
        match app::travel::store::product::season_places(&app.state.db, duration_id, day).await {
            Ok(Some(p)) => p,
            Ok(None) => {
                return refused(
                    &app,
                    op,
                    product_id,
                    key,
                    "travel.error.no_departure",
                    typed(),
                )
                .await
            }
            Err(e) => return ui::db_error(e),
        };
    let day = day.to_string();
    let result: Result<Result<(), PlacesRefused>, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        match store::set_places(&mut tx, duration_id, &day, season_places, places).await? {
            Ok(before) => {
                let entry = Entry {
                    action: "places",
                    object_kind: "travel_departure",
                    object_id: format!("{duration_id}/{day}"),
                    summary: format!("places {before} → {places}"),
                };
                commit(tx, op, entry).await?;
                Ok(Ok(()))
            }
            // Nothing is kept: the departure's row made for the check goes with the rollback.
            Err(refusal) => Ok(Err(refusal)),
        }
    }
    .await;
    match result {
        Ok(Ok(())) => saved(product_id),
        Ok(Err(PlacesRefused::BelowTaken { held, sold })) => {
            let message = format!(
                "{} ({}: {held}, {}: {sold}).",
                op.t("travel.error.below"),
                op.t("stock.held"),
                op.t("stock.sold")
            );
            let refusal = Refusal {
                form: key,
                message,
                typed: typed(),
            };
            render(
                &app,
                op,
                product_id,
                None,
                Some(refusal),
                StatusCode::CONFLICT,
            )
            .await
        }
        Err(e) => ui::db_error(e),
    }
}

/// What a removal's refusal says: the form it was, and the message key.
async fn removal_refused(
    app: &AppCtx,
    op: &Operator,
    product_id: i64,
    form: String,
    key: &str,
) -> Response {
    let refusal = Refusal {
        form,
        message: op.t(key).to_string(),
        typed: Vec::new(),
    };
    render(
        app,
        op,
        product_id,
        None,
        Some(refusal),
        StatusCode::CONFLICT,
    )
    .await
}

/// Removes a duration, unless members hold, bought or booked one of its departures.
async fn remove_duration_form(
    State(app): State<Arc<AppCtx>>,
    Path(duration_id): Path<i64>,
    form: OperatorForm<PageQuery>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let product_id = match owner(&app, op, Owned::Duration, duration_id).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let result: Result<bool, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let row: (i64, i64, i64, i64) = sqlx::query_as(
            "SELECT city_id, days, nights, supplement_cents FROM travel_durations WHERE id = $1",
        )
        .bind(duration_id)
        .fetch_one(&mut *tx)
        .await?;
        if !store::remove_duration(&mut tx, duration_id).await? {
            return Ok(false);
        }
        let (city, days, nights, supplement) = row;
        let entry = Entry {
            action: "remove",
            object_kind: "travel_duration",
            object_id: duration_id.to_string(),
            summary: format!("city {city}: {days} days / {nights} nights, supplement {supplement}"),
        };
        commit(tx, op, entry).await?;
        Ok(true)
    }
    .await;
    match result {
        Ok(true) => saved(product_id),
        Ok(false) => {
            let form = format!("duration-remove-{duration_id}");
            removal_refused(&app, op, product_id, form, "travel.error.duration_taken").await
        }
        Err(e) => ui::db_error(e),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TermsFields {
    price: String,
    reference_price: String,
    places: String,
}

/// A season's new price, reference price and places.
async fn season_terms_form(
    State(app): State<Arc<AppCtx>>,
    Path(season_id): Path<i64>,
    form: OperatorForm<TermsFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let product_id = match owner(&app, op, Owned::Season, season_id).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let f = &form.fields;
    let terms = match rules::season_terms(&f.price, &f.reference_price, &f.places) {
        Ok(t) => t,
        Err(key) => {
            let typed = vec![
                ("price", f.price.clone()),
                ("reference_price", f.reference_price.clone()),
                ("places", f.places.clone()),
            ];
            let form = format!("season-terms-{season_id}");
            return refused(&app, op, product_id, form, key, typed).await;
        }
    };
    write(&app, op, product_id, move |tx| {
        Box::pin(async move {
            let before = store::season(tx, season_id).await?;
            store::set_season_terms(tx, season_id, terms).await?;
            let was = before
                .map(|(_, s)| {
                    format!(
                        "{} (ref. {}), {} places",
                        s.price, s.reference_price, s.places
                    )
                })
                .unwrap_or_default();
            Ok(Entry {
                action: "update",
                object_kind: "travel_season",
                object_id: season_id.to_string(),
                summary: format!("{was} → {} (ref. {}), {} places", terms.0, terms.1, terms.2),
            })
        })
    })
    .await
}

/// Removes a season, unless members hold or bought a departure within its days.
async fn remove_season_form(
    State(app): State<Arc<AppCtx>>,
    Path(season_id): Path<i64>,
    form: OperatorForm<PageQuery>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let product_id = match owner(&app, op, Owned::Season, season_id).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let result: Result<bool, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let Some((city, season)) = store::season(&mut tx, season_id).await? else {
            return Ok(true);
        };
        if !store::remove_season(&mut tx, season_id, (city, &season)).await? {
            return Ok(false);
        }
        let entry = Entry {
            action: "remove",
            object_kind: "travel_season",
            object_id: season_id.to_string(),
            summary: format!(
                "city {city}: {} → {}, weekdays {:07b}, {} (ref. {}), {} places",
                season.first_day,
                season.last_day,
                season.weekdays,
                season.price,
                season.reference_price,
                season.places
            ),
        };
        commit(tx, op, entry).await?;
        Ok(true)
    }
    .await;
    match result {
        Ok(true) => saved(product_id),
        Ok(false) => {
            // Said beside the season's forms.
            let form = format!("season-terms-{season_id}");
            removal_refused(&app, op, product_id, form, "travel.error.season_taken").await
        }
        Err(e) => ui::db_error(e),
    }
}
