//! Social sign-in without scripts: the provider buttons' POST (to the provider), the
//! provider's callback, the association (code 12) and registration (code 13) steps, and
//! the account's unlink form. Post/Redirect/Get with localized messages, CSRF on every
//! form; the callback is protected by its single-use `state` bound to the visitor.
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::response::Response;
use axum::{Extension, Form};
use serde::Deserialize;

use app::auth::attribution::Attribution;
use app::auth::social::rules::{LoginCode, Provider};
use app::auth::social::service::{self, SocialOutcome, SocialSubscribe, Unlink};
use app::context::RequestCtx;
use app::routes::encode_query_value;

use super::extract::XsrfForm;
use super::outcome::{see_other, with_param};
use crate::middleware::SessionInfo;
use crate::state::AppCtx;
use crate::web::client::Client;
use crate::web::session::{site_suffix, with_new_session};
use crate::web::social::{begin, validate, Purpose, CALLBACK};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct StartForm {
    provider: String,
    returnurl: String,
    /// The share link's sponsor, carried to the registration (code 13).
    mgmcode: String,
    godfatherid: String,
    /// Where the visitor came from (`app::auth::attribution`), recorded if they register.
    utm_campaign: String,
    utm_content: String,
    utm_medium: String,
    utm_source: String,
    utm_term: String,
    formid: String,
    godfathertype: String,
    opendoor: String,
    partnerid: String,
}

/// "Continue with …": the request's secrets are stored, the visitor goes to the provider.
pub async fn start_form(
    Client(client): Client,
    partners: crate::middleware::partner::PartnerCookies,
    form: XsrfForm<StartForm>,
) -> Response {
    let (app, ctx, session, f) = (&*form.app, &form.ctx, &form.session, &form.fields);
    let source = Attribution::from_pairs([
        ("utm_campaign", f.utm_campaign.as_str()),
        ("utm_content", &f.utm_content),
        ("utm_medium", &f.utm_medium),
        ("utm_source", &f.utm_source),
        ("utm_term", &f.utm_term),
        ("formid", &f.formid),
        ("godfathertype", &f.godfathertype),
        ("opendoor", &f.opendoor),
        ("partnerid", &f.partnerid),
    ])
    .with_from_partner(partners.from_partner.as_deref());
    let sponsor = service::Sponsor::new(&f.mgmcode, &f.godfatherid).with_source(source);
    let started = begin(
        app,
        ctx,
        session,
        &client,
        &f.provider,
        Some(&f.returnurl),
        Purpose::SignIn(Box::new(sponsor)),
    );
    match started.await {
        Ok(url) => see_other(&url),
        Err(e) => sign_in_page(ctx, "", &format!("&error={}", e.message_key())),
    }
}

fn sign_in_page(ctx: &RequestCtx, step: &str, extra: &str) -> Response {
    let s = site_suffix(ctx, ctx.site_id);
    let step = if step.is_empty() {
        String::new()
    } else {
        format!("step={step}&")
    };
    see_other(&format!(
        "/gr/authentication?{step}{}{s}",
        extra.trim_start_matches('&')
    ))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Callback {
    code: String,
    state: String,
    error: String,
}

/// Where an outcome sends the visitor (with the new session on success).
async fn follow(
    app: &AppCtx,
    ctx: &RequestCtx,
    session: &SessionInfo,
    out: SocialOutcome,
) -> Response {
    let ticket = out
        .ticket
        .as_deref()
        .map(encode_query_value)
        .unwrap_or_default();
    let s = site_suffix(ctx, ctx.site_id);
    match out.reauth {
        Some(true) => {
            return see_other(&with_param(
                &out.redirect_url,
                "notice",
                "reauth.social.fresh",
            ))
        }
        Some(false) => {
            return see_other(&with_param(
                &out.redirect_url,
                "error",
                "reauth.social.failed",
            ))
        }
        None => {}
    }
    match out.code {
        LoginCode::Success => match out.token {
            Some(t) => {
                with_new_session(
                    app,
                    session.token.as_deref(),
                    &t,
                    false,
                    see_other(&out.redirect_url),
                )
                .await
            }
            None => sign_in_page(ctx, "", "error=auth.social.code.11"),
        },
        LoginCode::EmailMatchNoAssociation if out.pending.is_some() => see_other(&format!(
            "/gr/authentication?step=associate&ticket={ticket}&info=auth.social.code.12{s}"
        )),
        LoginCode::NoAssociationNoEmail => see_other(&format!(
            "/gr/registration?step=socialregister&ticket={ticket}&info=auth.social.code.13{s}"
        )),
        code => sign_in_page(ctx, "", &format!("error={}", code.message_key())),
    }
}

/// The provider's redirect back (authorization code flow).
pub async fn callback(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    Query(q): Query<Callback>,
) -> Response {
    if !q.error.is_empty() || q.code.is_empty() || q.state.is_empty() {
        // The member cancelled at the provider, or the provider refused: the request ends.
        if !q.state.is_empty() {
            let now = app::platform::state::now();
            let _ = service::take_state(&app.state, &q.state, &session.binding, now).await;
        }
        return sign_in_page(&ctx, "", "error=auth.social.code.11");
    }
    match validate(&app, &ctx, &session, &client, &q.code, &q.state).await {
        Ok(out) => follow(&app, &ctx, &session, out).await,
        Err(e) => {
            tracing::error!(error = ?e, "third-party validate failed");
            sign_in_page(&ctx, "", "error=errors.general_retry.notification")
        }
    }
}

/// Apple answers with a cross-site form post, which carries no `SameSite=Lax` cookie: it
/// becomes a GET of the callback, where the visitor's cookies (and so the `state`'s
/// binding) are there again. Nothing changes here.
pub async fn callback_post(Form(q): Form<Callback>) -> Response {
    see_other(&format!(
        "{CALLBACK}?code={}&state={}&error={}",
        encode_query_value(&q.code),
        encode_query_value(&q.state),
        encode_query_value(&q.error)
    ))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AssociateForm {
    ticket: String,
    password: String,
}

/// Code 12: the account's password links the provider and signs in.
pub async fn associate_form(Client(client): Client, form: XsrfForm<AssociateForm>) -> Response {
    let (app, ctx, session, f) = (&*form.app, &form.ctx, &form.session, &form.fields);
    let now = app::platform::state::now();
    let ticket_q = encode_query_value(f.ticket.trim());
    match service::associate(
        &app.state,
        app.sign_in(),
        &client,
        ctx.site_id,
        service::HeldTicket {
            ticket: &f.ticket,
            binding: &session.binding,
        },
        &f.password,
        now,
    )
    .await
    {
        Ok(out) if out.code == LoginCode::Success => follow(app, ctx, session, out).await,
        Ok(out) if out.ticket.is_some() => sign_in_page(
            ctx,
            "associate",
            &format!("ticket={ticket_q}&error={}", out.code.message_key()),
        ),
        Ok(out) => sign_in_page(ctx, "", &format!("error={}", out.code.message_key())),
        Err(e) => sign_in_page(
            ctx,
            "associate",
            &format!("ticket={ticket_q}&error={}", e.message_key()),
        ),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RegisterForm {
    ticket: String,
    civility: Option<u8>,
    #[serde(rename = "firstName")]
    first_name: String,
    #[serde(rename = "lastName")]
    last_name: String,
    cgv: Option<String>,
    #[serde(rename = "privacyPolicy")]
    privacy_policy: Option<String>,
    #[serde(rename = "optinPartner")]
    optin_partner: Option<String>,
    #[serde(rename = "sponsorshipCode")]
    sponsorship_code: String,
    godfatherid: String,
}

/// Code 13: the third-party registration (registration type association 1).
pub async fn register_form(Client(client): Client, form: XsrfForm<RegisterForm>) -> Response {
    let (app, ctx, session, f) = (&*form.app, &form.ctx, &form.session, &form.fields);
    let form = SocialSubscribe {
        civility: f.civility,
        first_name: f.first_name.clone(),
        last_name: f.last_name.clone(),
        cgv: f.cgv.is_some(),
        privacy_policy: f.privacy_policy.is_some(),
        optin_partner: f.optin_partner.is_some(),
        sponsorship_code: f.sponsorship_code.clone(),
        godfather_id: f.godfatherid.clone(),
    };
    let now = app::platform::state::now();
    let s = site_suffix(ctx, ctx.site_id);
    let again = |key: &str| {
        see_other(&format!(
            "/gr/registration?step=socialregister&ticket={}&error={key}{s}",
            encode_query_value(f.ticket.trim())
        ))
    };
    let held = service::HeldTicket {
        ticket: &f.ticket,
        binding: &session.binding,
    };
    match service::subscribe_third_party(&app.state, &client, ctx.site_id, held, &form, now).await {
        Ok(out) => follow(app, ctx, session, out).await,
        Err(app::auth::error::AuthError::Invalid(errs)) if !errs.is_empty() => {
            again(&errs[0].message_key)
        }
        Err(e) => again(e.message_key()),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct UnlinkForm {
    provider: String,
}

const PERSONAL_DATA: &str = "/myaccount/memberdata";

/// The account page's unlink button.
pub async fn unlink_form(Client(client): Client, form: XsrfForm<UnlinkForm>) -> Response {
    let (app, ctx, session, f) = (&*form.app, &form.ctx, &form.session, &form.fields);
    let Some(member) = session.member.as_ref() else {
        return sign_in_page(
            ctx,
            "",
            &format!("returnurl={}", encode_query_value(PERSONAL_DATA)),
        );
    };
    let s = site_suffix(ctx, ctx.site_id);
    let key = match Provider::from_slug(&f.provider) {
        None => "auth.social.unlink.unknown",
        Some(p) => match service::unlink(
            &app.state,
            &client,
            ctx.site_id,
            member.member_id,
            p,
            app::platform::state::now(),
        )
        .await
        {
            Ok(Unlink::Done) => "auth.social.unlink.done",
            Ok(Unlink::NotLinked) => "auth.social.unlink.unknown",
            Ok(Unlink::LastWayIn) => "auth.social.unlink.last",
            Err(e) => {
                tracing::error!(error = %e, "unlink failed");
                "errors.general_retry.notification"
            }
        },
    };
    see_other(&format!("{PERSONAL_DATA}?social={key}{s}"))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ReauthForm {
    provider: String,
    returnurl: String,
}

/// "Sign in again with …" beside a sensitive form (review N1): the signed-in member goes to
/// a provider linked to their account, which checks them again; back on `returnurl`, the
/// session may make the change for 5 minutes.
pub async fn reauth_form(Client(client): Client, form: XsrfForm<ReauthForm>) -> Response {
    let (app, ctx, session, f) = (&*form.app, &form.ctx, &form.session, &form.fields);
    let back = app::auth::rules::safe_return_url(Some(&f.returnurl));
    let Some(member) = session.member.as_ref() else {
        return sign_in_page(ctx, "", &format!("returnurl={}", encode_query_value(&back)));
    };
    let linked = match Provider::from_slug(&f.provider) {
        Some(p) => service::links(&app.state, member.member_id)
            .await
            .map(|l| l.iter().any(|(linked, _, _)| *linked == p)),
        None => Ok(false),
    };
    if !matches!(linked, Ok(true)) {
        return see_other(&with_param(&back, "error", "reauth.social.failed"));
    }
    let purpose = Purpose::Reauth(member.member_id);
    match begin(
        app,
        ctx,
        session,
        &client,
        &f.provider,
        Some(&back),
        purpose,
    )
    .await
    {
        Ok(url) => see_other(&url),
        Err(e) => {
            tracing::warn!(error = ?e, "re-authentication cannot start");
            see_other(&with_param(&back, "error", "reauth.social.failed"))
        }
    }
}
