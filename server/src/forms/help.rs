//! The help pages' forms without scripts (Post/Redirect/Get): the contact form (answer
//! first, then a ticket when no article answers and the site takes tickets), the rating
//! of an answer, a member's reply in a thread, a chat message.
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::response::Response;
use axum::Extension;
use serde::Deserialize;

use app::context::RequestCtx;
use app::help::error::HelpError;
use app::help::model::{ChatRequest, ContactRequest};
use app::help::rules::{self, NextStep};
use app::help::{config, service};
use app::model::error::WireError;

use super::check_xsrf;
use super::extract::{check_before_body, BeforeBody, XsrfForm};
use super::outcome::FormOutcome;
use crate::middleware::{self, SessionInfo};
use crate::state::AppCtx;
use crate::web::client::Client;

const FORM: &str = "/helpform";
const CENTRE: &str = "/my-notifications";

/// The multipart form's answer (the small forms answer through their `XsrfForm`).
fn to(app: &AppCtx, ctx: &RequestCtx, page: &str) -> Response {
    FormOutcome::to(page).respond(app, ctx)
}

fn enc(s: &str) -> String {
    app::routes::encode_query_value(s)
}

/// Back to the form: the subject, order and sale in the address, the message in its
/// draft (`?retry=1`), each field's error named.
fn form_error(app: &AppCtx, ctx: &RequestCtx, req: &ContactRequest, e: &HelpError) -> Response {
    let (reason, sub) = req
        .subject_id
        .split_once('.')
        .unwrap_or((req.subject_id.as_str(), ""));
    let fields = e
        .field_errors()
        .map(|f| {
            f.iter()
                .map(|f| f.field.clone())
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default();
    let mut q = format!(
        "{FORM}?error={}&reason={}&sub={}&fields={}",
        e.message_key(),
        app::routes::encode_query_value(reason),
        app::routes::encode_query_value(sub),
        app::routes::encode_query_value(&fields)
    );
    if let Some(o) = req.order_id {
        q.push_str(&format!("&order={o}"));
    }
    // The sale chosen comes back chosen, when it is a sale id at all.
    if let Some(sale) = req.operation_code.as_deref().and_then(rules::sale_id_of) {
        q.push_str(&format!("&sale={sale}"));
    }
    let draft = app::help::ui::draft::Draft {
        body: req.body.clone(),
    };
    FormOutcome::retry(&q, &draft).respond(app, ctx)
}

pub async fn send_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    req: Request,
) -> Response {
    let headers = req.headers().clone();
    match check_before_body(&app, &session, &headers) {
        Ok(_) => {}
        Err(BeforeBody::SignIn) => return middleware::redirect(&app::routes::login_redirect(FORM)),
        Err(BeforeBody::Forbidden) => return middleware::forbidden_csrf(),
    }
    let (mut request, files, fields) = match crate::web::multipart::help::read_contact(req).await {
        Ok(parts) => parts,
        Err(e) => return to(&app, &ctx, &format!("{FORM}?error={}", e.message_key())),
    };
    let token = fields.get("_xsrf").cloned().unwrap_or_default();
    if let Err(refused) = check_xsrf(&app, &session, &headers, &token) {
        return refused;
    }
    let Some(m) = &session.member else {
        return middleware::redirect(&app::routes::login_redirect(FORM));
    };
    // The page's two selects become the spec's subject.
    let reason = fields.get("reason").cloned().unwrap_or_default();
    let sub = fields.get("subReason").cloned().unwrap_or_default();
    if request.subject_id.is_empty() {
        request.subject_id = if sub.is_empty() {
            reason.clone()
        } else {
            format!("{reason}.{sub}")
        };
    }
    if request.subject_title.is_empty() {
        let lang = ctx.lang();
        let mut title = app::site::i18n::t(lang, &format!("help.reason.{reason}"));
        if !sub.is_empty() {
            title = format!(
                "{title} – {}",
                app::site::i18n::t(lang, &format!("help.subreason.{sub}"))
            );
        }
        request.subject_title = title;
    }
    if request.contact_from.is_empty() {
        request.contact_from = "Front".into();
    }
    let db = &app.state.db;
    let now = app::platform::state::now();
    let answerer = app.help.current();
    // The control of the `member_contact_form` holdback gets no automatic answer.
    let answers = middleware::experiments::for_member_action(&app, &headers, m.member_id)
        .on(app::model::experiments::Feature::ContactForm);
    let answerer: &dyn app::help::answer::Answerer = if answers {
        answerer.as_ref()
    } else {
        &app::help::answer::NoAnswers
    };
    let who = app.uploader(&client);
    let answered = match service::answer(
        db,
        who,
        answerer,
        ctx.site_id,
        m.member_id,
        &request,
        &files,
        now,
    )
    .await
    {
        Ok(a) => a.answer,
        Err(e) => return form_error(&app, &ctx, &request, &e),
    };
    let config = config::for_site(ctx.site_id);
    match rules::after_answer(
        answered.is_some(),
        config.tickets_allowed,
        !files.is_empty(),
    ) {
        NextStep::ShowAnswer => {
            let id = answered.map(|a| a.evaluation_id).unwrap_or_default();
            let (reason, sub) = (enc(&reason), enc(&sub));
            to(
                &app,
                &ctx,
                &format!("{FORM}?evaluation={id}&reason={reason}&sub={sub}"),
            )
        }
        NextStep::ShowExtraText => to(
            &app,
            &ctx,
            &format!("{FORM}?extra=1&reason={}", enc(&reason)),
        ),
        NextStep::SendTicket { .. } => {
            let sent = service::contact(db, who, ctx.site_id, m.member_id, &request, &files, now);
            match sent.await {
                Ok(r) => to(
                    &app,
                    &ctx,
                    &format!("{CENTRE}?ticket={}&notice=help.notice.sent", r.ticket_id),
                ),
                Err(e) => form_error(&app, &ctx, &request, &e),
            }
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SmallForm {
    #[serde(rename = "evaluationId")]
    evaluation_id: String,
    satisfaction: String,
    #[serde(rename = "ticketId")]
    ticket_id: i64,
    #[serde(rename = "notificationId")]
    notification_id: i64,
    body: String,
    reason: String,
    #[serde(rename = "orderId")]
    order_id: String,
    #[serde(rename = "isPastOrder")]
    is_past_order: String,
}

/// The signed-in member of a small form, or the response that sends to sign in first.
#[allow(clippy::result_large_err)]
fn member_of(form: &XsrfForm<SmallForm>, back: &str) -> Result<i64, Response> {
    form.member()
        .map(|m| m.member_id)
        .ok_or_else(|| form.sign_in_first(back))
}

pub async fn feedback_form(form: XsrfForm<SmallForm>) -> Response {
    let member_id = match member_of(&form, FORM) {
        Ok(id) => id,
        Err(res) => return res,
    };
    let (app, f) = (&*form.app, &form.fields);
    let to = |page: String| form.answer(FormOutcome::to(page));
    let now = app::platform::state::now();
    match service::feedback(
        &app.state.db,
        member_id,
        &f.evaluation_id,
        &f.satisfaction,
        now,
    )
    .await
    {
        Ok(r) => match r.ticket_id {
            Some(t) => to(format!("{CENTRE}?ticket={t}&notice=help.notice.sent")),
            // A bad rating where the site takes no tickets: the other ways to reach us.
            None if r.display_extra_text => to(format!("{FORM}?extra=1")),
            None => to(format!("{FORM}?notice=help.notice.thanks")),
        },
        Err(e) => to(format!("{FORM}?error={}", e.message_key())),
    }
}

pub async fn reply_form(form: XsrfForm<SmallForm>) -> Response {
    let member_id = match member_of(&form, CENTRE) {
        Ok(id) => id,
        Err(res) => return res,
    };
    let (app, f) = (&*form.app, &form.fields);
    let to = |page: String| form.answer(FormOutcome::to(page));
    let now = app::platform::state::now();
    let back = format!("{CENTRE}?ticket={}", f.ticket_id);
    match service::reply(&app.state.db, member_id, f.ticket_id, &f.body, now).await {
        Ok(_) => to(format!("{back}&notice=help.notice.reply_sent")),
        Err(HelpError::NotFound) => to(format!("{CENTRE}?error=errors.not_found")),
        Err(e) => to(format!("{back}&error={}", e.message_key())),
    }
}

/// "Mark as read" on an opened notification (`notificationId`) or thread (`ticketId`):
/// back to the same view, read, with the header bell's count updated. Someone else's
/// id reads nothing and comes back with "not found".
pub async fn read_form(form: XsrfForm<SmallForm>) -> Response {
    let member_id = match member_of(&form, CENTRE) {
        Ok(id) => id,
        Err(res) => return res,
    };
    let (app, f) = (&*form.app, &form.fields);
    let to = |page: String| form.answer(FormOutcome::to(page));
    let now = app::platform::state::now();
    let (done, back) = if f.notification_id > 0 {
        (
            service::mark_read(&app.state.db, member_id, f.notification_id, now).await,
            format!("{CENTRE}?notification={}", f.notification_id),
        )
    } else {
        (
            service::mark_ticket_read(&app.state.db, member_id, f.ticket_id, now).await,
            format!("{CENTRE}?ticket={}", f.ticket_id),
        )
    };
    match done {
        Ok(_) => to(format!("{back}&notice=help.notice.read")),
        Err(HelpError::NotFound) => to(format!("{CENTRE}?error=errors.not_found")),
        Err(e) => to(format!("{CENTRE}?error={}", e.message_key())),
    }
}

pub async fn chat_form(form: XsrfForm<SmallForm>) -> Response {
    let member_id = match member_of(&form, "/chat") {
        Ok(id) => id,
        Err(res) => return res,
    };
    let (app, ctx, f) = (&*form.app, &form.ctx, &form.fields);
    let to = |page: String| form.answer(FormOutcome::to(page));
    let order_id = f.order_id.trim().parse::<i64>().ok();
    let past = f.is_past_order == "true";
    let back = rules::chat_link(&f.reason, order_id.map(|o| (o, past)));
    let req = ChatRequest {
        reason: f.reason.clone(),
        order_id,
        body: f.body.clone(),
    };
    let now = app::platform::state::now();
    match service::chat(&app.state.db, ctx.site_id, member_id, &req, now).await {
        Ok(_) => to(format!("{back}&notice=help.notice.chat_sent")),
        Err(e) => to(format!("{back}&error={}", e.message_key())),
    }
}
