//! Social sign-in's protocol, the part the REST calls (`rest::auth::social`) and the forms
//! without scripts (`forms::social`) share: starting an authorization request and taking a
//! provider's answer. The providers' configuration and the OpenID Connect exchange are in
//! `oidc`.
pub mod oidc;

use app::auth::error::AuthError;
use app::auth::social::rules::{LoginCode, Provider};
use app::auth::social::service::{self, SocialOutcome};
use app::context::RequestCtx;

use crate::middleware::SessionInfo;
use crate::state::AppCtx;
use crate::web::session::link_base;

pub const CALLBACK: &str = "/gr/authentication/social/callback";

/// Why a start or an answer failed: a login code of spec 000 §4 (8, 11), or the store.
#[derive(Debug)]
pub enum SocialError {
    Code(LoginCode),
    Auth(AuthError),
}

impl From<AuthError> for SocialError {
    fn from(e: AuthError) -> SocialError {
        SocialError::Auth(e)
    }
}

impl SocialError {
    /// The message a sign-in page shows for it.
    pub fn message_key(&self) -> &'static str {
        match self {
            SocialError::Code(code) => code.message_key(),
            SocialError::Auth(e) => e.message_key(),
        }
    }
}

fn code_error(code: LoginCode) -> SocialError {
    SocialError::Code(code)
}

/// The redirect URI registered with every provider, on the site's public origin.
pub fn redirect_uri(ctx: &RequestCtx, site_id: u16) -> String {
    format!("{}{CALLBACK}", link_base(ctx, site_id))
}

/// What an authorization request is for.
pub(crate) enum Purpose {
    /// Signing in (or registering), with the share link's sponsor if any.
    SignIn(Box<service::Sponsor>),
    /// The signed-in member proving it is them before a sensitive change (review N1): the
    /// provider is asked to check the person again.
    Reauth(i64),
}

/// Starts an authorization request; the provider's URL to send the visitor to.
pub(crate) async fn begin(
    app: &AppCtx,
    ctx: &RequestCtx,
    session: &SessionInfo,
    client: &str,
    provider: &str,
    return_url: Option<&str>,
    purpose: Purpose,
) -> Result<String, SocialError> {
    let Some(cfg) = Provider::from_slug(provider).and_then(|p| app.config.social.get(p)) else {
        return Err(code_error(LoginCode::InvalidSocialPlugin));
    };
    let (sponsor, reauth_member_id) = match purpose {
        Purpose::SignIn(s) => (*s, 0),
        Purpose::Reauth(member_id) => (service::Sponsor::default(), member_id),
    };
    let fresh_check = reauth_member_id != 0;
    let a = oidc::authorize(
        &app.config.social,
        cfg,
        &redirect_uri(ctx, ctx.site_id),
        fresh_check,
    )
    .await
    .map_err(|e| {
        tracing::warn!(provider, error = %e, "social sign-in cannot start");
        code_error(LoginCode::ThirdPartyFailed)
    })?;
    service::start(
        &app.state,
        &service::Start {
            provider: cfg.provider,
            site_id: ctx.site_id,
            state: &a.state,
            nonce: &a.nonce,
            pkce_verifier: &a.pkce_verifier,
            return_url,
            binding: &session.binding,
            sponsor,
            client,
            reauth_member_id,
        },
        app::platform::state::now(),
    )
    .await?;
    Ok(a.url)
}

/// Third-party validate from a callback's `code` and `state`: the request is taken (once),
/// the code exchanged with its PKCE verifier, the ID token verified; then the identity
/// signs in or leads to code 12 or 13. Any failure of the protocol is code 11.
pub(crate) async fn validate(
    app: &AppCtx,
    ctx: &RequestCtx,
    session: &SessionInfo,
    client: &str,
    code: &str,
    state: &str,
) -> Result<SocialOutcome, SocialError> {
    let now = app::platform::state::now();
    let failed = |why: &str| {
        tracing::warn!(why, "third-party authentication failed");
        let mut out = empty(LoginCode::ThirdPartyFailed);
        out.redirect_url = "/".into();
        Ok(out)
    };
    let Some(started) = service::take_state(&app.state, state, &session.binding, now).await? else {
        return failed("unknown, used, expired or foreign state");
    };
    let Some(cfg) = app.config.social.get(started.provider) else {
        return Ok(empty(LoginCode::InvalidSocialPlugin));
    };
    let uri = redirect_uri(ctx, started.site_id);
    match oidc::finish(
        &app.config.social,
        cfg,
        &uri,
        code,
        &started.pkce_verifier,
        &started.nonce,
    )
    .await
    {
        Ok(identity) if started.reauth_member_id != 0 => Ok(service::reauthenticate(
            &app.state,
            &started,
            &identity,
            session.member.as_ref(),
            now,
        )
        .await?),
        Ok(identity) => {
            Ok(service::third_party_validate(&app.state, client, &started, &identity, now).await?)
        }
        // A re-authentication goes back to its form, which says it failed.
        Err(e) if started.reauth_member_id != 0 => {
            tracing::warn!(why = %e, "re-authentication failed");
            Ok(SocialOutcome {
                reauth: Some(false),
                ..SocialOutcome::refused(LoginCode::ThirdPartyFailed, &started.return_url)
            })
        }
        Err(e) => failed(&e),
    }
}

fn empty(code: LoginCode) -> SocialOutcome {
    SocialOutcome {
        code,
        token: None,
        ticket: None,
        redirect_url: "/".into(),
        pending: None,
        reauth: None,
    }
}
