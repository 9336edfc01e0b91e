//! Notices of illegal content (DSA Art. 16 and 17): the moderators' queue, a notice with
//! its files, the decision with its statement of reasons (emailed to the notifier and
//! kept), and the transparency report (Art. 15, 24) with its CSV. A decision that takes a
//! product off the shop empties the page cache, the search indexes and the cart's option
//! reads in the same request, so no member sees it again (`app::platform::sql::shown`).
pub mod notice;
pub mod rules;
pub mod store;
pub mod transparency;

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;

use super::roles::Permission;
use super::session::Operator;
use super::{ui, PREFIX};
use crate::state::AppCtx;

/// Notices a queue page lists.
const QUEUE_PAGE: usize = 50;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/moderation"), get(queue_page))
        .route(
            &format!("{PREFIX}/moderation/{{id}}"),
            get(notice::page).post(notice::decide),
        )
        .route(
            &format!("{PREFIX}/moderation/{{id}}/acknowledge"),
            post(notice::acknowledge),
        )
        .route(
            &format!("{PREFIX}/moderation/{{id}}/statement"),
            post(notice::resend_statement),
        )
        .route(
            &format!("{PREFIX}/moderation/{{id}}/restore"),
            post(notice::restore),
        )
        .route(
            &format!("{PREFIX}/moderation/{{id}}/files/{{file}}"),
            get(notice::download),
        )
        .route(&format!("{PREFIX}/transparency"), get(transparency::page))
        .route(
            &format!("{PREFIX}/transparency.csv"),
            get(transparency::csv),
        )
}

/// A reason's label in the operator's language.
pub fn reason_label(op: &Operator, code: &str) -> String {
    match code {
        "VIOLATION_CONSUMER_RIGHTS"
        | "MARKETING_WITHDRAW"
        | "MARKETING_PROHIBITED"
        | "COPYRIGHT_TRADEMARK"
        | "COPYRIGHT_DESIGN"
        | "COPYRIGHT_PATENT"
        | "PRIVATE_RIGHTS"
        | "DISTRIBUTION_RIGHTS"
        | "HATRED"
        | "ANOTHER_REASON"
        | "COPYRIGHT_INFRINGEMENT_AUTE" => op.t(&format!("reason.{code}")).to_string(),
        other => other.to_string(),
    }
}

/// The reasons of a notice (stored comma-separated), labelled.
pub fn reasons(op: &Operator, concerns: &str) -> String {
    concerns
        .split(',')
        .filter(|c| !c.is_empty())
        .map(|c| reason_label(op, c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How long ago, in hours or days, for a queue's age column.
pub fn age(op: &Operator, since: i64, now: i64) -> String {
    let secs = (now - since).max(0);
    if secs < 48 * 3600 {
        format!("{} {}", secs / 3600, op.t("age.hours"))
    } else {
        format!("{} {}", secs / 86_400, op.t("age.days"))
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct QueueQuery {
    state: String,
    page: String,
}

async fn queue_page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(q): Query<QueueQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ModerateContent) {
        return r;
    }
    let decided = q.state == "decided";
    let page = ui::page_number(&q.page);
    let db = &app.state.db;
    // One row more than a page tells whether there is a next one.
    let (mut rows, waiting) = match tokio::try_join!(
        store::queue(
            db,
            decided,
            QUEUE_PAGE as i64 + 1,
            ((page - 1) * QUEUE_PAGE) as i64
        ),
        store::waiting(db)
    ) {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let more = rows.len() > QUEUE_PAGE;
    rows.truncate(QUEUE_PAGE);
    let pager = ui::pager(&op, page, more, |p| {
        let state = if decided { "decided" } else { "" };
        let query = serde_urlencoded::to_string([("state", state), ("page", &p.to_string())])
            .unwrap_or_default();
        format!("{PREFIX}/moderation?{query}")
    });
    let t = |k: &str| op.t(k);
    let now = app::platform::state::now();
    let list = if rows.is_empty() {
        view! { <p>{t(if decided { "moderation.none_decided" } else { "moderation.none_waiting" })}</p> }
            .into_any()
    } else {
        let body = rows
            .into_iter()
            .map(|r| {
                let object = match (r.product_id, r.product_name) {
                    (Some(id), Some(name)) => format!("{name} (#{id})"),
                    (Some(id), None) => format!("#{id}"),
                    (None, _) => t("moderation.no_product").to_string(),
                };
                let state = match (&r.decision, r.acknowledged) {
                    (Some(d), _) => op.t(&format!("decision.{d}")).to_string(),
                    (None, true) => t("moderation.acknowledged").to_string(),
                    (None, false) => t("moderation.not_acknowledged").to_string(),
                };
                let when = r.decided_at.unwrap_or(r.created_at);
                view! {
                    <tr data-notice=r.id.to_string()>
                        <td><a href=format!("{PREFIX}/moderation/{}", r.id)>{format!("#{}", r.id)}</a></td>
                        <td>{age(&op, r.created_at, now)}</td>
                        <td>{ui::when(when)}</td>
                        <td class="num">{r.site_id}</td>
                        <td>{reasons(&op, &r.concerns)}</td>
                        <td>{object}</td>
                        <td>{op.t(&format!("made_as.{}", r.made_as)).to_string()}</td>
                        <td class="num">{r.files}</td>
                        <td>{state}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <div class="bo-table-wrap" tabindex="0">
                <table id="notices">
                    <thead><tr>
                        <th scope="col">{t("moderation.notice")}</th>
                        <th scope="col">{t("moderation.age")}</th>
                        <th scope="col">{t(if decided { "moderation.decided_at" } else { "moderation.received" })}</th>
                        <th scope="col" class="num">{t("sales.site")}</th>
                        <th scope="col">{t("moderation.reasons")}</th>
                        <th scope="col">{t("moderation.object")}</th>
                        <th scope="col">{t("moderation.notifier")}</th>
                        <th scope="col" class="num">{t("moderation.files")}</th>
                        <th scope="col">{t("moderation.state")}</th>
                    </tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    let body = view! {
        <p id="waiting">{format!("{} {waiting}", t("moderation.waiting"))}</p>
        <nav class="bo-tabs" aria-label=t("moderation.title")>
            <a href=format!("{PREFIX}/moderation") aria-current=(!decided).then_some("page")>{t("moderation.tab_waiting")}</a>
            <a href=format!("{PREFIX}/moderation?state=decided") aria-current=decided.then_some("page")>{t("moderation.tab_decided")}</a>
            <a href=format!("{PREFIX}/transparency")>{t("transparency.title")}</a>
        </nav>
        {list}
        {pager}
    }
    .into_any();
    ui::page(
        StatusCode::OK,
        op.lang(),
        Some(&op),
        t("moderation.title"),
        None,
        body,
    )
}
