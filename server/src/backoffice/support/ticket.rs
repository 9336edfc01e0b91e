//! One ticket: the member, the thread with its files (downloads only), and one form of
//! actions carrying the version the operator saw. A saved reply is put in the answer
//! field by a plain GET (`?reply=ID`), so it works without the script.
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use leptos::prelude::*;
use serde::Deserialize;

use app::help::error::HelpError;
use app::help::service::{self, DeskAction};
use app::help::store;

use super::reason_label;
use crate::backoffice::audit::{self, Entry};
use crate::backoffice::roles::Permission;
use crate::backoffice::session::{Operator, OperatorForm};
use crate::backoffice::{ui, PREFIX};
use crate::state::AppCtx;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TicketQuery {
    reply: String,
    done: String,
}

/// What the page says above the thread, and what the answer field holds.
#[derive(Default)]
struct Shown {
    notice: Option<String>,
    error: Option<String>,
    typed: String,
}

pub async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    Query(q): Query<TicketQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::AnswerTickets) {
        return r;
    }
    let mut shown = Shown::default();
    if ["reply", "close", "reopen", "assign"].contains(&q.done.as_str()) {
        shown.notice = Some(op.t(&format!("support.done.{}", q.done)).to_string());
    } else if q.done == "mail_failed" {
        shown.notice = Some(op.t("support.done.mail_failed").to_string());
    }
    if let Ok(reply_id) = q.reply.parse::<i64>() {
        match store::saved_replies(&app.state.db, None).await {
            Ok(replies) => {
                if let Some(r) = replies.into_iter().find(|r| r.id == reply_id) {
                    shown.typed = r.body;
                }
            }
            Err(e) => return ui::db_error(e),
        }
    }
    render(&app, &op, id, shown, StatusCode::OK).await
}

async fn render(
    app: &AppCtx,
    op: &Operator,
    id: i64,
    shown: Shown,
    status: StatusCode,
) -> Response {
    let db = &app.state.db;
    let (ticket, thread) = match store::support_thread(db, id).await {
        Ok(Some(t)) => t,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let site = app::site::by_id_or_default(u16::try_from(ticket.site_id).unwrap_or(1));
    let (replies, operators) = match tokio::try_join!(
        store::saved_replies(db, Some(site.lang)),
        crate::backoffice::store::operators_with(db, Permission::AnswerTickets),
    ) {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let messages = thread
        .messages
        .iter()
        .map(|m| {
            let who = if m.author == "support" { t("support.from_support") } else { t("support.from_member") };
            let files = m
                .attachments
                .iter()
                .map(|a| {
                    view! {
                        <li><a href=format!("{PREFIX}/support/{id}/files/{}", a.id) download=a.name.clone()>{a.name.clone()}</a>
                            {format!(" ({} kB)", (a.size + 1023) / 1024)}</li>
                    }
                })
                .collect_view();
            view! {
                <li class="bo-message" data-author=m.author.clone()>
                    <p class="bo-message-head"><strong>{who}</strong>{format!(" · {}", ui::when(m.created_at))}</p>
                    <p class="bo-text">{m.body.clone()}</p>
                    <ul>{files}</ul>
                </li>
            }
        })
        .collect_view();
    let state = op
        .t(&format!("support.status.{}", ticket.status))
        .to_string();
    let version = ticket.version.to_string();
    let assignees = operators
        .iter()
        .map(|(oid, name)| {
            let is = ticket.assignee_id == Some(*oid);
            view! { <option value=oid.to_string() selected=is>{name.clone()}</option> }
        })
        .collect_view();
    let saved = (!replies.is_empty()).then(|| {
        let options = replies
            .iter()
            .map(|r| view! { <option value=r.id.to_string()>{r.title.clone()}</option> })
            .collect_view();
        view! {
            <form method="get" action=format!("{PREFIX}/support/{id}") class="bo-inline">
                <label for="saved">{format!("{} ({})", t("support.use_reply"), site.lang)}</label>
                <select id="saved" name="reply">{options}</select>
                <button type="submit" class="bo-secondary">{t("support.insert_reply")}</button>
            </form>
        }
    });
    let error = shown
        .error
        .clone()
        .map(|e| view! { <p class="bo-error" role="alert" id="err-text">{e}</p> });
    let closed = ticket.status == "closed";
    let body = view! {
        <dl class="bo-facts" id="ticket-facts" data-status=ticket.status.clone()>
            <dt>{t("support.member")}</dt><dd>{format!("{} · {} (#{})", ticket.first_name, ticket.email, ticket.member_id)}</dd>
            <dt>{t("sales.site")}</dt><dd>{super::super::sales::site_label(ticket.site_id)}</dd>
            <dt>{t("support.reason")}</dt><dd>{format!("{} · {}", reason_label(op, &ticket.subject_id), ticket.subject_title)}</dd>
            {ticket.order_id.map(|o| view! { <dt>{t("support.order")}</dt><dd>{format!("#{o}")}</dd> })}
            <dt>{t("support.state")}</dt><dd>{state}</dd>
            <dt>{t("support.opened")}</dt><dd>{ui::when(ticket.created_at)}</dd>
        </dl>
        <h2>{t("support.thread")}</h2>
        <ol class="bo-thread" id="thread">{messages}</ol>
        <h2>{t("support.answer")}</h2>
        {saved}
        <form method="post" action=format!("{PREFIX}/support/{id}/act") id="answer" data-enhance>
            {ui::xsrf_field(op)}
            <input type="hidden" name="version" value=version.clone() />
            {error}
            <div class="bo-field" data-field>
                <label for="text">{t("support.answer_text")}</label>
                <textarea id="text" name="text" rows="6" maxlength="5000"
                    aria-invalid=shown.error.is_some().then_some("true")
                    aria-describedby=shown.error.is_some().then_some("err-text")>{shown.typed.clone()}</textarea>
            </div>
            <p class="bo-hint">{t("support.answer_hint")}</p>
            <button type="submit" name="action" value="reply">{t("support.send")}</button>
        </form>
        <h2>{t("support.manage")}</h2>
        <form method="post" action=format!("{PREFIX}/support/{id}/act") class="bo-inline" id="assign">
            {ui::xsrf_field(op)}
            <input type="hidden" name="version" value=version.clone() />
            <label for="assignee">{t("support.assignee")}</label>
            <select id="assignee" name="assignee">
                <option value="">{t("support.nobody")}</option>
                {assignees}
            </select>
            <button type="submit" name="action" value="assign" class="bo-secondary">{t("support.assign")}</button>
        </form>
        <form method="post" action=format!("{PREFIX}/support/{id}/act") class="bo-inline">
            {ui::xsrf_field(op)}
            <input type="hidden" name="version" value=version />
            {if closed {
                view! { <button type="submit" name="action" value="reopen" class="bo-secondary">{t("support.reopen")}</button> }.into_any()
            } else {
                view! { <button type="submit" name="action" value="close" class="bo-secondary">{t("support.close")}</button> }.into_any()
            }}
        </form>
    }
    .into_any();
    let title = format!("{} #{id}", t("support.ticket"));
    let notice = shown.notice;
    ui::page(status, op.lang(), Some(op), &title, notice, body)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ActFields {
    action: String,
    version: String,
    text: String,
    assignee: String,
}

pub async fn act(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<ActFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::AnswerTickets) {
        return r;
    }
    let f = &form.fields;
    let assignee = f.assignee.parse::<i64>().ok();
    if let Some(a) = assignee {
        match crate::backoffice::store::operators_with(&app.state.db, Permission::AnswerTickets)
            .await
        {
            Ok(ops) if ops.iter().any(|(o, _)| *o == a) => {}
            Ok(_) => {
                return ui::message_page(
                    op.lang(),
                    Some(op),
                    StatusCode::UNPROCESSABLE_ENTITY,
                    op.t("support.error.assignee"),
                )
            }
            Err(e) => return ui::db_error(e),
        }
    }
    let action = match f.action.as_str() {
        "reply" => DeskAction::Reply(&f.text),
        "close" => DeskAction::Close,
        "reopen" => DeskAction::Reopen,
        "assign" => DeskAction::Assign(assignee),
        _ => {
            return ui::message_page(
                op.lang(),
                Some(op),
                StatusCode::BAD_REQUEST,
                op.t("form.errors"),
            )
        }
    };
    let Ok(seen) = f.version.parse::<i64>() else {
        return ui::message_page(
            op.lang(),
            Some(op),
            StatusCode::BAD_REQUEST,
            op.t("form.errors"),
        );
    };
    let now = app::platform::state::now();
    let done = async {
        let mut tx = app.state.db.begin().await?;
        let done = service::act(
            &mut tx,
            id,
            Some(seen),
            action,
            &app.config.public_origin,
            now,
        )
        .await?;
        if let Some(d) = &done {
            let summary = match action {
                DeskAction::Reply(text) => {
                    format!("answer ({} characters)", text.trim().chars().count())
                }
                DeskAction::Assign(a) => format!("assignee: {:?} → {:?}", d.ticket.assignee_id, a),
                DeskAction::Close | DeskAction::Reopen => {
                    format!("status: {:?} → {}", d.ticket.status, f.action)
                }
            };
            let entry = Entry {
                action: if let DeskAction::Reply(_) = action {
                    "reply"
                } else {
                    f.action.as_str()
                },
                object_kind: "ticket",
                object_id: id.to_string(),
                summary,
            };
            audit::record(&mut tx, &op.actor(), entry, now)
                .await
                .map_err(HelpError::from)?;
            tx.commit().await?;
        }
        Ok::<_, HelpError>(done)
    }
    .await;
    match done {
        Ok(Some(d)) => {
            let to = match service::send(&app.settings.mail, &d, now).await {
                Some(Err(e)) => {
                    tracing::warn!(ticket = id, error = %e, "support answer saved, email not sent");
                    "mail_failed"
                }
                _ => f.action.as_str(),
            };
            ui::see_other(&format!("{PREFIX}/support/{id}?done={to}"))
        }
        Ok(None) => {
            let shown = Shown {
                error: Some(op.t("support.changed").to_string()),
                typed: f.text.clone(),
                ..Shown::default()
            };
            render(&app, op, id, shown, StatusCode::CONFLICT).await
        }
        Err(HelpError::Invalid(_)) => {
            let shown = Shown {
                error: Some(op.t("support.error.text").to_string()),
                typed: f.text.clone(),
                ..Shown::default()
            };
            render(&app, op, id, shown, StatusCode::UNPROCESSABLE_ENTITY).await
        }
        Err(HelpError::NotFound) => ui::not_found(op),
        Err(HelpError::Storage(e)) => ui::db_error(e),
        Err(e) => {
            tracing::error!(ticket = id, error = %e, "support desk action failed");
            ui::message_page(
                op.lang(),
                Some(op),
                StatusCode::INTERNAL_SERVER_ERROR,
                op.t("form.errors"),
            )
        }
    }
}

pub async fn download(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path((id, file)): Path<(i64, i64)>,
) -> Response {
    if let Err(r) = op.require(Permission::AnswerTickets) {
        return r;
    }
    match store::ticket_attachment(&app.state.db, id, file).await {
        Ok(Some((name, bytes))) => {
            crate::web::download::attachment(&name, "application/octet-stream", bytes)
        }
        Ok(None) => ui::not_found(&op),
        Err(e) => ui::db_error(e),
    }
}
