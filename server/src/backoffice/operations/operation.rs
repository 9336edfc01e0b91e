//! One operation: where it lands, its link, and its selection (products of any sale of its
//! site, in order), with the forms that add and remove a product.
use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use leptos::prelude::*;
use serde::Deserialize;

use super::store::{self, AddRefusal};
use super::{landing, status};
use crate::backoffice::audit::{self, Entry};
use crate::backoffice::roles::Permission;
use crate::backoffice::sales::site_label;
use crate::backoffice::session::{Operator, OperatorForm};
use crate::backoffice::{ui, PREFIX};
use crate::state::AppCtx;

const DONE: [&str; 5] = ["created", "added", "removed", "saved", "ended"];

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PageQuery {
    done: String,
}

pub async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    Query(q): Query<PageQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let notice = DONE
        .contains(&q.done.as_str())
        .then(|| op.t(&format!("operations.done.{}", q.done)).to_string());
    render(&app, &op, id, notice, None, "", StatusCode::OK).await
}

async fn render(
    app: &AppCtx,
    op: &Operator,
    id: i64,
    notice: Option<String>,
    error: Option<&'static str>,
    typed: &str,
    status_code: StatusCode,
) -> Response {
    let db = &app.state.db;
    let (o, chosen) = match store::one(db, id).await {
        Ok(Some(o)) => match store::selection(db, id).await {
            Ok(c) => (o, c),
            Err(e) => return ui::db_error(e),
        },
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let now = app::platform::state::now();
    let t = |k: &str| op.t(k);
    let rows = chosen
        .iter()
        .map(|c| {
            let on_sale = c.sale_ends_at.is_some_and(|e| e > now);
            let state = if c.sale_id.is_none() {
                t("operations.product.gone")
            } else if on_sale {
                t("operations.product.on_sale")
            } else {
                t("operations.product.over")
            };
            view! {
                <tr data-product=c.product_id.to_string()>
                    <td class="num">{c.product_id}</td>
                    <td>{c.name.clone()}</td>
                    <td>{c.sale_id.map(|s| format!("#{s} {}", c.sale_name)).unwrap_or_default()}</td>
                    <td>{state}</td>
                    <td>
                        <form method="post" action=format!("{PREFIX}/operations/{id}/products/{}/remove", c.product_id)>
                            {ui::xsrf_field(op)}
                            <button type="submit" class="bo-secondary" aria-label=format!("{} {}", t("operations.remove"), c.product_id)>{t("operations.remove")}</button>
                        </form>
                    </td>
                </tr>
            }
        })
        .collect_view();
    let list = if chosen.is_empty() {
        view! { <p data-testid="selection-none">{t("operations.selection_none")}</p> }.into_any()
    } else {
        view! {
            <div class="bo-table-wrap" tabindex="0">
                <table id="selection">
                    <thead><tr>
                        <th scope="col" class="num">{t("operations.product")}</th>
                        <th scope="col">{t("operations.product_name")}</th>
                        <th scope="col">{t("operations.sale")}</th>
                        <th scope="col">{t("operations.state")}</th>
                        <th scope="col">{t("operations.actions")}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    let error_view =
        error.map(|k| view! { <p class="bo-field-error" id="err-product_id" data-error-for="product_id">{op.t(k)}</p> });
    let link = format!("/operation/{}", o.code);
    let body = view! {
        <dl class="bo-facts" id="operation-facts">
            <dt>{t("sales.site")}</dt><dd>{site_label(o.site_id)}</dd>
            <dt>{t("operations.title_field")}</dt><dd>{o.title.clone()}</dd>
            <dt>{t("operations.lands")}</dt><dd>{landing(op, &o.target_kind, &o.target)}</dd>
            <dt>{t("operations.dates")}</dt><dd>{format!("{} → {}", ui::when(o.starts_at), ui::when(o.ends_at))}</dd>
            <dt>{t("operations.state")}</dt><dd>{status(op, o.starts_at, o.ends_at, now)}</dd>
            <dt>{t("operations.link")}</dt><dd><code>{link}</code></dd>
        </dl>
        <div class="bo-inline">
            <a href=format!("{PREFIX}/operations/{id}/edit") class="bo-secondary">{t("operations.edit")}</a>
            {(o.ends_at > now).then(|| view! {
                <form method="post" action=format!("{PREFIX}/operations/{id}/end")>
                    {ui::xsrf_field(op)}
                    <button type="submit" class="bo-secondary">{t("operations.end_now")}</button>
                </form>
            })}
        </div>
        <h2>{t("operations.selection")}</h2>
        <p class="bo-hint">{t("operations.selection_hint")}</p>
        {list}
        <form method="post" action=format!("{PREFIX}/operations/{id}/products") class="bo-inline" id="add-product">
            {ui::xsrf_field(op)}
            <label for="product_id">{t("operations.add_label")}</label>
            <input id="product_id" name="product_id" inputmode="numeric" required maxlength="18" value=typed.to_string()
                aria-invalid=error.map(|_| "true") aria-describedby=error.map(|_| "err-product_id") />
            <button type="submit">{t("operations.add")}</button>
        </form>
        {error_view}
        <p><a href=format!("{PREFIX}/operations")>{t("operations.back")}</a></p>
    }
    .into_any();
    let title = format!("{} · {}", t("operations.page_title"), o.code);
    ui::page(status_code, op.lang(), Some(op), &title, notice, body)
}

type Fields = BTreeMap<String, String>;

pub async fn add(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form_in: OperatorForm<Fields>,
) -> Response {
    let op = &form_in.operator;
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let typed = form_in
        .fields
        .get("product_id")
        .map(|v| v.trim().to_string())
        .unwrap_or_default();
    let db = &app.state.db;
    let o = match store::one(db, id).await {
        Ok(Some(o)) => o,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let Some(product) = typed.parse::<i64>().ok().filter(|p| *p > 0) else {
        let key = "operations.error.product";
        return render(
            &app,
            op,
            id,
            None,
            Some(key),
            &typed,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    };
    let now = app::platform::state::now();
    let done = async {
        let mut tx = db.begin().await?;
        if let Err(refusal) = store::add(&mut tx, id, o.site_id, product).await? {
            return Ok(Err(refusal));
        }
        let entry = Entry {
            action: "add_product",
            object_kind: "operation",
            object_id: id.to_string(),
            summary: format!("{}: product {product}", o.code),
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(Ok(()))
    }
    .await;
    match done {
        Ok(Ok(())) => ui::see_other(&format!("{PREFIX}/operations/{id}?done=added")),
        Ok(Err(refusal)) => {
            let key = match refusal {
                AddRefusal::NotOfSite => "operations.error.product",
                AddRefusal::Already => "operations.error.already",
            };
            render(
                &app,
                op,
                id,
                None,
                Some(key),
                &typed,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(e) => ui::db_error(e),
    }
}

pub async fn remove(
    State(app): State<Arc<AppCtx>>,
    Path((id, product)): Path<(i64, i64)>,
    form_in: OperatorForm<Fields>,
) -> Response {
    let op = &form_in.operator;
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let db = &app.state.db;
    let o = match store::one(db, id).await {
        Ok(Some(o)) => o,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let now = app::platform::state::now();
    let done = async {
        let mut tx = db.begin().await?;
        if !store::remove(&mut tx, id, product).await? {
            return Ok(false);
        }
        let entry = Entry {
            action: "remove_product",
            object_kind: "operation",
            object_id: id.to_string(),
            summary: format!("{}: product {product}", o.code),
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(true)
    }
    .await;
    match done {
        // Removed now or already (a second click): the selection as it is.
        Ok(_) => ui::see_other(&format!("{PREFIX}/operations/{id}?done=removed")),
        Err(e) => ui::db_error(e),
    }
}
