//! The audit log for admins: search by words and object kind, newest first, 50 a page.
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use leptos::prelude::*;

use super::audit::{self, Search};
use super::roles::Permission;
use super::session::Operator;
use super::{ui, PREFIX};
use crate::state::AppCtx;

const KINDS: [&str; 16] = [
    "member",
    "operator",
    "sale",
    "option",
    "product",
    "brand",
    "universe",
    "trip",
    "feed",
    "notice",
    "ticket",
    "saved_reply",
    "order",
    "campaign",
    "experiment",
    "help_article",
];

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new().route(&format!("{PREFIX}/audit"), get(page))
}

pub async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(s): Query<Search>,
) -> Response {
    if let Err(r) = op.require(Permission::ReadAudit) {
        return r;
    }
    let (rows, more) = match audit::search(&app.state.db, &s).await {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let page_link = |p: i64| {
        format!(
            "{PREFIX}/audit?q={}&object_kind={}&page={p}",
            app::routes::encode_query_value(&s.q),
            app::routes::encode_query_value(&s.object_kind)
        )
    };
    let previous =
        (s.page > 0).then(|| view! { <a href=page_link(s.page - 1)>{t("page.previous")}</a> });
    let next = more.then(|| view! { <a href=page_link(s.page + 1)>{t("page.next")}</a> });
    let empty = rows.is_empty().then(|| view! { <p>{t("audit.none")}</p> });
    let rows = rows
        .into_iter()
        .map(|r| {
            view! {
                <tr>
                    <td>{ui::when(r.at)}</td>
                    <td>{r.operator_email}</td>
                    <td>{r.action}</td>
                    <td>{format!("{} {}", r.object_kind, r.object_id)}</td>
                    <td>{r.summary}</td>
                    <td>{r.ip}</td>
                </tr>
            }
        })
        .collect_view();
    let kinds = KINDS
        .into_iter()
        .map(|k| view! { <option value=k selected=s.object_kind == k>{k}</option> })
        .collect_view();
    let body = view! {
        <form method="get" class="bo-filters" role="search">
            {ui::field(t("audit.search"), "q", view! { <input id="q" name="q" type="search" value=s.q.clone() /> }.into_any(), None)}
            {ui::field(t("audit.kind"), "object_kind", view! { <select id="object_kind" name="object_kind"><option value="">{t("audit.any")}</option>{kinds}</select> }.into_any(), None)}
            <button type="submit">{t("audit.search")}</button>
        </form>
        {empty}
        <div class="bo-table-wrap" tabindex="0">
            <table id="audit">
                <thead><tr>
                    <th scope="col">{t("audit.when")}</th><th scope="col">{t("audit.who")}</th><th scope="col">{t("audit.action")}</th>
                    <th scope="col">{t("audit.object")}</th><th scope="col">{t("audit.summary")}</th><th scope="col">{t("audit.ip")}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <nav class="bo-paging" aria-label="pages">{previous}{next}</nav>
    }
    .into_any();
    ui::page(
        StatusCode::OK,
        op.lang(),
        Some(&op),
        t("audit.title"),
        None,
        body,
    )
}
