//! A sale's products, options and stock: the table of every option with its stock, held,
//! sold and available units and a form to change the stock by a number of units; a form to
//! add a product and one to add an option to a product; an option's stock history.
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;

use app::platform::state::now;

use super::super::audit::{self, Entry};
use super::super::roles::Permission;
use super::super::session::{Operator, OperatorForm};
use super::super::{ui, PREFIX};
use super::stock::{self, StockError};
use super::{rules, store};
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/sales/{{id}}/products"), get(page))
        .route(
            &format!("{PREFIX}/sales/{{id}}/products/new"),
            post(new_product_form),
        )
        .route(
            &format!("{PREFIX}/products/{{id}}/options/new"),
            post(new_option_form),
        )
        .route(&format!("{PREFIX}/options/{{id}}/stock"), post(stock_form))
        .route(
            &format!("{PREFIX}/options/{{id}}/history"),
            get(history_page),
        )
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PageQuery {
    done: String,
    /// Words of a product's name or brand (accents and case aside), or its id.
    q: String,
    /// From 1.
    page: usize,
}

/// Products a page lists.
const PER_PAGE: usize = 100;

/// The rows of the products `q` finds, on page `page` (from 1), and how many it found.
fn search(rows: Vec<store::OptionStock>, q: &str, page: usize) -> (Vec<store::OptionStock>, usize) {
    use app::text::fold::fold;
    let needle = fold(q.trim());
    let mut products: Vec<Vec<store::OptionStock>> = Vec::new();
    for r in rows {
        match products.last_mut() {
            Some(p) if p[0].product_id == r.product_id => p.push(r),
            _ => products.push(vec![r]),
        }
    }
    products.retain(|p| {
        needle.is_empty()
            || p[0].product_id.to_string() == needle
            || fold(&p[0].product_name).contains(&needle)
            || fold(&p[0].brand).contains(&needle)
    });
    let found = products.len();
    let rows = products
        .into_iter()
        .skip((page.max(1) - 1) * PER_PAGE)
        .take(PER_PAGE)
        .flatten()
        .collect();
    (rows, found)
}

/// What a refused form on this page gets back: which form, its error, what was typed.
#[derive(Default)]
struct Refusal {
    form: String,
    message: String,
    typed: ProductFields,
}

#[allow(clippy::too_many_arguments)]
async fn view_page(
    app: &AppCtx,
    op: &Operator,
    sale_id: i64,
    (q, page): (&str, usize),
    notice: Option<String>,
    refusal: Option<Refusal>,
    status: StatusCode,
) -> Response {
    let sale = match store::by_id(&app.state.db, sale_id).await {
        Ok(Some(s)) => s,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let (rows, brands, universes, choices) = match tokio::try_join!(
        store::stock_of_sale(&app.state.db, sale_id),
        store::brands(&app.state.db),
        store::universes(&app.state.db, sale_id),
        store::universe_choices(&app.state.db, sale_id)
    ) {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let page = page.max(1);
    let (rows, found) = search(rows, q, page);
    let t = |k: &str| op.t(k);
    let can_stock = op.can(Permission::AdjustStock);
    let can_edit = op.can(Permission::EditCatalogue) && sale.archived_at.is_none();
    let travel_sale = sale.campaign_kind == "TRAVEL";
    let refusal = refusal.unwrap_or_default();
    let error_for = |form: &str| {
        (refusal.form == form).then(|| view! { <p class="bo-error" role="alert" id=format!("error-{form}")>{refusal.message.clone()}</p> })
    };
    let mut last_product = None;
    let table = rows
        .iter()
        .map(|r| {
            let first_of_product = last_product != Some(r.product_id);
            last_product = Some(r.product_id);
            let product_cell = first_of_product.then(|| {
                let add_option = can_edit.then(|| {
                    let form_key = format!("option-{}", r.product_id);
                    view! {
                        {error_for(&form_key)}
                        <form method="post" action=format!("{PREFIX}/products/{}/options/new", r.product_id) class="bo-inline">
                            {ui::xsrf_field(op)}
                            <input name="label" class="bo-wide" maxlength="40" required aria-label=format!("{} · {}", r.product_name, t("stock.option")) placeholder=t("stock.option") />
                            <input name="stock" inputmode="numeric" required aria-label=format!("{} · {}", r.product_name, t("stock.stock")) placeholder=t("stock.stock") />
                            <input name="price" inputmode="decimal" aria-label=format!("{} · {}", r.product_name, t("sales.option_price")) placeholder=t("sales.option_price") />
                            <input name="retail_price" inputmode="decimal" aria-label=format!("{} · {}", r.product_name, t("sales.option_retail_price")) placeholder=t("sales.option_retail_price") />
                            <button type="submit" class="bo-secondary" aria-label=format!("{} · {}", r.product_name, t("sales.add_option"))>"+"</button>
                        </form>
                    }
                });
                let picture = can_edit.then(|| {
                    let form_key = format!("picture-{}", r.product_id);
                    let input_id = format!("picture-{}", r.product_id);
                    view! {
                        {error_for(&form_key)}
                        <form method="post" enctype="multipart/form-data" action=format!("{PREFIX}/products/{}/picture", r.product_id) class="bo-inline">
                            {ui::xsrf_field(op)}
                            <label for=input_id.clone()>{format!("{} · {}", r.product_name, t("pictures.label"))}</label>
                            <input id=input_id name="picture" type="file" accept="image/jpeg,image/png,image/webp" required />
                            <button type="submit" class="bo-secondary">{t("pictures.send")}</button>
                        </form>
                    }
                });
                let tick = can_edit.then(|| view! {
                    <input type="checkbox" name="product" value=r.product_id.to_string() form="bulk"
                        aria-label=format!("{} · {}", t("bulk.tick"), r.product_name) data-tick=r.product_id.to_string() />
                });
                let thumbnail = r.image_id.map(|image| view! { <img src=format!("/img/p/{image}?w=179") alt="" width="90" data-picture=image.to_string() /> });
                view! {
                    {tick}
                    {thumbnail}
                    <a href=format!("{PREFIX}/products/{}", r.product_id)><strong data-product=r.product_id.to_string()>{r.product_name.clone()}</strong></a>
                    <span>{format!(" · {} / {}", ui::amount(r.price_cents), ui::amount(r.retail_price_cents))}</span>
                    {r.is_travel.then(|| view! { <a href=format!("{PREFIX}/products/{}/travel", r.product_id) data-travel=r.product_id.to_string()>{t("travel.link")}</a> })}
                    {(!r.is_travel && travel_sale && can_edit).then(|| view! { <a href=format!("{PREFIX}/products/{}/trip", r.product_id) data-make-trip=r.product_id.to_string()>{t("trip.link")}</a> })}
                    {add_option}
                    {picture}
                }
            });
            let option_cells = r.option_id.map(|option| {
                let own_price = (r.option_price_cents.is_some() || r.option_retail_price_cents.is_some()).then(|| {
                    let (price, retail) = (
                        r.option_price_cents.unwrap_or(r.price_cents),
                        r.option_retail_price_cents.unwrap_or(r.retail_price_cents),
                    );
                    view! { <span data-option-price=option.to_string()>{format!(" · {} / {}", ui::amount(price), ui::amount(retail))}</span> }
                });
                let own_picture = r.option_image_id.map(|image| view! { <img src=format!("/img/p/{image}?w=179") alt="" width="45" data-option-picture=option.to_string() /> });
                let picture = can_edit.then(|| {
                    let form_key = format!("option-picture-{option}");
                    let input_id = format!("option-picture-{option}");
                    view! {
                        {error_for(&form_key)}
                        <form method="post" enctype="multipart/form-data" action=format!("{PREFIX}/options/{option}/picture") class="bo-inline">
                            {ui::xsrf_field(op)}
                            <label for=input_id.clone()>{format!("{} {} · {}", r.product_name, r.label, t("pictures.label"))}</label>
                            <input id=input_id name="picture" type="file" accept="image/jpeg,image/png,image/webp" required />
                            <button type="submit" class="bo-secondary">{t("pictures.send")}</button>
                        </form>
                    }
                });
                let adjust = can_stock.then(|| {
                    let form_key = format!("stock-{option}");
                    view! {
                        {error_for(&form_key)}
                        <form method="post" action=format!("{PREFIX}/options/{option}/stock") class="bo-inline" data-enhance>
                            {ui::xsrf_field(op)}
                            <input name="change" inputmode="numeric" required aria-label=format!("{} {} · {}", r.product_name, r.label, t("stock.change")) placeholder="+10" />
                            <input name="reason" class="bo-wide" maxlength="200" required aria-label=format!("{} {} · {}", r.product_name, r.label, t("stock.reason")) placeholder=t("stock.reason") />
                            <button type="submit">{t("stock.apply")}</button>
                        </form>
                    }
                });
                view! {
                    <td>{own_picture}{r.label.clone()}{own_price}{picture}</td>
                    <td class="num" data-stock=option.to_string()>{r.stock}</td>
                    <td class="num" data-held=option.to_string()>{r.held}</td>
                    <td class="num" data-sold=option.to_string()>{r.sold}</td>
                    <td class="num">{r.stock - r.held - r.sold}</td>
                    <td>{adjust}<a href=format!("{PREFIX}/options/{option}/history")>{t("stock.history")}</a></td>
                }
            });
            let empty = r.option_id.is_none().then(|| view! { <td colspan="6"></td> });
            view! { <tr><td>{product_cell}</td>{option_cells}{empty}</tr> }
        })
        .collect_view();
    let new_product = can_edit.then(|| {
        let typed = &refusal.typed;
        let brand_options = brands
            .iter()
            .map(|(id, name)| view! { <option value=id.to_string() selected=typed.brand == id.to_string()>{name.clone()}</option> })
            .collect_view();
        view! {
            <h2>{t("sales.new_product")}</h2>
            {error_for("product")}
            <form method="post" action=format!("{PREFIX}/sales/{sale_id}/products/new")>
                {ui::xsrf_field(op)}
                {ui::field(t("stock.product"), "product-name", view! { <input id="product-name" name="name" required maxlength="200" value=typed.name.clone() /> }.into_any(), None)}
                {ui::field(t("sales.brand"), "product-brand", view! { <select id="product-brand" name="brand"><option value="">"—"</option>{brand_options}</select> }.into_any(), None)}
                {ui::field(t("sales.colour"), "product-color", view! { <input id="product-color" name="color" maxlength="40" value=typed.color.clone() /> }.into_any(), None)}
                {ui::field(t("sales.price"), "product-price", view! { <input id="product-price" name="price" inputmode="decimal" required value=typed.price.clone() /> }.into_any(), None)}
                {ui::field(t("sales.retail_price"), "product-retail", view! { <input id="product-retail" name="retail_price" inputmode="decimal" required value=typed.retail_price.clone() /> }.into_any(), None)}
                {ui::field(t("sales.data_sheet"), "product-description", view! { <textarea id="product-description" name="description" rows="3">{typed.description.clone()}</textarea> }.into_any(), None)}
                <button type="submit">{t("sales.add_product")}</button>
            </form>
        }
    });
    let title = format!("{} · {}", sale.name, t("sales.products"));
    let base = format!("{PREFIX}/sales/{sale_id}/products");
    let link = |page: usize| {
        let query = serde_urlencoded::to_string([("q", q), ("page", &page.to_string())])
            .unwrap_or_default();
        format!("{base}?{query}")
    };
    let pager = ui::pager(op, page, page * PER_PAGE < found, link);
    let bulk = can_edit
        .then(|| view! { {error_for("bulk")}{super::bulk::section(op, sale_id, &choices)} });
    let body = view! {
        <p><a href=format!("{PREFIX}/sales/{sale_id}")>{sale.name.clone()}</a></p>
        <form method="get" action=base.clone() role="search" class="bo-inline">
            <label for="product-search">{t("products.search")}</label>
            <input id="product-search" name="q" type="search" maxlength="100" value=q.to_string() />
            <button type="submit" class="bo-secondary">{t("products.search_submit")}</button>
        </form>
        <p id="products-found">{format!("{} {found}", t("products.found"))}</p>
        {bulk}
        <div class="bo-table-wrap" tabindex="0">
            <table id="stock">
                <thead><tr>
                    <th scope="col">{t("stock.product")}</th><th scope="col">{t("stock.option")}</th>
                    <th scope="col" class="num">{t("stock.stock")}</th><th scope="col" class="num">{t("stock.held")}</th>
                    <th scope="col" class="num">{t("stock.sold")}</th><th scope="col" class="num">{t("stock.available")}</th>
                    <th scope="col">{t("stock.change")}</th>
                </tr></thead>
                <tbody>{table}</tbody>
            </table>
        </div>
        {pager}
        {new_product}
        {super::universes::section(op, sale_id, &universes, can_edit, &|form| error_for(form).map(IntoAny::into_any))}
    }
    .into_any();
    ui::page(status, op.lang(), Some(op), &title, notice, body)
}

/// The products page with one form's refusal (another module's form: the picture).
pub async fn refused(
    app: &AppCtx,
    op: &Operator,
    sale_id: i64,
    form: String,
    message: String,
    status: StatusCode,
) -> Response {
    view_page(
        app,
        op,
        sale_id,
        ("", 1),
        None,
        Some(Refusal {
            form,
            message,
            typed: ProductFields::default(),
        }),
        status,
    )
    .await
}

pub async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    Query(q): Query<PageQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ReadCatalogue) {
        return r;
    }
    let notice = match q.done.as_str() {
        "stock" => Some(op.t("stock.changed")),
        "product" => Some(op.t("sales.product_added")),
        "product_saved" => Some(op.t("product.saved")),
        "universe" => Some(op.t("universes.saved")),
        "option" => Some(op.t("sales.option_added")),
        "picture" => Some(op.t("pictures.added")),
        "bulk" => Some(op.t("bulk.done")),
        _ => None,
    }
    .map(str::to_string);
    let q_page = q.page;
    let q: String = q.q.chars().filter(|c| !c.is_control()).take(100).collect();
    view_page(&app, &op, id, (&q, q_page), notice, None, StatusCode::OK).await
}

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct ProductFields {
    name: String,
    brand: String,
    color: String,
    price: String,
    retail_price: String,
    description: String,
}

pub async fn new_product_form(
    State(app): State<Arc<AppCtx>>,
    Path(sale_id): Path<i64>,
    form: OperatorForm<ProductFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let f = &form.fields;
    let refuse = |key: &str| Refusal {
        form: "product".into(),
        message: op.t(key).into(),
        typed: f.clone(),
    };
    let basics = rules::product_basics(&f.name, &f.price, &f.retail_price);
    match store::by_id(&app.state.db, sale_id).await {
        Ok(Some(s)) if s.archived_at.is_none() => {}
        Ok(Some(_)) => {
            return ui::message_page(
                op.lang(),
                Some(op),
                StatusCode::CONFLICT,
                op.t("sales.error.archived"),
            )
        }
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    }
    let (name, price_cents, retail_price_cents) = match basics {
        Ok(b) => b,
        Err(key) => {
            return view_page(
                &app,
                op,
                sale_id,
                ("", 1),
                None,
                Some(refuse(key)),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
    };
    let product = store::NewProduct {
        name,
        brand_id: f.brand.parse().ok(),
        color: f.color.trim().chars().take(40).collect(),
        // The data sheet is sanitised as the demo's and the feed's are: the product page
        // shows it as HTML.
        description_html: app::text::sanitize::data_sheet(&f.description),
        price_cents,
        retail_price_cents,
    };
    let at = now();
    let result: Result<i64, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let id = store::insert_product(&mut tx, None, sale_id, &product).await?;
        let entry = Entry {
            action: "create",
            object_kind: "product",
            object_id: id.to_string(),
            summary: format!(
                "sale {sale_id}: {:?} at {} (retail {})",
                product.name, product.price_cents, product.retail_price_cents
            ),
        };
        audit::record(&mut tx, &op.actor(), entry, at).await?;
        tx.commit().await?;
        Ok(id)
    }
    .await;
    match result {
        Ok(_) => ui::see_other(&format!("{PREFIX}/sales/{sale_id}/products?done=product")),
        Err(e) => ui::db_error(e),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct OptionFields {
    label: String,
    stock: String,
    price: String,
    retail_price: String,
}

pub async fn new_option_form(
    State(app): State<Arc<AppCtx>>,
    Path(product_id): Path<i64>,
    form: OperatorForm<OptionFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let product = match store::product_prices(&app.state.db, product_id).await {
        Ok(Some(p)) => p,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let sale_id = product.sale_id;
    let f = &form.fields;
    let prices = rules::option_prices(
        &f.price,
        &f.retail_price,
        (product.price_cents, product.retail_price_cents),
    );
    let label = f
        .label
        .trim()
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>();
    let stock: Option<i64> = f
        .stock
        .trim()
        .parse()
        .ok()
        .filter(|n| (0..=stock::MAX_CHANGE).contains(n));
    let refusal = if label.is_empty() || label.chars().count() > 40 {
        Some("sales.error.option_label")
    } else if stock.is_none() {
        Some("sales.error.option_stock")
    } else {
        prices.err()
    };
    if let Some(key) = refusal {
        let refusal = Refusal {
            form: format!("option-{product_id}"),
            message: op.t(key).into(),
            typed: ProductFields::default(),
        };
        return view_page(
            &app,
            op,
            sale_id,
            ("", 1),
            None,
            Some(refusal),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    let stock = stock.unwrap_or_default();
    let (price_cents, retail_price_cents) = prices.unwrap_or_default();
    let option = store::NewOption {
        kind: "size",
        label: &label,
        stock,
        price_cents,
        retail_price_cents,
    };
    let at = now();
    let result: Result<i64, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let id = store::insert_option(&mut tx, None, product_id, &option).await?;
        sqlx::query(
            "INSERT INTO stock_history (option_id, at, operator_id, delta, stock_after, held, sold, reason)
             VALUES ($1, $2, $3, $4, $4, 0, 0, 'created')",
        )
        .bind(id)
        .bind(at)
        .bind(op.row.id)
        .bind(stock)
        .execute(&mut *tx)
        .await?;
        let entry = Entry {
            action: "create",
            object_kind: "option",
            object_id: id.to_string(),
            summary: format!("product {product_id}: {label:?}, stock {stock}, price {price_cents:?} (retail {retail_price_cents:?})"),
        };
        audit::record(&mut tx, &op.actor(), entry, at).await?;
        tx.commit().await?;
        Ok(id)
    }
    .await;
    match result {
        Ok(_) => ui::see_other(&format!("{PREFIX}/sales/{sale_id}/products?done=option")),
        Err(e) => ui::db_error(e),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct StockFields {
    change: String,
    reason: String,
}

pub async fn stock_form(
    State(app): State<Arc<AppCtx>>,
    Path(option_id): Path<i64>,
    form: OperatorForm<StockFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::AdjustStock) {
        return r;
    }
    let sale_id = match store::sale_of_option(&app.state.db, option_id).await {
        Ok(Some(s)) => s,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let f = &form.fields;
    let reason: String = f
        .reason
        .trim()
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    let refuse = |message: String| Refusal {
        form: format!("stock-{option_id}"),
        message,
        typed: ProductFields::default(),
    };
    let Some(delta) = rules::stock_change(&f.change) else {
        return view_page(
            &app,
            op,
            sale_id,
            ("", 1),
            None,
            Some(refuse(op.t("stock.error.number").into())),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    };
    if reason.is_empty() || reason.chars().count() > 200 {
        return view_page(
            &app,
            op,
            sale_id,
            ("", 1),
            None,
            Some(refuse(op.t("stock.error.reason").into())),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    match stock::adjust(&app.state.db, &op.actor(), option_id, delta, &reason, now()).await {
        Ok(_) => {
            // Raised stock can be held at once on this instance (others within the mark's
            // short life).
            app.cart.clear_sold_out([option_id]);
            ui::see_other(&format!("{PREFIX}/sales/{sale_id}/products?done=stock"))
        }
        Err(StockError::BelowCommitted { stock, held, sold }) => {
            let message = format!(
                "{} ({}: {stock}, {}: {held}, {}: {sold}; {} {}).",
                op.t("stock.error.below"),
                op.t("stock.stock"),
                op.t("stock.held"),
                op.t("stock.sold"),
                op.t("stock.error.lowest"),
                -(stock - held - sold)
            );
            view_page(
                &app,
                op,
                sale_id,
                ("", 1),
                None,
                Some(refuse(message)),
                StatusCode::CONFLICT,
            )
            .await
        }
        Err(StockError::NoSuchOption) => ui::not_found(op),
        Err(StockError::Db(e)) => ui::db_error(sqlx::Error::Protocol(e)),
    }
}

pub async fn history_page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(option_id): Path<i64>,
) -> Response {
    if let Err(r) = op.require(Permission::ReadCatalogue) {
        return r;
    }
    let sale_id = match store::sale_of_option(&app.state.db, option_id).await {
        Ok(Some(s)) => s,
        Ok(None) => return ui::not_found(&op),
        Err(e) => return ui::db_error(e),
    };
    let rows = match stock::history(&app.state.db, option_id).await {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let empty = rows.is_empty().then(|| view! { <p>{t("stock.none")}</p> });
    let rows = rows
        .into_iter()
        .map(|h| {
            view! {
                <tr>
                    <td>{ui::when(h.at)}</td>
                    <td>{h.operator_email.unwrap_or_default()}</td>
                    <td class="num">{format!("{:+}", h.delta)}</td>
                    <td class="num">{h.stock_after}</td>
                    <td class="num">{h.held}</td>
                    <td class="num">{h.sold}</td>
                    <td>{h.reason}</td>
                </tr>
            }
        })
        .collect_view();
    let body = view! {
        <p><a href=format!("{PREFIX}/sales/{sale_id}/products")>{t("sales.products")}</a></p>
        {empty}
        <div class="bo-table-wrap" tabindex="0">
            <table id="history">
                <thead><tr>
                    <th scope="col">{t("audit.when")}</th><th scope="col">{t("audit.who")}</th><th scope="col" class="num">{t("stock.change")}</th>
                    <th scope="col" class="num">{t("stock.stock")}</th><th scope="col" class="num">{t("stock.held")}</th><th scope="col" class="num">{t("stock.sold")}</th>
                    <th scope="col">{t("stock.reason")}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any();
    ui::page(
        StatusCode::OK,
        op.lang(),
        Some(&op),
        &format!("{} #{option_id}", t("stock.history")),
        None,
        body,
    )
}
