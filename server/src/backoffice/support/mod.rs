//! The support desk: the ticket queue by status, site, reason and assignee (the longest
//! waiting first), a ticket with its thread and files, and its actions (answer, close,
//! reopen, assign) through `app::help::service::act`, the service `server support` uses.
//! Saved replies per language in `replies`.
pub mod replies;
pub mod ticket;

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;

use app::help::store::{self, QueueFilter};

use super::roles::Permission;
use super::session::Operator;
use super::{ui, PREFIX};
use crate::state::AppCtx;

/// Tickets a queue page lists.
const QUEUE_PAGE: usize = 50;
/// The statuses, in the tabs' order: waiting for support, answered, closed.
pub const STATUSES: [&str; 3] = ["open", "answered", "closed"];
/// The contact reasons of every site (a ticket's subject is `reason` or `reason.sub`).
pub const REASONS: [&str; 6] = [
    "order",
    "returns",
    "payment",
    "account",
    "rosedeals",
    "other",
];

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/support"), get(queue_page))
        .route(
            &format!("{PREFIX}/support/replies"),
            get(replies::page).post(replies::add),
        )
        .route(
            &format!("{PREFIX}/support/replies/{{id}}"),
            post(replies::save),
        )
        .route(&format!("{PREFIX}/support/{{id}}"), get(ticket::page))
        .route(&format!("{PREFIX}/support/{{id}}/act"), post(ticket::act))
        .route(
            &format!("{PREFIX}/support/{{id}}/files/{{file}}"),
            get(ticket::download),
        )
}

/// A reason's label: the shop's French words (the team reads French and English; the
/// subject's own title, in the member's language, is beside it).
pub fn reason_label(op: &Operator, id: &str) -> String {
    let top = id.split('.').next().unwrap_or(id);
    if REASONS.contains(&top) {
        op.t(&format!("support.reason.{top}")).to_string()
    } else {
        top.to_string()
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct QueueQuery {
    status: String,
    site: String,
    reason: String,
    assignee: String,
    page: String,
}

async fn queue_page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(q): Query<QueueQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::AnswerTickets) {
        return r;
    }
    let status = STATUSES
        .iter()
        .find(|s| **s == q.status)
        .copied()
        .unwrap_or("open");
    let reason = REASONS
        .iter()
        .find(|r| **r == q.reason)
        .copied()
        .unwrap_or("");
    let filter = QueueFilter {
        status: status.to_string(),
        site_id: q.site.parse().ok(),
        reason: reason.to_string(),
        assignee: match q.assignee.as_str() {
            "me" => Some(op.row.id),
            "none" => Some(0),
            _ => None,
        },
    };
    let page = ui::page_number(&q.page);
    let db = &app.state.db;
    // One row more than a page tells whether there is a next one.
    let (mut tickets, counts, operators) = match tokio::try_join!(
        store::support_queue(
            db,
            &filter,
            QUEUE_PAGE as i64 + 1,
            ((page - 1) * QUEUE_PAGE) as i64
        ),
        store::support_counts(db),
        crate::backoffice::store::operator_names(db),
    ) {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let more = tickets.len() > QUEUE_PAGE;
    tickets.truncate(QUEUE_PAGE);
    let t = |k: &str| op.t(k);
    let now = app::platform::state::now();
    let count = |s: &str| counts.iter().find(|(k, _)| k == s).map_or(0, |(_, n)| *n);
    let link = |s: &str| {
        let query = serde_urlencoded::to_string([
            ("status", s),
            ("site", q.site.as_str()),
            ("reason", reason),
            ("assignee", q.assignee.as_str()),
        ])
        .unwrap_or_default();
        format!("{PREFIX}/support?{query}")
    };
    let tabs = STATUSES
        .iter()
        .map(|s| {
            view! {
                <a href=link(s) aria-current=(*s == status).then_some("page")>
                    {format!("{} ({})", op.t(&format!("support.status.{s}")), count(s))}
                </a>
            }
        })
        .collect_view();
    let name_of = |id: Option<i64>| {
        id.and_then(|id| operators.iter().find(|(o, _)| *o == id))
            .map_or_else(|| t("support.nobody").to_string(), |(_, n)| n.clone())
    };
    let list = if tickets.is_empty() {
        view! { <p>{t("support.none")}</p> }.into_any()
    } else {
        let rows = tickets
            .iter()
            .map(|k| {
                view! {
                    <tr data-ticket=k.id.to_string()>
                        <td><a href=format!("{PREFIX}/support/{}", k.id)>{format!("#{}", k.id)}</a></td>
                        <td>{super::moderation::age(&op, k.updated_at, now)}</td>
                        <td class="num">{k.site_id}</td>
                        <td>{format!("{} · {}", reason_label(&op, &k.subject_id), k.subject_title)}</td>
                        <td>{k.email.clone()}</td>
                        <td>{name_of(k.assignee_id)}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <div class="bo-table-wrap" tabindex="0">
                <table id="tickets">
                    <thead><tr>
                        <th scope="col">{t("support.ticket")}</th>
                        <th scope="col">{t("support.waiting_since")}</th>
                        <th scope="col" class="num">{t("sales.site")}</th>
                        <th scope="col">{t("support.reason")}</th>
                        <th scope="col">{t("support.member")}</th>
                        <th scope="col">{t("support.assignee")}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    let site_selected: i64 = q.site.parse().unwrap_or(0);
    let sites = app::site::SITES
        .iter()
        .map(|s| {
            let id = i64::from(s.site_id);
            view! { <option value=id.to_string() selected=id == site_selected>{super::sales::site_label(id)}</option> }
        })
        .collect_view();
    let reasons = REASONS
        .iter()
        .map(|r| view! { <option value=*r selected=*r == reason>{reason_label(&op, r)}</option> })
        .collect_view();
    let body = view! {
        <nav class="bo-tabs" aria-label=t("support.title")>{tabs}</nav>
        <form method="get" action=format!("{PREFIX}/support") class="bo-inline" role="search">
            <input type="hidden" name="status" value=status />
            <label for="site">{t("sales.site")}</label>
            <select id="site" name="site"><option value="">{t("sales.any_site")}</option>{sites}</select>
            <label for="reason">{t("support.reason")}</label>
            <select id="reason" name="reason"><option value="">{t("support.any_reason")}</option>{reasons}</select>
            <label for="assignee">{t("support.assignee")}</label>
            <select id="assignee" name="assignee">
                <option value="">{t("support.anyone")}</option>
                <option value="me" selected=q.assignee == "me">{t("support.me")}</option>
                <option value="none" selected=q.assignee == "none">{t("support.nobody")}</option>
            </select>
            <button type="submit" class="bo-secondary">{t("transparency.show")}</button>
        </form>
        <p id="tickets-found">{format!("{} {}", t("support.found"), tickets.len())}</p>
        {list}
        {ui::pager(&op, page, more, |p| {
            let query = serde_urlencoded::to_string([
                ("status", status),
                ("site", q.site.as_str()),
                ("reason", reason),
                ("assignee", q.assignee.as_str()),
                ("page", &p.to_string()),
            ])
            .unwrap_or_default();
            format!("{PREFIX}/support?{query}")
        })}
        <p><a href=format!("{PREFIX}/support/replies")>{t("support.replies")}</a></p>
    }
    .into_any();
    ui::page(
        StatusCode::OK,
        op.lang(),
        Some(&op),
        t("support.title"),
        None,
        body,
    )
}
