//! The rose-deals forms without scripts (Post/Redirect/Get, multipart as the REST calls):
//! the refund and the retry of an order's vouchers, and the contact message with its
//! attachments. The same service calls as `rest::rosedeals`; the answer is a redirect to
//! the next page (`refund-result`, `ongoing`, `mail`) or back to the form with `?error=`
//! (and `?notice=`): keys the pages know (`app::rosedeals::ui::known_message`).
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::response::Response;
use axum::Extension;

use app::context::RequestCtx;
use app::model::error::WireError;
use app::rosedeals::error::DealsError;
use app::rosedeals::model::{ContactMessage, DealAddress, RefundForm, RetryForm};
use app::rosedeals::service;

use super::check_xsrf;
use super::extract::{check_before_body, BeforeBody};
use super::outcome::FormOutcome;
use crate::middleware::{self, SessionInfo};
use crate::state::AppCtx;
use crate::web::client::Client;
use crate::web::extract::Path;
use crate::web::multipart::{read_parts, Parts};

pub const REFUND: &str = "/rosedeals/forms/refund/{basket_id}";
pub const RETRY: &str = "/rosedeals/forms/retry/{basket_id}";
pub const CONTACT: &str = "/rosedeals/forms/contact";

/// The address of a form's separate fields (the REST calls take it as one JSON part).
fn address(p: &Parts) -> DealAddress {
    let v = |n: &str| p.text(n).unwrap_or("").trim().to_string();
    DealAddress {
        city: v("city"),
        country: v("country"),
        details: v("details"),
        first_name: v("firstName"),
        last_name: v("lastName"),
        zip_code: v("zipCode"),
        extras: v("extras"),
    }
}

/// The message key a refused post shows (the server's own failures: the generic one).
fn key_of(e: &DealsError) -> &'static str {
    if let Some(cause) = match e {
        DealsError::Storage(c) => Some(c.to_string()),
        DealsError::Wallet(c) => Some(c.clone()),
        _ => None,
    } {
        tracing::error!(error = %cause, "rosedeals form failed");
    }
    e.message_key()
}

/// Reads the multipart body, checks its `_xsrf` part and the signed-in member; `Ok`: the
/// parts and the member's id, `Err`: the answer to give.
async fn read(
    app: &AppCtx,
    session: &SessionInfo,
    req: Request,
    file_field: &str,
    back: &str,
) -> Result<(Parts, i64), FormOutcome> {
    let headers = req.headers().clone();
    match check_before_body(app, session, &headers) {
        Ok(_) => {}
        Err(BeforeBody::SignIn) => {
            return Err(FormOutcome::away(app::routes::login_redirect(back)))
        }
        Err(BeforeBody::Forbidden) => return Err(FormOutcome::made(middleware::forbidden_csrf())),
    }
    let parts = match read_parts(req, file_field).await {
        Ok(p) => p,
        Err(e) => {
            return Err(FormOutcome::error(back, key_of(&e)));
        }
    };
    check_xsrf(app, session, &headers, parts.text("_xsrf").unwrap_or(""))
        .map_err(FormOutcome::made)?;
    match &session.member {
        Some(m) => Ok((parts, m.member_id)),
        None => Err(FormOutcome::away(app::routes::login_redirect(back))),
    }
}

pub async fn refund_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    Path(basket_id): Path<i64>,
    req: Request,
) -> Response {
    let back = format!("/rosedeals/refund?basketId={basket_id}");
    let parts = match read(&app, &session, req, "", &back).await {
        Ok((p, _)) => p,
        Err(answer) => return answer.respond(&app, &ctx),
    };
    let Some(member) = session.member.as_ref() else {
        return FormOutcome::away(app::routes::login_redirect(&back)).respond(&app, &ctx);
    };
    let form = RefundForm {
        address: address(&parts),
        content: parts.text("content").unwrap_or("").to_string(),
        iban: parts.text("iban").unwrap_or("").to_string(),
        is_suspended: parts.flag("isSuspended"),
        store_iban: parts.flag("storeIban"),
        current_password: parts.text("currentPassword").unwrap_or("").to_string(),
    };
    let now = app::platform::state::now();
    let db = &app.state.db;
    let base = crate::web::session::link_base(&ctx, ctx.site_id);
    let mailer = app.mailer(&base);
    let proof = app.proof(&client, member, &form.current_password);
    match service::refund(
        db,
        &app.settings.wallet_key,
        &mailer,
        &proof,
        basket_id,
        &form,
        now,
    )
    .await
    {
        Ok(_) => FormOutcome::to(format!("/rosedeals/refund-result?basketId={basket_id}"))
            .respond(&app, &ctx),
        Err(DealsError::NotFound) => {
            FormOutcome::to("/rosedeals/ongoing?error=errors.not_found").respond(&app, &ctx)
        }
        Err(e) => {
            let field = match &e {
                DealsError::InvalidIban(_) | DealsError::NoIban => "&field=iban",
                DealsError::Reauth(r) if r.field_error().is_some() => "&field=currentPassword",
                _ => "",
            };
            // Without scripts the page comes back filled from the draft cookie (the
            // password aside); with them the enhancement script keeps the fields.
            let draft = app::rosedeals::ui::draft::Draft {
                address: form.address,
                iban: form.iban,
                content: form.content,
                store_iban: form.store_iban,
                is_suspended: form.is_suspended,
            };
            let page = format!("{back}&form=refund&error={}{field}", key_of(&e));
            FormOutcome::retry(&page, &draft).respond(&app, &ctx)
        }
    }
}

pub async fn retry_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Path(basket_id): Path<i64>,
    req: Request,
) -> Response {
    let back = format!("/rosedeals/refund?basketId={basket_id}");
    let (parts, member_id) = match read(&app, &session, req, "", &back).await {
        Ok(p) => p,
        Err(answer) => return answer.respond(&app, &ctx),
    };
    let form = RetryForm {
        address: address(&parts),
        content: parts.text("content").unwrap_or("").to_string(),
        vouchers: parts.all("vouchers"),
    };
    let now = app::platform::state::now();
    match service::retry(&app.state.db, member_id, basket_id, &form, now).await {
        // The lists from page 1 again (spec 001 §4: a retry or a refund reloads both).
        Ok(_) => {
            FormOutcome::to("/rosedeals/ongoing?notice=rosedeals.retry.done").respond(&app, &ctx)
        }
        Err(DealsError::NotFound) => {
            FormOutcome::to("/rosedeals/ongoing?error=errors.not_found").respond(&app, &ctx)
        }
        Err(e) => {
            FormOutcome::to(format!("{back}&form=retry&error={}", key_of(&e))).respond(&app, &ctx)
        }
    }
}

pub async fn contact_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    req: Request,
) -> Response {
    let back = "/rosedeals/contact-form";
    let (mut parts, member_id) = match read(&app, &session, req, "attachments", back).await {
        Ok(p) => p,
        Err(answer) => return answer.respond(&app, &ctx),
    };
    // A file input left empty still sends one nameless, empty part.
    parts
        .files
        .retain(|f| !(f.bytes.is_empty() && (f.name.is_empty() || f.name == "file")));
    let address = address(&parts);
    let named = !address.first_name.is_empty() || !address.last_name.is_empty();
    let msg = ContactMessage {
        subject: parts.text("subject").unwrap_or("").trim().to_string(),
        message: parts.text("message").unwrap_or("").trim().to_string(),
        vouchers: parts.all("vouchers"),
        address: named.then_some(address),
    };
    let now = app::platform::state::now();
    let db = &app.state.db;
    let sent = match service::send_message(db, member_id, &msg, now).await {
        Ok(sent) => sent,
        Err(e) => {
            if matches!(e, DealsError::MissingValues) {
                tracing::warn!("send message error: Missing values");
            }
            return FormOutcome::to(format!("{back}?error={}", key_of(&e))).respond(&app, &ctx);
        }
    };
    if !parts.files.is_empty() {
        let who = app.uploader(&client);
        let attached = service::attach(db, who, member_id, &sent.request_id, &parts.files, now);
        if let Err(e) = attached.await {
            let key = key_of(&e);
            return FormOutcome::to(format!("{back}?notice=rosedeals.contact.sent&error={key}"))
                .respond(&app, &ctx);
        }
        return FormOutcome::to("/rosedeals/mail?notice=rosedeals.contact.attached")
            .respond(&app, &ctx);
    }
    FormOutcome::to("/rosedeals/mail").respond(&app, &ctx)
}
