//! The shop's brands: found by a word of their name, with how many products carry each;
//! a merchandiser adds one (before putting its sale on the shop) or corrects a name. A name
//! the shop has already, in any case, is refused: the feed and the product forms find
//! brands by name.
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;
use sqlx::Row;

use app::platform::db::Db;
use app::text::fold::fold;

use super::audit::Entry;
use super::roles::Permission;
use super::session::{Operator, OperatorForm};
use super::{ui, PREFIX};
use crate::state::AppCtx;

/// Brands a page lists.
const PER_PAGE: usize = 100;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/brands"), get(page).post(add_form))
        .route(&format!("{PREFIX}/brands/{{id}}"), post(rename_form))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PageQuery {
    q: String,
    page: usize,
    done: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NameField {
    name: String,
}

/// A brand's name: 1 to 80 characters, control characters removed.
pub fn name(s: &str) -> Option<String> {
    let t: String = s.trim().chars().filter(|c| !c.is_control()).collect();
    (!t.is_empty() && t.chars().count() <= 80).then_some(t)
}

struct BrandRow {
    id: i64,
    name: String,
    products: i64,
}

async fn all(db: &Db) -> Result<Vec<BrandRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT b.id, b.name, (SELECT COUNT(*) FROM products p WHERE p.brand_id = b.id) AS products
           FROM brands b ORDER BY b.name, b.id",
    )
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(BrandRow {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                products: r.try_get("products")?,
            })
        })
        .collect()
}

/// Another brand of that name (compared folded), if any.
async fn named(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    name: &str,
    except: i64,
) -> Result<bool, sqlx::Error> {
    let names: Vec<(i64, String)> = sqlx::query_as("SELECT id, name FROM brands")
        .fetch_all(&mut **tx)
        .await?;
    let wanted = fold(name);
    Ok(names
        .iter()
        .any(|(id, n)| *id != except && fold(n) == wanted))
}

struct Refusal {
    form: String,
    message: String,
    typed: String,
}

async fn view_page(
    app: &AppCtx,
    op: &Operator,
    (q, page): (&str, usize),
    notice: Option<String>,
    refusal: Option<Refusal>,
    status: StatusCode,
) -> Response {
    let brands = match all(&app.state.db).await {
        Ok(b) => b,
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let edit = op.can(Permission::EditCatalogue);
    let needle = fold(q.trim());
    let found: Vec<&BrandRow> = brands
        .iter()
        .filter(|b| needle.is_empty() || fold(&b.name).contains(&needle))
        .collect();
    let page = page.max(1);
    let error_for = |form: &str| {
        refusal
            .as_ref()
            .filter(|r| r.form == form)
            .map(|r| view! { <p class="bo-error" role="alert">{r.message.clone()}</p> })
    };
    let typed_for = |form: &str, default: &str| {
        refusal
            .as_ref()
            .filter(|r| r.form == form)
            .map_or(default.to_string(), |r| r.typed.clone())
    };
    let rows = found
        .iter()
        .skip((page - 1) * PER_PAGE)
        .take(PER_PAGE)
        .map(|b| {
            let form = format!("brand-{}", b.id);
            let cell = if edit {
                view! {
                    {error_for(&form)}
                    <form method="post" action=format!("{PREFIX}/brands/{}", b.id) class="bo-inline">
                        {ui::xsrf_field(op)}
                        <input name="name" maxlength="80" required value=typed_for(&form, &b.name)
                            aria-label=format!("{} · {}", b.name, t("brands.name")) />
                        <button type="submit" class="bo-secondary" aria-label=format!("{} · {}", b.name, t("brands.rename"))>{t("brands.rename")}</button>
                    </form>
                }
                .into_any()
            } else {
                view! { {b.name.clone()} }.into_any()
            };
            view! { <tr data-brand=b.id.to_string()><td>{cell}</td><td class="num">{b.products}</td></tr> }
        })
        .collect_view();
    let link = |page: usize| {
        let query = serde_urlencoded::to_string([("q", q), ("page", &page.to_string())])
            .unwrap_or_default();
        format!("{PREFIX}/brands?{query}")
    };
    let pager = ui::pager(op, page, page * PER_PAGE < found.len(), link);
    let add = edit.then(|| view! {
        <h2>{t("brands.new")}</h2>
        {error_for("new")}
        <form method="post" action=format!("{PREFIX}/brands") class="bo-inline">
            {ui::xsrf_field(op)}
            <label for="brand-name">{t("brands.name")}</label>
            <input id="brand-name" name="name" maxlength="80" required value=typed_for("new", "") />
            <button type="submit">{t("brands.add")}</button>
        </form>
    });
    let body = view! {
        <form method="get" action=format!("{PREFIX}/brands") role="search" class="bo-inline">
            <label for="brand-search">{t("brands.search")}</label>
            <input id="brand-search" name="q" type="search" maxlength="80" value=q.to_string() />
            <button type="submit" class="bo-secondary">{t("products.search_submit")}</button>
        </form>
        <p id="brands-found">{format!("{} {}", t("brands.found"), found.len())}</p>
        {add}
        <div class="bo-table-wrap" tabindex="0">
            <table id="brands">
                <thead><tr><th scope="col">{t("brands.name")}</th><th scope="col" class="num">{t("universes.products")}</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {pager}
    }
    .into_any();
    ui::page(status, op.lang(), Some(op), t("brands.title"), notice, body)
}

async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(q): Query<PageQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ReadCatalogue) {
        return r;
    }
    let notice = (!q.done.is_empty()).then(|| op.t("brands.saved").to_string());
    let search: String = q.q.chars().filter(|c| !c.is_control()).take(80).collect();
    view_page(&app, &op, (&search, q.page), notice, None, StatusCode::OK).await
}

async fn refused(app: &AppCtx, op: &Operator, form: &str, key: &str, typed: &str) -> Response {
    let refusal = Refusal {
        form: form.to_string(),
        message: op.t(key).to_string(),
        typed: typed.to_string(),
    };
    let status = StatusCode::UNPROCESSABLE_ENTITY;
    view_page(app, op, ("", 1), None, Some(refusal), status).await
}

/// Writes a brand's name (`id` none: a new brand) unless another has it; the outcome's
/// text key when refused.
async fn save(
    app: &AppCtx,
    op: &Operator,
    id: Option<i64>,
    typed: &str,
) -> Result<Result<(), &'static str>, sqlx::Error> {
    let Some(name) = name(typed) else {
        return Ok(Err("brands.error.name"));
    };
    let mut tx = app.state.db.begin().await?;
    if named(&mut tx, &name, id.unwrap_or(0)).await? {
        return Ok(Err("brands.error.taken"));
    }
    let (action, id, summary) = match id {
        Some(id) => {
            let before: Option<String> =
                sqlx::query_scalar("SELECT name FROM brands WHERE id = $1")
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?;
            let Some(before) = before else {
                return Ok(Err("brands.error.gone"));
            };
            sqlx::query("UPDATE brands SET name = $2, slug = $3 WHERE id = $1")
                .bind(id)
                .bind(&name)
                .bind(app::text::slug::slug(&name))
                .execute(&mut *tx)
                .await?;
            ("update", id, format!("{before:?} → {name:?}"))
        }
        None => {
            let id = super::sales::store::next_id(&mut tx, "brands", 1).await?;
            sqlx::query("INSERT INTO brands (id, name, slug) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(&name)
                .bind(app::text::slug::slug(&name))
                .execute(&mut *tx)
                .await?;
            ("create", id, format!("{name:?}"))
        }
    };
    let entry = Entry {
        action,
        object_kind: "brand",
        object_id: id.to_string(),
        summary,
    };
    super::audit::record(&mut tx, &op.actor(), entry, app::platform::state::now()).await?;
    tx.commit().await?;
    Ok(Ok(()))
}

async fn add_form(State(app): State<Arc<AppCtx>>, form: OperatorForm<NameField>) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    match save(&app, op, None, &form.fields.name).await {
        Ok(Ok(())) => ui::see_other(&format!("{PREFIX}/brands?done=1")),
        Ok(Err(key)) => refused(&app, op, "new", key, &form.fields.name).await,
        Err(e) => ui::db_error(e),
    }
}

async fn rename_form(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<NameField>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    match save(&app, op, Some(id), &form.fields.name).await {
        Ok(Ok(())) => ui::see_other(&format!("{PREFIX}/brands?done=1")),
        Ok(Err("brands.error.gone")) => ui::not_found(op),
        Ok(Err(key)) => refused(&app, op, &format!("brand-{id}"), key, &form.fields.name).await,
        Err(e) => ui::db_error(e),
    }
}
