//! Members for customer care: found by email or number; a member's page with their
//! orders, tickets and sign-in events; their access (deactivate: sign-in answers code 6;
//! blacklist: code 7; give it back), each with its reason; their data as JSON (GDPR Art.
//! 15 and 20, the export `app::account::store::export` makes); and erasure on a request
//! that came another way (GDPR Art. 17, the same erasure as "delete forever").
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;
use sqlx::Row;

use app::account::store::{closing, export};
use app::auth::rules::MemberStatus;

use super::audit::{self, Entry};
use super::roles::Permission;
use super::session::{Operator, OperatorForm};
use super::{ui, PREFIX};
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/members"), get(list_page))
        .route(&format!("{PREFIX}/members/{{id}}"), get(member_page))
        .route(&format!("{PREFIX}/members/{{id}}/access"), post(access))
        .route(&format!("{PREFIX}/members/{{id}}/erase"), post(erase))
        .route(&format!("{PREFIX}/members/{{id}}/export"), get(download))
}

fn status_key(status: i64) -> &'static str {
    match MemberStatus::from_db(status) {
        MemberStatus::Active => "members.status.active",
        MemberStatus::Deactivated => "members.status.deactivated",
        MemberStatus::Blacklisted => "members.status.blacklisted",
        MemberStatus::Erased => "members.status.erased",
        MemberStatus::NotActivated => "members.status.not_activated",
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ListQuery {
    q: String,
}

async fn list_page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(q): Query<ListQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ManageMembers) {
        return r;
    }
    let t = |k: &str| op.t(k);
    let text: String =
        q.q.trim()
            .chars()
            .filter(|c| !c.is_control())
            .take(120)
            .collect();
    let rows = if text.is_empty() {
        vec![]
    } else {
        let number = text.trim_start_matches('#').parse::<i64>().unwrap_or(0);
        let like = format!(
            "%{}%",
            text.to_lowercase()
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        );
        match sqlx::query(
            "SELECT id, site_id, email, first_name, last_name, status FROM members
              WHERE id = $1 OR LOWER(email) LIKE $2 ESCAPE '\\' ORDER BY id DESC LIMIT 50",
        )
        .bind(number)
        .bind(like)
        .fetch_all(&app.state.db.pool)
        .await
        {
            Ok(r) => r,
            Err(e) => return ui::db_error(e),
        }
    };
    let list = rows
        .iter()
        .map(|r| {
            let id: i64 = r.try_get("id").unwrap_or(0);
            let status: i64 = r.try_get("status").unwrap_or(1);
            view! {
                <tr data-member=id.to_string()>
                    <td><a href=format!("{PREFIX}/members/{id}")>{format!("#{id}")}</a></td>
                    <td>{r.try_get::<String, _>("email").unwrap_or_default()}</td>
                    <td>{format!("{} {}", r.try_get::<String, _>("first_name").unwrap_or_default(), r.try_get::<String, _>("last_name").unwrap_or_default())}</td>
                    <td class="num">{r.try_get::<i64, _>("site_id").unwrap_or(0)}</td>
                    <td>{op.t(status_key(status))}</td>
                </tr>
            }
        })
        .collect_view();
    let found = (!text.is_empty()).then(|| {
        view! {
            <p id="members-found">{format!("{} {}", t("members.found"), rows.len())}</p>
            <div class="bo-table-wrap" tabindex="0">
                <table id="members">
                    <thead><tr>
                        <th scope="col">{t("members.number")}</th>
                        <th scope="col">{t("moderation.email")}</th>
                        <th scope="col">{t("operators.name")}</th>
                        <th scope="col" class="num">{t("sales.site")}</th>
                        <th scope="col">{t("support.state")}</th>
                    </tr></thead>
                    <tbody>{list}</tbody>
                </table>
            </div>
        }
    });
    let body = view! {
        <form method="get" action=format!("{PREFIX}/members") class="bo-inline" role="search">
            <label for="q">{t("members.search")}</label>
            <input id="q" name="q" type="search" class="bo-wide" maxlength="120" value=text.clone() />
            <button type="submit" class="bo-secondary">{t("products.search_submit")}</button>
        </form>
        {found}
    }
    .into_any();
    ui::page(
        StatusCode::OK,
        op.lang(),
        Some(&op),
        t("members.title"),
        None,
        body,
    )
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct MemberQuery {
    done: String,
}

async fn member_page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    Query(q): Query<MemberQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ManageMembers) {
        return r;
    }
    let notice = (!q.done.is_empty()).then(|| op.t("operators.saved").to_string());
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
    let pool = &app.state.db.pool;
    let member = match sqlx::query(
        "SELECT site_id, email, first_name, last_name, status, created_at FROM members WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await
    {
        Ok(Some(m)) => m,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let lists = async {
        let orders = sqlx::query(
            "SELECT id, status, total, created_at FROM orders WHERE member_id = $1 ORDER BY id DESC LIMIT 20",
        )
        .bind(id)
        .fetch_all(pool)
        .await?;
        let tickets = sqlx::query(
            "SELECT id, subject_title, status, updated_at FROM help_tickets WHERE member_id = $1 ORDER BY id DESC LIMIT 20",
        )
        .bind(id)
        .fetch_all(pool)
        .await?;
        let events = sqlx::query(
            "SELECT kind, detail, created_at FROM auth_events WHERE member_id = $1 ORDER BY id DESC LIMIT 20",
        )
        .bind(id)
        .fetch_all(pool)
        .await?;
        let reasons = sqlx::query(
            "SELECT reason, created_at FROM member_deactivations WHERE member_id = $1 ORDER BY id DESC LIMIT 5",
        )
        .bind(id)
        .fetch_all(pool)
        .await?;
        let now = app::platform::state::now();
        let segment = app::account::store::profile(&app.state.db, id, now)
            .await?
            .map(|p| p.segment_id)
            .unwrap_or_default();
        let source = app::auth::attribution::store::of_member(&app.state.db, id)
            .await?
            .map(|a| a.summary())
            .unwrap_or_default();
        Ok::<_, sqlx::Error>((orders, tickets, events, reasons, segment, source))
    }
    .await;
    let (orders, tickets, events, reasons, segment, source) = match lists {
        Ok(l) => l,
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let get_s = |r: &sqlx::any::AnyRow, c: &str| r.try_get::<String, _>(c).unwrap_or_default();
    let get_i = |r: &sqlx::any::AnyRow, c: &str| r.try_get::<i64, _>(c).unwrap_or(0);
    let state = get_i(&member, "status");
    let erased = MemberStatus::from_db(state) == MemberStatus::Erased;
    let item = |href: String, text: String| view! { <li><a href=href>{text}</a></li> };
    let orders_view = orders
        .iter()
        .map(|o| {
            item(
                format!("{PREFIX}/orders/{}", get_i(o, "id")),
                format!(
                    "#{} · {} · {} · {}",
                    get_i(o, "id"),
                    ui::when(get_i(o, "created_at")),
                    super::orders::status_label(op, &get_s(o, "status")),
                    ui::amount(get_i(o, "total"))
                ),
            )
        })
        .collect_view();
    let tickets_view = tickets
        .iter()
        .map(|k| {
            item(
                format!("{PREFIX}/support/{}", get_i(k, "id")),
                format!(
                    "#{} · {} · {}",
                    get_i(k, "id"),
                    get_s(k, "subject_title"),
                    get_s(k, "status")
                ),
            )
        })
        .collect_view();
    let events_view = events
        .iter()
        .map(|e| view! { <li>{format!("{} · {} {}", ui::when(get_i(e, "created_at")), get_s(e, "kind"), get_s(e, "detail"))}</li> })
        .collect_view();
    let reasons_view = reasons
        .iter()
        .map(|r| view! { <li>{format!("{} · {}", ui::when(get_i(r, "created_at")), get_s(r, "reason"))}</li> })
        .collect_view();
    let error =
        error.map(|k| view! { <p class="bo-error" role="alert" id="err-reason">{op.t(k)}</p> });
    let forms = (!erased).then(|| {
        let email = get_s(&member, "email");
        view! {
            <h2>{t("members.access")}</h2>
            {error}
            <form method="post" action=format!("{PREFIX}/members/{id}/access") class="bo-stack" id="access">
                {ui::xsrf_field(op)}
                <label for="reason">{t("members.reason")}</label>
                <input id="reason" name="reason" maxlength="300" aria-describedby="reason-hint" />
                <p id="reason-hint" class="bo-hint">{t("members.reason_hint")}</p>
                <div class="bo-inline">
                    <button type="submit" name="to" value="deactivated" class="bo-secondary">{t("members.deactivate")}</button>
                    <button type="submit" name="to" value="blacklisted" class="bo-danger">{t("members.blacklist")}</button>
                    <button type="submit" name="to" value="active" class="bo-secondary">{t("members.reactivate")}</button>
                </div>
            </form>
            <h2>{t("members.erase")}</h2>
            <form method="post" action=format!("{PREFIX}/members/{id}/erase") class="bo-stack" id="erase">
                {ui::xsrf_field(op)}
                <p class="bo-hint">{t("members.erase_hint")}</p>
                <label for="confirm">{format!("{} ({email})", t("members.erase_confirm"))}</label>
                <input id="confirm" name="confirm" autocomplete="off" />
                <button type="submit" class="bo-danger">{t("members.erase_submit")}</button>
            </form>
        }
    });
    let body = view! {
        <dl class="bo-facts" id="member-facts" data-status=state.to_string()>
            <dt>{t("moderation.email")}</dt><dd>{get_s(&member, "email")}</dd>
            <dt>{t("operators.name")}</dt><dd>{format!("{} {}", get_s(&member, "first_name"), get_s(&member, "last_name"))}</dd>
            <dt>{t("sales.site")}</dt><dd>{super::sales::site_label(get_i(&member, "site_id"))}</dd>
            <dt>{t("support.state")}</dt><dd>{op.t(status_key(state))}</dd>
            <dt>{t("members.since")}</dt><dd>{ui::when(get_i(&member, "created_at"))}</dd>
            <dt>{t("members.segment")}</dt><dd data-segment=segment.clone()>{op.t(&format!("members.segment.{segment}"))}</dd>
            <dt>{t("members.source")}</dt><dd data-testid="member-source">{if source.is_empty() { t("registrations.direct").to_string() } else { source }}</dd>
        </dl>
        <p><a href=format!("{PREFIX}/members/{id}/export") download=format!("member-{id}.json")>{t("members.export")}</a></p>
        <h2>{t("nav.orders")}</h2><ul id="member-orders">{orders_view}</ul>
        <h2>{t("support.title")}</h2><ul id="member-tickets">{tickets_view}</ul>
        <h2>{t("members.events")}</h2><ul id="member-events">{events_view}</ul>
        {(!reasons.is_empty()).then(|| view! { <h2>{t("members.reasons")}</h2><ul>{reasons_view}</ul> })}
        {forms}
    }
    .into_any();
    let title = format!("{} #{id}", t("members.member"));
    ui::page(status, op.lang(), Some(op), &title, notice, body)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AccessFields {
    to: String,
    reason: String,
}

async fn access(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<AccessFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ManageMembers) {
        return r;
    }
    let status = match form.fields.to.as_str() {
        "deactivated" => MemberStatus::Deactivated,
        "blacklisted" => MemberStatus::Blacklisted,
        "active" => MemberStatus::Active,
        _ => {
            return render(
                &app,
                op,
                id,
                None,
                Some("members.error.to"),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
    };
    let reason: String = form
        .fields
        .reason
        .trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(300)
        .collect();
    if reason.is_empty() {
        return render(
            &app,
            op,
            id,
            None,
            Some("members.error.reason"),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    let now = app::platform::state::now();
    let done = async {
        let mut tx = app.state.db.begin().await?;
        let changed =
            closing::set_access(&mut tx, id, status, &format!("operator: {reason}"), now).await?;
        if changed {
            let entry = Entry {
                action: "access",
                object_kind: "member",
                object_id: id.to_string(),
                summary: format!("status → {}; {reason}", form.fields.to),
            };
            audit::record(&mut tx, &op.actor(), entry, now).await?;
            tx.commit().await?;
        }
        Ok::<_, sqlx::Error>(changed)
    }
    .await;
    match done {
        Ok(true) => ui::see_other(&format!("{PREFIX}/members/{id}?done=1")),
        Ok(false) => ui::not_found(op),
        Err(e) => ui::db_error(e),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct EraseFields {
    confirm: String,
}

async fn erase(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<EraseFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ManageMembers) {
        return r;
    }
    let email: Option<(String, i64)> =
        match sqlx::query_as("SELECT email, status FROM members WHERE id = $1")
            .bind(id)
            .fetch_optional(&app.state.db.pool)
            .await
        {
            Ok(e) => e,
            Err(e) => return ui::db_error(e),
        };
    let Some((email, _)) = email.filter(|(_, s)| MemberStatus::from_db(*s) != MemberStatus::Erased)
    else {
        return ui::not_found(op);
    };
    if !form.fields.confirm.trim().eq_ignore_ascii_case(&email) {
        return render(
            &app,
            op,
            id,
            None,
            Some("members.error.confirm"),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    let now = app::platform::state::now();
    let done = async {
        let mut tx = app.state.db.begin().await?;
        if closing::payment_in_progress(&mut tx, id).await? {
            return Ok(false);
        }
        closing::erase(&mut tx, id, now).await?;
        let entry = Entry {
            action: "erase",
            object_kind: "member",
            object_id: id.to_string(),
            summary: "personal data erased (GDPR Art. 17)".into(),
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(true)
    }
    .await;
    match done {
        Ok(true) => ui::see_other(&format!("{PREFIX}/members/{id}?done=1")),
        Ok(false) => {
            render(
                &app,
                op,
                id,
                None,
                Some("members.error.payment"),
                StatusCode::CONFLICT,
            )
            .await
        }
        Err(e) => ui::db_error(e),
    }
}

async fn download(State(app): State<Arc<AppCtx>>, op: Operator, Path(id): Path<i64>) -> Response {
    if let Err(r) = op.require(Permission::ManageMembers) {
        return r;
    }
    let data = match export::export(&app.state.db, id).await {
        Ok(Some(d)) => d,
        Ok(None) => return ui::not_found(&op),
        Err(e) => return ui::db_error(e),
    };
    // Reading a person's whole data is recorded like a write.
    let now = app::platform::state::now();
    let recorded = async {
        let mut tx = app.state.db.begin().await?;
        let entry = Entry {
            action: "export",
            object_kind: "member",
            object_id: id.to_string(),
            summary: "data export (GDPR Art. 15, 20)".into(),
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await
    }
    .await;
    if let Err(e) = recorded {
        return ui::db_error(e);
    }
    let bytes = serde_json::to_vec_pretty(&data).unwrap_or_default();
    let mut res =
        crate::web::download::attachment(&format!("member-{id}.json"), "application/json", bytes);
    res.headers_mut()
        .remove(axum::http::header::CONTENT_SECURITY_POLICY);
    res
}
