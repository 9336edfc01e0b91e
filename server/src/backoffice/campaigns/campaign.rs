//! One campaign: its terms, its use per site and its latest orders, and the stop.
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use leptos::prelude::*;
use serde::de::IgnoredAny;
use serde::Deserialize;

use super::{discount, rules, sites_label, store, used};
use crate::backoffice::audit::{self, Entry};
use crate::backoffice::roles::Permission;
use crate::backoffice::sales::site_label;
use crate::backoffice::session::{Operator, OperatorForm};
use crate::backoffice::{ui, PREFIX};
use crate::state::AppCtx;

/// The latest uses the page lists.
const RECENT: i64 = 20;

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
    let notice = match q.done.as_str() {
        "" => None,
        "stopped" => Some(op.t("campaigns.stopped").to_string()),
        _ => Some(op.t("campaigns.created").to_string()),
    };
    render(&app, &op, id, notice, None, StatusCode::OK).await
}

async fn render(
    app: &AppCtx,
    op: &Operator,
    id: i64,
    notice: Option<String>,
    error: Option<&'static str>,
    status: StatusCode,
) -> Response {
    let db = &app.state.db;
    let loaded = async {
        let Some(c) = store::one(db, id).await? else {
            return Ok(None);
        };
        let per_site = store::use_per_site(db, id).await?;
        let recent = store::recent(db, id, RECENT).await?;
        Ok::<_, sqlx::Error>(Some((c, per_site, recent)))
    }
    .await;
    let (c, per_site, recent) = match loaded {
        Ok(Some(x)) => x,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let now = app::platform::state::now();
    let state = rules::status(c.valid_from, c.valid_until, c.stopped_at.is_some(), now);
    let facts = [
        (
            t("support.state"),
            t(&format!("campaigns.status.{state}")).to_string(),
        ),
        (t("campaigns.code"), c.code.clone()),
        (
            t("campaigns.delivery"),
            t(&format!("campaigns.delivery.{}", c.delivery)).to_string(),
        ),
        (
            t("campaigns.discount"),
            discount(op, &c.discount_type, &c.scope, c.value),
        ),
        (t("campaigns.sites"), sites_label(&c.sites)),
        (
            t("campaigns.dates"),
            format!("{} → {}", ui::when(c.valid_from), ui::when(c.valid_until)),
        ),
        (t("campaigns.per_member"), c.per_member_limit.to_string()),
        (t("campaigns.used"), used(&c)),
        (t("campaigns.created_by"), c.created_by.clone()),
    ]
    .into_iter()
    .map(|(k, v)| view! { <dt>{k}</dt><dd>{v}</dd> })
    .collect_view();
    let sites = per_site
        .iter()
        .map(|s| {
            view! {
                <tr data-site=s.site_id.to_string()>
                    <th scope="row">{site_label(s.site_id)}</th>
                    <td class="num">{s.uses}</td>
                    <td class="num">{s.members}</td>
                    <td class="num">{ui::amount(s.discount)}</td>
                </tr>
            }
        })
        .collect_view();
    let recent_view = if recent.is_empty() {
        view! { <p>{t("campaigns.no_use")}</p> }.into_any()
    } else {
        let rows = recent
            .iter()
            .map(|r| {
                view! {
                    <tr>
                        <td><a href=format!("{PREFIX}/orders/{}", r.order_id)>{format!("#{}", r.order_id)}</a></td>
                        <td>{ui::when(r.created_at)}</td>
                        <td class="num">{r.site_id}</td>
                        <td class="num">{ui::amount(r.amount)}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <div class="bo-table-wrap" tabindex="0">
                <table id="campaign-orders">
                    <thead><tr>
                        <th scope="col">{t("orders.number")}</th>
                        <th scope="col">{t("orders.date")}</th>
                        <th scope="col" class="num">{t("sales.site")}</th>
                        <th scope="col" class="num">{t("campaigns.discount_given")}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    let stop = matches!(state, "live" | "scheduled").then(|| {
        view! {
            <form method="post" action=format!("{PREFIX}/campaigns/{id}/stop") class="bo-inline">
                {ui::xsrf_field(op)}
                <button type="submit" class="bo-danger">{t("campaigns.stop")}</button>
            </form>
            <p class="bo-hint">{t("campaigns.stop_hint")}</p>
        }
    });
    let error = error.map(|k| view! { <p class="bo-error" role="alert">{op.t(k)}</p> });
    let body = view! {
        <p><a href=format!("{PREFIX}/campaigns")>{t("campaigns.title")}</a></p>
        {error}
        <dl class="bo-facts" id="campaign">{facts}</dl>
        {stop}
        <h2>{t("campaigns.use")}</h2>
        <div class="bo-table-wrap" tabindex="0">
            <table id="campaign-sites">
                <thead><tr>
                    <th scope="col">{t("sales.site")}</th>
                    <th scope="col" class="num">{t("campaigns.uses")}</th>
                    <th scope="col" class="num">{t("campaigns.members")}</th>
                    <th scope="col" class="num">{t("campaigns.discount_given")}</th>
                </tr></thead>
                <tbody>{sites}</tbody>
            </table>
        </div>
        <h2>{t("campaigns.latest")}</h2>
        {recent_view}
    }
    .into_any();
    ui::page(status, op.lang(), Some(op), &c.name, notice, body)
}

pub async fn stop(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<IgnoredAny>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let now = app::platform::state::now();
    let stopped = async {
        let mut tx = app.state.db.begin().await?;
        let exists: Option<String> =
            sqlx::query_scalar("SELECT name FROM voucher_campaigns WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        let Some(name) = exists else {
            return Ok(None);
        };
        if !store::stop(&mut tx, id, now).await? {
            return Ok(Some(false));
        }
        let entry = Entry {
            action: "stop",
            object_kind: "campaign",
            object_id: id.to_string(),
            summary: format!("{name:?}"),
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(Some(true))
    }
    .await;
    match stopped {
        Ok(Some(true)) => ui::see_other(&format!("{PREFIX}/campaigns/{id}?done=stopped")),
        Ok(Some(false)) => {
            render(
                &app,
                op,
                id,
                None,
                Some("campaigns.error.not_running"),
                StatusCode::CONFLICT,
            )
            .await
        }
        Ok(None) => ui::not_found(op),
        Err(e) => ui::db_error(e),
    }
}
