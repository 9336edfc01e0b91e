//! A product's page: its name, brand, colour, prices, data sheet (sanitised as every data
//! sheet), tier, delivery mode, seller and universe, edited in one form. New prices are
//! refused while an option's own prices would then strike through a lower retail price
//! (the option is named).
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;

use app::platform::state::now;

use super::super::audit::{self, Entry};
use super::super::roles::Permission;
use super::super::session::{Operator, OperatorForm};
use super::super::{ui, PREFIX};
use super::rules::{self, DELIVERY_MODES, SELLER_KINDS, TIERS};
use super::store::{self, Placement, ProductRow};
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new().route(
        &format!("{PREFIX}/products/{{id}}"),
        get(page).post(save_form),
    )
}

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct EditFields {
    name: String,
    brand: String,
    color: String,
    price: String,
    retail_price: String,
    description: String,
    tier: String,
    delivery_mode: String,
    seller_kind: String,
    universe: String,
}

fn fields_of(p: &ProductRow) -> EditFields {
    EditFields {
        name: p.name.clone(),
        brand: p.brand_id.map(|b| b.to_string()).unwrap_or_default(),
        color: p.color.clone(),
        price: ui::amount(p.price_cents),
        retail_price: ui::amount(p.retail_price_cents),
        description: p.description_html.clone(),
        tier: p.tier.clone(),
        delivery_mode: p.delivery_mode.to_string(),
        seller_kind: p.seller_kind.clone(),
        universe: p.universe_id.to_string(),
    }
}

struct Lists {
    brands: Vec<(i64, String)>,
    universes: Vec<(i64, String)>,
}

async fn lists(app: &AppCtx, sale_id: i64) -> Result<Lists, sqlx::Error> {
    let (brands, universes) = tokio::try_join!(
        store::brands(&app.state.db),
        store::universe_choices(&app.state.db, sale_id)
    )?;
    Ok(Lists { brands, universes })
}

fn view_page(
    op: &Operator,
    id: i64,
    product: &ProductRow,
    lists: &Lists,
    f: &EditFields,
    error: Option<String>,
    status: StatusCode,
) -> Response {
    let t = |k: &str| op.t(k);
    let options = |values: Vec<(String, String)>, selected: &str| {
        values
            .into_iter()
            .map(|(v, label)| view! { <option value=v.clone() selected=v == selected>{label}</option> })
            .collect_view()
    };
    let brands = options(
        lists
            .brands
            .iter()
            .map(|(i, n)| (i.to_string(), n.clone()))
            .collect(),
        &f.brand,
    );
    let universes = options(
        lists
            .universes
            .iter()
            .map(|(i, n)| (i.to_string(), n.clone()))
            .collect(),
        &f.universe,
    );
    let tiers = options(
        TIERS
            .iter()
            .map(|v| (v.to_string(), t(&format!("product.tier.{v}")).to_string()))
            .collect(),
        &f.tier,
    );
    let deliveries = options(
        DELIVERY_MODES
            .iter()
            .map(|v| {
                (
                    v.to_string(),
                    t(&format!("product.delivery.{v}")).to_string(),
                )
            })
            .collect(),
        &f.delivery_mode,
    );
    let sellers = options(
        SELLER_KINDS
            .iter()
            .map(|v| (v.to_string(), t(&format!("product.seller.{v}")).to_string()))
            .collect(),
        &f.seller_kind,
    );
    let editable = op.can(Permission::EditCatalogue);
    let error =
        error.map(|e| view! { <p class="bo-error" role="alert" id="product-error">{e}</p> });
    let form = editable.then(|| view! {
        {error}
        <form method="post" action=format!("{PREFIX}/products/{id}") data-enhance>
            {ui::xsrf_field(op)}
            {ui::field(t("stock.product"), "name", view! { <input id="name" name="name" required maxlength="200" value=f.name.clone() /> }.into_any(), None)}
            {ui::field(t("sales.brand"), "brand", view! { <select id="brand" name="brand"><option value="">"—"</option>{brands}</select> }.into_any(), None)}
            {ui::field(t("sales.colour"), "color", view! { <input id="color" name="color" maxlength="40" value=f.color.clone() /> }.into_any(), None)}
            {ui::field(t("sales.price"), "price", view! { <input id="price" name="price" inputmode="decimal" required value=f.price.clone() /> }.into_any(), None)}
            {ui::field(t("sales.retail_price"), "retail_price", view! { <input id="retail_price" name="retail_price" inputmode="decimal" required value=f.retail_price.clone() /> }.into_any(), None)}
            {ui::field(t("sales.data_sheet"), "description", view! { <textarea id="description" name="description" rows="5">{f.description.clone()}</textarea> }.into_any(), None)}
            {ui::field(t("product.universe"), "universe", view! { <select id="universe" name="universe">{universes}</select> }.into_any(), None)}
            {ui::field(t("product.tier"), "tier", view! { <select id="tier" name="tier">{tiers}</select> }.into_any(), None)}
            {ui::field(t("product.delivery"), "delivery_mode", view! { <select id="delivery_mode" name="delivery_mode">{deliveries}</select> }.into_any(), None)}
            {ui::field(t("product.seller"), "seller_kind", view! { <select id="seller_kind" name="seller_kind">{sellers}</select> }.into_any(), None)}
            <button type="submit">{t("product.save")}</button>
        </form>
    });
    let read_only = (!editable).then(|| {
        view! {
            <dl>
                <dt>{t("sales.price")}</dt><dd>{ui::amount(product.price_cents)}</dd>
                <dt>{t("sales.retail_price")}</dt><dd>{ui::amount(product.retail_price_cents)}</dd>
            </dl>
        }
    });
    let body = view! {
        <p><a href=format!("{PREFIX}/sales/{}/products", product.sale_id)>{t("sales.products")}</a></p>
        {form}
        {read_only}
    }
    .into_any();
    ui::page(status, op.lang(), Some(op), &product.name, None, body)
}

async fn load(app: &AppCtx, op: &Operator, id: i64) -> Result<(ProductRow, Lists), Response> {
    let product = match store::product(&app.state.db, id).await {
        Ok(Some(p)) => p,
        Ok(None) => return Err(ui::not_found(op)),
        Err(e) => return Err(ui::db_error(e)),
    };
    match lists(app, product.sale_id).await {
        Ok(l) => Ok((product, l)),
        Err(e) => Err(ui::db_error(e)),
    }
}

async fn page(State(app): State<Arc<AppCtx>>, op: Operator, Path(id): Path<i64>) -> Response {
    if let Err(r) = op.require(Permission::ReadCatalogue) {
        return r;
    }
    let (product, lists) = match load(&app, &op, id).await {
        Ok(l) => l,
        Err(r) => return r,
    };
    let f = fields_of(&product);
    view_page(&op, id, &product, &lists, &f, None, StatusCode::OK)
}

async fn save_form(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<EditFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let (before, lists) = match load(&app, op, id).await {
        Ok(l) => l,
        Err(r) => return r,
    };
    let f = &form.fields;
    let refuse = |message: String| {
        view_page(
            op,
            id,
            &before,
            &lists,
            f,
            Some(message),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
    };
    let (name, price, retail) = match rules::product_basics(&f.name, &f.price, &f.retail_price) {
        Ok(b) => b,
        Err(key) => return refuse(op.t(key).to_string()),
    };
    let tier = TIERS.iter().copied().find(|v| *v == f.tier);
    let seller = SELLER_KINDS.iter().copied().find(|v| *v == f.seller_kind);
    let delivery = f
        .delivery_mode
        .parse::<i64>()
        .ok()
        .filter(|d| DELIVERY_MODES.contains(d));
    let universe = f
        .universe
        .parse::<i64>()
        .ok()
        .filter(|u| lists.universes.iter().any(|(id, _)| id == u));
    let (Some(tier), Some(seller_kind), Some(delivery_mode), Some(universe_id)) =
        (tier, seller, delivery, universe)
    else {
        return refuse(op.t("trip.error.choice").to_string());
    };
    let product = store::NewProduct {
        name,
        brand_id: f
            .brand
            .parse()
            .ok()
            .filter(|b| lists.brands.iter().any(|(id, _)| id == b)),
        color: f
            .color
            .trim()
            .chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect(),
        description_html: app::text::sanitize::data_sheet(&f.description),
        price_cents: price,
        retail_price_cents: retail,
    };
    let placement = Placement {
        tier,
        delivery_mode,
        seller_kind,
        universe_id,
    };
    let result: Result<Result<(), String>, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        // Read inside the write, so an option added meanwhile is checked too.
        let options = store::own_priced_options(&mut tx, id).await?;
        if let Some((label, ..)) = options
            .iter()
            .find(|(_, p, r)| !rules::option_still_priced((*p, *r), (price, retail)))
        {
            return Ok(Err(label.clone()));
        }
        store::update_product(&mut tx, id, &product).await?;
        store::set_placement(&mut tx, id, &placement).await?;
        let entry = Entry {
            action: "update",
            object_kind: "product",
            object_id: id.to_string(),
            summary: format!(
                "{:?} {} / {} → {:?} {} / {}; {} delivery {} {} universe {}",
                before.name,
                before.price_cents,
                before.retail_price_cents,
                product.name,
                price,
                retail,
                tier,
                delivery_mode,
                seller_kind,
                universe_id
            ),
        };
        audit::record(&mut tx, &op.actor(), entry, now()).await?;
        tx.commit().await?;
        Ok(Ok(()))
    }
    .await;
    match result {
        Ok(Ok(())) => ui::see_other(&format!(
            "{PREFIX}/sales/{}/products?done=product_saved",
            before.sale_id
        )),
        Ok(Err(option)) => refuse(format!(
            "{} ({option})",
            op.t("product.error.option_prices")
        )),
        Err(e) => ui::db_error(e),
    }
}
