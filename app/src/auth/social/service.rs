//! Social sign-in operations: start (the request's secrets kept server-side), third-party
//! validate, associate account (code 12), subscribe third party (code 13), unlink.
use super::rules::{self, IdentityFacts, LoginCode, Provider};
pub use super::store::HeldTicket;
pub use super::store::Sponsor;
use super::store::{self, LoginState, NewState, Pending};
use crate::auth::error::AuthError;
use crate::auth::rules::{is_valid_name, safe_return_url, LoginResult};
use crate::auth::service::{login, normalize_email, SignIn};
use crate::auth::store as auth_store;
use crate::model::auth::LoginRequest;
use crate::platform::session;
use crate::platform::state::AppState;

pub use store::LoginState as StartedLogin;

/// The claims of a verified ID token that matter here.
#[derive(Clone, Debug, Default)]
pub struct Identity {
    pub subject: String,
    pub email: Option<String>,
    pub email_verified: bool,
    pub given_name: String,
    pub family_name: String,
    /// When the provider last checked the person (`auth_time`), if it says.
    pub auth_time: Option<i64>,
}

/// A new authorization request's secrets, kept until its callback (single use).
pub struct Start<'a> {
    pub provider: Provider,
    pub site_id: u16,
    pub state: &'a str,
    pub nonce: &'a str,
    pub pkce_verifier: &'a str,
    pub return_url: Option<&'a str>,
    /// What the visitor's CSRF tokens are bound to: the callback must come from them.
    pub binding: &'a str,
    /// The share link's sponsor, if the visitor came by one.
    pub sponsor: Sponsor,
    /// The client (address) starting it, for the starts' rate limit.
    pub client: &'a str,
    /// A re-authentication of this signed-in member (review N1), or 0 for a sign-in.
    pub reauth_member_id: i64,
}

pub async fn start(app: &AppState, s: &Start<'_>, now: i64) -> Result<(), AuthError> {
    crate::auth::service::throttle(
        app,
        &format!("social-start:{}", s.client),
        rules::STARTS_PER_WINDOW,
        rules::STARTS_WINDOW_SECS,
        now,
    )
    .await?;
    let return_url = safe_return_url(s.return_url);
    store::insert_state(
        &app.db,
        &NewState {
            state: s.state,
            binding: s.binding,
            provider: s.provider,
            site_id: s.site_id,
            nonce: s.nonce,
            pkce_verifier: s.pkce_verifier,
            return_url: &return_url,
            sponsor: &s.sponsor,
            expires_at: now + rules::STATE_TTL_SECS,
            reauth_member_id: s.reauth_member_id,
        },
        now,
    )
    .await?;
    Ok(())
}

/// The request a callback's `state` names, once; `None` is code 11 for the caller.
pub async fn take_state(
    app: &AppState,
    state: &str,
    binding: &str,
    now: i64,
) -> Result<Option<LoginState>, AuthError> {
    Ok(store::take_state(&app.db, state, binding, now).await?)
}

/// What a third-party step leads to.
#[derive(Clone, Debug)]
pub struct SocialOutcome {
    pub code: LoginCode,
    /// New session token (code 1): the caller sets the cookie.
    pub token: Option<String>,
    /// For codes 12 and 13: the ticket of the next step.
    pub ticket: Option<String>,
    pub redirect_url: String,
    pub pending: Option<Pending>,
    /// For a re-authentication (review N1), whether it went through (the session is then
    /// fresh; nobody new is signed in); `None` for a sign-in.
    pub reauth: Option<bool>,
}

impl SocialOutcome {
    pub fn refused(code: LoginCode, return_url: &str) -> SocialOutcome {
        SocialOutcome {
            code,
            token: None,
            ticket: None,
            redirect_url: return_url.to_string(),
            pending: None,
            reauth: None,
        }
    }
}

/// How long ago the provider may have checked the person for a re-authentication: the
/// request asks for a new check (`prompt=login`, `max_age=0`); this allows for the time
/// the member took at the provider and for clocks a little apart.
pub const REAUTH_MAX_AGE_SECS: i64 = 300;

/// A provider's answer to a re-authentication request: it counts only for the member who
/// asked, still signed in in this browser (`session`: their session's member and token
/// hash), with the provider's account linked to theirs and a check made just now. Then
/// this session counts as freshly authenticated for `reauth::WINDOW_SECS`.
pub async fn reauthenticate(
    app: &AppState,
    started: &LoginState,
    id: &Identity,
    session: Option<&session::SessionMember>,
    now: i64,
) -> Result<SocialOutcome, AuthError> {
    let refused = SocialOutcome {
        reauth: Some(false),
        ..SocialOutcome::refused(LoginCode::ThirdPartyFailed, &started.return_url)
    };
    let Some(member) = session.filter(|m| m.member_id == started.reauth_member_id) else {
        tracing::warn!("re-authentication answered in another session");
        return Ok(refused);
    };
    let linked =
        store::linked_member(&app.db, started.site_id, started.provider, &id.subject).await?;
    if linked != Some(member.member_id) {
        tracing::warn!(
            member_id = member.member_id,
            "re-authentication by another provider account"
        );
        return Ok(refused);
    }
    let checked_now = id
        .auth_time
        .is_some_and(|t| t <= now + 60 && now - t <= REAUTH_MAX_AGE_SECS);
    if !checked_now {
        tracing::warn!(member_id = member.member_id, auth_time = ?id.auth_time, "re-authentication without a fresh check");
        return Ok(refused);
    }
    crate::auth::reauth::stamp(&app.db, &member.token_hash, now).await?;
    auth_store::event(
        &app.db,
        started.site_id,
        Some(member.member_id),
        "reauthenticated",
        "",
        started.provider.slug(),
        now,
    )
    .await;
    Ok(SocialOutcome {
        code: LoginCode::Success,
        reauth: Some(true),
        ..refused
    })
}

/// Third-party validate: the verified identity signs in, or leads to code 12 or 13.
pub async fn third_party_validate(
    app: &AppState,
    client: &str,
    started: &LoginState,
    id: &Identity,
    now: i64,
) -> Result<SocialOutcome, AuthError> {
    let site = started.site_id;
    let email = id.email.as_deref().map(normalize_email).unwrap_or_default();
    let linked = match store::linked_member(&app.db, site, started.provider, &id.subject).await? {
        Some(member_id) => Some(
            auth_store::member_by_id(&app.db, member_id)
                .await?
                .map(|m| (m.id, m.status)),
        ),
        None => None,
    };
    let email_member = if email.is_empty() {
        None
    } else {
        auth_store::member_by_email(&app.db, site, &email).await?
    };
    let code = rules::third_party_outcome(IdentityFacts {
        // A link to a row that is gone counts as an erased account.
        linked: linked.map(|l| {
            l.map(|(_, s)| s)
                .unwrap_or(crate::auth::rules::MemberStatus::Erased)
        }),
        email_member: email_member.is_some(),
        verified_email: id.email_verified && !email.is_empty(),
    });
    let member_id = linked.flatten().map(|(id, _)| id);
    let detail = format!("provider={} result={}", started.provider.id(), code.code());
    auth_store::event(
        &app.db,
        site,
        member_id,
        "social_login",
        client,
        &detail,
        now,
    )
    .await;
    let mut out = SocialOutcome::refused(code, &started.return_url);
    match code {
        LoginCode::Success => {
            if let Some(m) = member_id {
                out.token = Some(session::create(&app.db, m, false, now).await?);
            }
        }
        LoginCode::EmailMatchNoAssociation | LoginCode::NoAssociationNoEmail => {
            let pending = Pending {
                provider: started.provider,
                subject: id.subject.clone(),
                site_id: site,
                email,
                // As the form accepts them: a pre-filled form must not refuse itself.
                first_name: rules::prefill_name(&id.given_name),
                last_name: rules::prefill_name(&id.family_name),
                return_url: started.return_url.clone(),
                sponsor: started.sponsor.clone(),
            };
            let ticket = session::new_token();
            store::insert_pending(
                &app.db,
                &ticket,
                &started.binding_hash,
                &pending,
                now + rules::PENDING_TTL_SECS,
                now,
            )
            .await?;
            out.ticket = Some(ticket);
            out.pending = Some(pending);
        }
        _ => {}
    }
    Ok(out)
}

/// The identity waiting behind a ticket (to pre-fill the next step).
pub async fn pending(
    app: &AppState,
    held: HeldTicket<'_>,
    site_id: u16,
    now: i64,
) -> Result<Option<Pending>, AuthError> {
    Ok(store::pending(&app.db, held, site_id, now).await?)
}

/// Associate account (code 12): the member of the identity's email proves it with the
/// password (the password sign-in's lockout and limits apply); then the link is made and
/// a new session starts. A wrong password keeps the ticket for another try.
pub async fn associate(
    app: &AppState,
    sign_in: SignIn<'_>,
    client: &str,
    site_id: u16,
    held: HeldTicket<'_>,
    password: &str,
    now: i64,
) -> Result<SocialOutcome, AuthError> {
    let ticket = held.ticket;
    let Some(p) = store::pending(&app.db, held, site_id, now).await? else {
        return Ok(SocialOutcome::refused(LoginCode::ThirdPartyFailed, "/"));
    };
    let req = LoginRequest {
        email: p.email.clone(),
        password: password.to_string(),
        remember_me: false,
        return_url: Some(p.return_url.clone()),
        site_id,
    };
    let outcome = login(app, sign_in, client, &req, now).await?;
    if outcome.response.result != LoginResult::Success {
        let mut out = SocialOutcome::refused(outcome.response.result.into(), &p.return_url);
        out.ticket = Some(ticket.trim().to_string());
        out.pending = Some(p);
        return Ok(out);
    }
    let Some(member) = auth_store::member_by_email(&app.db, site_id, &p.email).await? else {
        return Ok(SocialOutcome::refused(LoginCode::InvalidIdentifier, "/"));
    };
    let mut tx = app.db.begin().await?;
    let used = store::use_pending(&mut tx, held).await?;
    let linked = used && store::insert_link(&mut tx, member.id, &p, now).await?;
    if !linked {
        // The ticket was used meanwhile, or this provider account (or this provider) is
        // linked already: nothing changes; the session just made goes.
        drop(tx);
        if let Some(t) = &outcome.token {
            session::delete(&app.db, t).await?;
        }
        return Ok(SocialOutcome::refused(
            LoginCode::InconsistentSocialMember,
            &p.return_url,
        ));
    }
    tx.commit().await?;
    let detail = format!("provider={} associated", p.provider.id());
    auth_store::event(
        &app.db,
        site_id,
        Some(member.id),
        "social_link",
        client,
        &detail,
        now,
    )
    .await;
    Ok(SocialOutcome {
        code: LoginCode::Success,
        token: outcome.token,
        ticket: None,
        redirect_url: p.return_url.clone(),
        pending: None,
        reauth: None,
    })
}

/// The fields of the third-party registration (the email is the provider's).
#[derive(Clone, Debug, Default)]
pub struct SocialSubscribe {
    pub civility: Option<u8>,
    pub first_name: String,
    pub last_name: String,
    pub cgv: bool,
    pub privacy_policy: bool,
    pub optin_partner: bool,
    /// The sponsor's code as typed (the share link's pre-filled); empty: the one the
    /// sign-in started with, if any.
    pub sponsorship_code: String,
    pub godfather_id: String,
}

/// Subscribe third party (code 13): an active member with registration type association 1,
/// linked to the identity, signed in.
pub async fn subscribe_third_party(
    app: &AppState,
    client: &str,
    site_id: u16,
    held: HeldTicket<'_>,
    f: &SocialSubscribe,
    now: i64,
) -> Result<SocialOutcome, AuthError> {
    use crate::auth::service::throttle;
    throttle(app, &format!("subscribe:{client}"), 10, 3600, now).await?;
    let Some(p) = store::pending(&app.db, held, site_id, now).await? else {
        return Ok(SocialOutcome::refused(LoginCode::ThirdPartyFailed, "/"));
    };
    let mut errors = Vec::new();
    let field = |f: &str, k: &str| crate::model::auth::FieldError {
        field: f.into(),
        message_key: k.into(),
    };
    if !is_valid_name(&f.first_name) {
        errors.push(field("firstName", "auth.name.invalid"));
    }
    if !is_valid_name(&f.last_name) {
        errors.push(field("lastName", "auth.name.invalid"));
    }
    if !f.cgv {
        errors.push(field("cgv", "auth.cgv.required"));
    }
    if !f.privacy_policy {
        errors.push(field("privacyPolicy", "auth.privacy.required"));
    }
    if !errors.is_empty() {
        return Err(AuthError::Invalid(errors));
    }
    let mut tx = app.db.begin().await?;
    if !store::use_pending(&mut tx, held).await? {
        return Ok(SocialOutcome::refused(LoginCode::ThirdPartyFailed, "/"));
    }
    let civility = i64::from(f.civility.filter(|c| *c <= 2).unwrap_or(0));
    let inserted = store::insert_social_member(
        &mut tx,
        &p,
        civility,
        f.first_name.trim(),
        f.last_name.trim(),
        f.optin_partner,
        now,
    )
    .await?;
    let Some(member_id) = inserted else {
        // Someone registered this email meanwhile: the association step is the way.
        return Ok(SocialOutcome::refused(
            LoginCode::EmailMatchNoAssociation,
            &p.return_url,
        ));
    };
    if !store::insert_link(&mut tx, member_id, &p, now).await? {
        return Ok(SocialOutcome::refused(
            LoginCode::InconsistentSocialMember,
            &p.return_url,
        ));
    }
    // The sponsor, as the email registration records it (unknown, other-site or self
    // sponsors are ignored without a word).
    let (code, godfather) =
        if f.sponsorship_code.trim().is_empty() && f.godfather_id.trim().is_empty() {
            (p.sponsor.code.as_str(), p.sponsor.godfather_id.as_str())
        } else {
            (f.sponsorship_code.trim(), f.godfather_id.trim())
        };
    crate::sponsorship::store::record_sponsor(
        &mut tx,
        crate::sponsorship::rules::Party {
            member_id,
            site_id: i64::from(site_id),
            email: &p.email,
        },
        code,
        godfather,
        now,
    )
    .await?;
    let source = p.sponsor.source.clone().open_door_return(&p.return_url);
    crate::auth::attribution::store::record(&mut tx, member_id, i64::from(site_id), &source, now)
        .await?;
    let token = session::insert(&mut tx, member_id, false, now).await?;
    tx.commit().await?;
    let detail = format!("provider={} registration_type=1", p.provider.id());
    auth_store::event(
        &app.db,
        site_id,
        Some(member_id),
        "register",
        client,
        &detail,
        now,
    )
    .await;
    Ok(SocialOutcome {
        code: LoginCode::Success,
        token: Some(token),
        ticket: None,
        redirect_url: p.return_url.clone(),
        pending: None,
        reauth: None,
    })
}

/// A member's linked providers: provider, email at the provider, linked since.
pub async fn links(
    app: &AppState,
    member_id: i64,
) -> Result<Vec<(Provider, String, i64)>, AuthError> {
    Ok(store::links(&app.db, member_id).await?)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unlink {
    Done,
    /// Not linked to this member (404 for the caller).
    NotLinked,
    /// The member's only way in: no password and no other link (409).
    LastWayIn,
}

pub async fn unlink(
    app: &AppState,
    client: &str,
    site_id: u16,
    member_id: i64,
    provider: Provider,
    now: i64,
) -> Result<Unlink, AuthError> {
    let mut tx = app.db.begin().await?;
    let has_password = store::has_password(&mut tx, member_id).await?;
    let count = store::count_links(&mut tx, member_id).await?;
    if !store::delete_link(&mut tx, member_id, provider).await? {
        return Ok(Unlink::NotLinked);
    }
    if !rules::can_unlink(has_password, usize::try_from(count).unwrap_or(0)) {
        return Ok(Unlink::LastWayIn);
    }
    tx.commit().await?;
    let detail = format!("provider={}", provider.id());
    auth_store::event(
        &app.db,
        site_id,
        Some(member_id),
        "social_unlink",
        client,
        &detail,
        now,
    )
    .await;
    Ok(Unlink::Done)
}
