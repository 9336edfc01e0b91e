//! A trip's description as the travel catalog and the trip page show it: its themes (the
//! catalog's filter), instalments, a renowned brand, a perk on its card, the page's tabs
//! and the lowest price of the last 30 days. Checked by the rule the feed uses
//! (`rules::description`).
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use leptos::prelude::*;

use app::travel::rules::offer::{PAYMENT_FACILITIES, THEMES};

use super::super::audit::Entry;
use super::super::roles::Permission;
use super::super::session::{Operator, OperatorForm};
use super::super::{ui, PREFIX};
use super::rules::{self, Description, MAX_TABS};
use super::store;
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new().route(
        &format!("{PREFIX}/products/{{id}}/travel/description"),
        get(page).post(save_form),
    )
}

/// Empty tab rows the form offers beyond the trip's tabs.
const SPARE_TABS: usize = 2;

/// The trip's name and price, if the product is a trip.
async fn trip_of(app: &AppCtx, product_id: i64) -> Result<Option<(String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT p.name, p.price_cents FROM products p JOIN travel_offers o ON o.product_id = p.id
          WHERE p.id = $1",
    )
    .bind(product_id)
    .fetch_optional(&app.state.db.pool)
    .await
}

/// What the form shows for a stored description.
fn as_typed(d: &rules::Described) -> Description {
    let list = |s: &str| {
        s.split(',')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let tabs: Vec<serde_json::Value> = serde_json::from_str(&d.tabs_json).unwrap_or_default();
    Description {
        themes: list(&d.thematics),
        payment_facilities: list(&d.payment_facilities),
        renowned_brand: d.notorious_brand != 0,
        perk: d.benefit.clone().unwrap_or_default(),
        tabs: tabs
            .iter()
            .map(|t| {
                let field = |k: &str| t[k].as_str().unwrap_or_default().to_string();
                (field("title"), field("content"))
            })
            .collect(),
        lowest_price: ui::amount(d.lowest_30d_cents),
    }
}

/// The form's fields (`theme`, `payment`, `tab_title` and `tab_text` repeated; a tab row
/// left empty is no tab).
fn from_form(fields: &[(String, String)]) -> Description {
    let mut d = Description::default();
    let (mut titles, mut texts) = (Vec::new(), Vec::new());
    for (key, value) in fields {
        match key.as_str() {
            "theme" => d.themes.push(value.clone()),
            "payment" => d.payment_facilities.push(value.clone()),
            "renowned" => d.renowned_brand = true,
            "perk" => d.perk = value.clone(),
            "tab_title" => titles.push(value.clone()),
            "tab_text" => texts.push(value.clone()),
            "lowest_price" => d.lowest_price = value.clone(),
            _ => {}
        }
    }
    d.tabs = titles
        .into_iter()
        .zip(texts)
        .filter(|(title, text)| !title.trim().is_empty() || !text.trim().is_empty())
        .collect();
    d
}

fn view_page(
    op: &Operator,
    product_id: i64,
    name: &str,
    d: &Description,
    errors: &[(String, &'static str)],
    status: StatusCode,
) -> Response {
    let t = |k: &str| op.t(k);
    let summary = (!errors.is_empty()).then(|| {
        let items = errors
            .iter()
            .map(|(field, key)| view! { <li>{format!("{} {}", t(&format!("description.{}", field.split('[').next().unwrap_or(field))), t(key))}</li> })
            .collect_view();
        view! { <div class="bo-error" role="alert" id="description-errors"><p>{t("form.errors")}</p><ul>{items}</ul></div> }
    });
    let boxes = |name: &'static str, values: &[&str], ticked: &[String], prefix: &str| {
        values
            .iter()
            .map(|v| {
                let id = format!("{name}-{v}");
                let on = ticked.iter().any(|x| x.eq_ignore_ascii_case(v));
                view! {
                    <span class="bo-check">
                        <input type="checkbox" id=id.clone() name=name value=v.to_string() checked=on />
                        <label for=id>{t(&format!("{prefix}.{v}"))}</label>
                    </span>
                }
            })
            .collect_view()
    };
    let rows = d.tabs.len().min(MAX_TABS) + SPARE_TABS;
    let tabs = (0..rows.min(MAX_TABS))
        .map(|i| {
            let (title, text) = d.tabs.get(i).cloned().unwrap_or_default();
            let (title_id, text_id) = (format!("tab-title-{i}"), format!("tab-text-{i}"));
            view! {
                <fieldset>
                    <legend>{format!("{} {}", t("description.tab"), i + 1)}</legend>
                    <label for=title_id.clone()>{t("description.tab_title")}</label>
                    <input id=title_id name="tab_title" maxlength="80" value=title />
                    <label for=text_id.clone()>{t("description.tab_text")}</label>
                    <textarea id=text_id name="tab_text" rows="3" maxlength="4000">{text}</textarea>
                </fieldset>
            }
        })
        .collect_view();
    let body = view! {
        <p><a href=format!("{PREFIX}/products/{product_id}/travel")>{t("travel.title")}</a></p>
        {summary}
        <form method="post" action=format!("{PREFIX}/products/{product_id}/travel/description")>
            {ui::xsrf_field(op)}
            <fieldset><legend>{t("description.themes")}</legend>{boxes("theme", &THEMES, &d.themes, "description.theme")}</fieldset>
            <fieldset><legend>{t("description.payment_facilities")}</legend>{boxes("payment", &PAYMENT_FACILITIES, &d.payment_facilities, "description.payment")}</fieldset>
            <p class="bo-check">
                <input type="checkbox" id="renowned" name="renowned" checked=d.renowned_brand />
                <label for="renowned">{t("description.renowned_brand")}</label>
            </p>
            {ui::field(t("description.perk"), "perk", view! { <input id="perk" name="perk" maxlength="200" value=d.perk.clone() /> }.into_any(), None)}
            {ui::field(t("description.lowest_price_30_days"), "lowest_price", view! { <input id="lowest_price" name="lowest_price" inputmode="decimal" value=d.lowest_price.clone() /> }.into_any(), None)}
            {tabs}
            <button type="submit">{t("description.save")}</button>
        </form>
    }
    .into_any();
    let title = format!("{name} · {}", t("description.title"));
    ui::page(status, op.lang(), Some(op), &title, None, body)
}

async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(product_id): Path<i64>,
) -> Response {
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let stored = async {
        let Some((name, _)) = trip_of(&app, product_id).await? else {
            return Ok(None);
        };
        let mut tx = app.state.db.begin().await?;
        let d = store::description(&mut tx, product_id).await?;
        tx.rollback().await?;
        Ok::<_, sqlx::Error>(Some((name, d)))
    };
    match stored.await {
        Ok(Some((name, d))) => {
            view_page(&op, product_id, &name, &as_typed(&d), &[], StatusCode::OK)
        }
        Ok(None) => ui::not_found(&op),
        Err(e) => ui::db_error(e),
    }
}

async fn save_form(
    State(app): State<Arc<AppCtx>>,
    Path(product_id): Path<i64>,
    form: OperatorForm<Vec<(String, String)>>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let (name, price) = match trip_of(&app, product_id).await {
        Ok(Some(t)) => t,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let typed = from_form(&form.fields);
    let described = match rules::description(&typed, price) {
        Ok(d) => d,
        Err(errors) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            return view_page(op, product_id, &name, &typed, &errors, status);
        }
    };
    let result = async {
        let mut tx = app.state.db.begin().await?;
        store::set_description(&mut tx, product_id, &described).await?;
        let entry = Entry {
            action: "update",
            object_kind: "trip",
            object_id: product_id.to_string(),
            summary: format!(
                "description: themes {:?}, instalments {:?}, perk {:?}, {} tabs, lowest {}",
                described.thematics,
                described.payment_facilities,
                described.benefit.as_deref().unwrap_or(""),
                typed.tabs.len(),
                described.lowest_30d_cents
            ),
        };
        super::commit(tx, op, entry).await
    };
    match result.await {
        Ok(()) => ui::see_other(&format!("{PREFIX}/products/{product_id}/travel?done=1")),
        Err(e) => ui::db_error(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_reads_repeated_fields_and_skips_empty_tab_rows() {
        let pairs: Vec<(String, String)> = [
            ("theme", "beach"),
            ("theme", "spa"),
            ("payment", "4x"),
            ("perk", "Late check-out"),
            ("tab_title", "L'hôtel"),
            ("tab_text", "Un riad."),
            ("tab_title", ""),
            ("tab_text", " "),
            ("lowest_price", "479"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let d = from_form(&pairs);
        assert_eq!(d.themes, ["beach", "spa"]);
        assert_eq!(d.payment_facilities, ["4x"]);
        assert!(!d.renowned_brand);
        assert_eq!(d.tabs, [("L'hôtel".to_string(), "Un riad.".to_string())]);
        let described = rules::description(&d, 49_900).unwrap();
        assert_eq!(described.lowest_30d_cents, 47_900);
        assert_eq!(as_typed(&described).tabs, d.tabs, "shown as stored");
    }
}
