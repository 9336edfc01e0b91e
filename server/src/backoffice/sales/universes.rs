//! A sale's universes and sub-universes (the catalog's tabs and their sub-tabs), on its
//! products page: add one (at the top or under a top one), rename one, remove an empty
//! one. A product's universe is chosen on the product's page.
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;

use app::platform::state::now;

use super::super::audit::{self, Entry};
use super::super::roles::Permission;
use super::super::session::{Operator, OperatorForm};
use super::super::{ui, PREFIX};
use super::products;
use super::store::{self, UniverseRow};
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/sales/{{id}}/universes"), post(add_form))
        .route(&format!("{PREFIX}/universes/{{id}}"), post(rename_form))
        .route(
            &format!("{PREFIX}/universes/{{id}}/remove"),
            post(remove_form),
        )
}

/// A universe's title: 1 to 80 characters.
pub fn title(s: &str) -> Option<String> {
    let t: String = s.trim().chars().filter(|c| !c.is_control()).collect();
    (!t.is_empty() && t.chars().count() <= 80).then_some(t)
}

/// The section of the products page; `error_for` gives a form's refusal, if any.
pub fn section(
    op: &Operator,
    sale_id: i64,
    universes: &[UniverseRow],
    can_edit: bool,
    error_for: &dyn Fn(&str) -> Option<AnyView>,
) -> AnyView {
    let t = |k: &str| op.t(k);
    let items = universes
        .iter()
        .map(|u| {
            let key = format!("universe-{}", u.id);
            let label = u.title.clone();
            let removable = u.products == 0 && u.children == 0;
            let forms = can_edit.then(|| view! {
                {error_for(&key)}
                <form method="post" action=format!("{PREFIX}/universes/{}", u.id) class="bo-inline">
                    {ui::xsrf_field(op)}
                    <input name="title" maxlength="80" required value=label.clone() aria-label=format!("{label} · {}", t("universes.title_field")) />
                    <button type="submit" class="bo-secondary" aria-label=format!("{label} · {}", t("universes.rename"))>{t("universes.rename")}</button>
                </form>
                {removable.then(|| view! {
                    <form method="post" action=format!("{PREFIX}/universes/{}/remove", u.id) class="bo-inline" data-enhance-confirm=t("travel.remove_confirm")>
                        {ui::xsrf_field(op)}
                        <button type="submit" class="bo-secondary" aria-label=format!("{label} · {}", t("travel.remove"))>{t("travel.remove")}</button>
                    </form>
                })}
            });
            let arrow = if u.parent_id.is_some() { "↳ " } else { "" };
            let text = format!("{arrow}{label} · {}: {}", t("universes.products"), u.products);
            view! {
                <li data-universe=u.id.to_string() class:bo-sub=u.parent_id.is_some()>
                    <span>{text}</span>
                    {forms}
                </li>
            }
        })
        .collect_view();
    let parents = universes
        .iter()
        .filter(|u| u.parent_id.is_none())
        .map(|u| view! { <option value=u.id.to_string()>{u.title.clone()}</option> })
        .collect_view();
    let add = can_edit.then(|| view! {
        {error_for("universe-new")}
        <form method="post" action=format!("{PREFIX}/sales/{sale_id}/universes") class="bo-inline">
            {ui::xsrf_field(op)}
            <label for="universe-title">{t("universes.new")}</label>
            <input id="universe-title" name="title" maxlength="80" required />
            <label for="universe-parent">{t("universes.under")}</label>
            <select id="universe-parent" name="parent"><option value="">{t("universes.top")}</option>{parents}</select>
            <button type="submit" class="bo-secondary">{t("universes.add")}</button>
        </form>
    });
    view! {
        <h2 id="universes">{t("universes.heading")}</h2>
        <ul class="bo-universes">{items}</ul>
        {add}
    }
    .into_any()
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct UniverseFields {
    title: String,
    parent: String,
}

async fn refused(app: &AppCtx, op: &Operator, sale_id: i64, form: String, key: &str) -> Response {
    let message = op.t(key).to_string();
    products::refused(
        app,
        op,
        sale_id,
        form,
        message,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await
}

/// The sale of universe `id`, for an operator who may edit it; else the page to answer.
async fn sale_of(app: &AppCtx, op: &Operator, id: i64) -> Result<i64, Response> {
    op.require(Permission::EditCatalogue)?;
    match store::universe_owner(&app.state.db, id).await {
        Ok(Some((sale, _))) => Ok(sale),
        Ok(None) => Err(ui::not_found(op)),
        Err(e) => Err(ui::db_error(e)),
    }
}

/// The audit record of a write to universe `id`, in the write's transaction.
async fn record(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    op: &Operator,
    (action, id): (&'static str, i64),
    summary: String,
) -> Result<(), sqlx::Error> {
    let entry = Entry {
        action,
        object_kind: "universe",
        object_id: id.to_string(),
        summary,
    };
    audit::record(tx, &op.actor(), entry, now()).await
}

fn done(sale_id: i64) -> Response {
    ui::see_other(&format!(
        "{PREFIX}/sales/{sale_id}/products?done=universe#universes"
    ))
}

async fn add_form(
    State(app): State<Arc<AppCtx>>,
    Path(sale_id): Path<i64>,
    form: OperatorForm<UniverseFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let universes = match store::universes(&app.state.db, sale_id).await {
        Ok(u) if !u.is_empty() => u,
        Ok(_) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let parent = match form.fields.parent.trim() {
        "" => Ok(None),
        p => p
            .parse::<i64>()
            .ok()
            .filter(|p| {
                universes
                    .iter()
                    .any(|u| u.id == *p && u.parent_id.is_none())
            })
            .map(Some)
            .ok_or("universes.error.parent"),
    };
    let (Some(title), Ok(parent)) = (title(&form.fields.title), parent) else {
        return refused(
            &app,
            op,
            sale_id,
            "universe-new".into(),
            "universes.error.title",
        )
        .await;
    };
    let result: Result<(), sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let id = store::add_universe(&mut tx, None, sale_id, parent, &title).await?;
        let summary = format!("sale {sale_id}, under {parent:?}: {title:?}");
        record(&mut tx, op, ("create", id), summary).await?;
        tx.commit().await
    }
    .await;
    match result {
        Ok(()) => done(sale_id),
        Err(e) => ui::db_error(e),
    }
}

async fn rename_form(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<UniverseFields>,
) -> Response {
    let op = &form.operator;
    let sale_id = match sale_of(&app, op, id).await {
        Ok(sale) => sale,
        Err(r) => return r,
    };
    let Some(title) = title(&form.fields.title) else {
        return refused(
            &app,
            op,
            sale_id,
            format!("universe-{id}"),
            "universes.error.title",
        )
        .await;
    };
    let result: Result<(), sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        store::rename_universe(&mut tx, id, &title).await?;
        record(&mut tx, op, ("update", id), format!("title {title:?}")).await?;
        tx.commit().await
    }
    .await;
    match result {
        Ok(()) => done(sale_id),
        Err(e) => ui::db_error(e),
    }
}

async fn remove_form(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<UniverseFields>,
) -> Response {
    let op = &form.operator;
    let sale_id = match sale_of(&app, op, id).await {
        Ok(sale) => sale,
        Err(r) => return r,
    };
    let result: Result<bool, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        if !store::remove_universe(&mut tx, id).await? {
            return Ok(false);
        }
        record(&mut tx, op, ("remove", id), format!("sale {sale_id}")).await?;
        tx.commit().await?;
        Ok(true)
    }
    .await;
    match result {
        Ok(true) => done(sale_id),
        Ok(false) => {
            refused(
                &app,
                op,
                sale_id,
                format!("universe-{id}"),
                "universes.error.not_empty",
            )
            .await
        }
        Err(e) => ui::db_error(e),
    }
}
