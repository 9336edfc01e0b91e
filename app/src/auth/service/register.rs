//! Registration, its activation mail and the activation link.
use super::*;
use crate::auth::attribution::Attribution;
use crate::auth::error::AuthError;
use crate::auth::rules::{self, Visibility};
use crate::auth::settings::AuthSettings;
use crate::auth::store::{self, NewMember};
use crate::model::auth::*;
use crate::platform::mail::{self, Mail, MailSettings};
use crate::platform::session;
use crate::platform::state::AppState;
use crate::site;
use crate::text::email::is_valid_email;

pub(super) fn validate_registration(req: &SubscribeRequest) -> Vec<FieldError> {
    let cfg = rules::registration_fields(req.site_id);
    let mut errors = Vec::new();
    if site::by_id(req.site_id).is_none() {
        errors.push(field("siteId", "auth.error.invalid"));
    }
    if !is_valid_email(&normalize_email(&req.email)) {
        errors.push(field("email", "auth.email.invalid"));
    }
    if let Some(key) = rules::password_problem(&req.password) {
        errors.push(field("password", key));
    }
    let required = |v: Visibility| v == Visibility::Mandatory;
    match req.civility {
        Some(0..=2) => {}
        Some(_) => errors.push(field("civility", "auth.error.invalid")),
        None if required(cfg.civility) => errors.push(field("civility", "auth.error.required")),
        None => {}
    }
    for (name, value, vis) in [
        ("firstName", &req.first_name, cfg.first_name),
        ("lastName", &req.last_name, cfg.last_name),
    ] {
        if value.trim().is_empty() {
            if required(vis) {
                errors.push(field(name, "auth.error.required"));
            }
        } else if !rules::is_valid_name(value) {
            errors.push(field(name, "auth.name.invalid"));
        }
    }
    if req.birth_date.trim().is_empty() {
        if required(cfg.birth_date) {
            errors.push(field("birthDate", "auth.error.required"));
        }
    } else if rules::parse_birth_date(&req.birth_date).is_none() {
        errors.push(field("birthDate", "auth.birthdate.invalid"));
    }
    if !req.zip_code.trim().is_empty() && !rules::is_valid_zip_code(req.site_id, &req.zip_code) {
        errors.push(field("zipCode", rules::zip_code_error_key(req.site_id)));
    }
    if required(cfg.zip_code_and_city)
        && (req.zip_code.trim().is_empty() || city_of(req).is_empty())
    {
        errors.push(field("zipCode", "auth.error.required"));
    }
    let country = req.country_code.trim();
    if !country.is_empty() && crate::auth::countries::by_code(country).is_none() {
        errors.push(field("countryCode", "auth.error.invalid"));
    }
    if !req.cgv {
        errors.push(field("cgv", "auth.cgv.required"));
    }
    if !req.privacy_policy {
        errors.push(field("privacyPolicy", "auth.privacy.required"));
    }
    errors
}

/// The member's city: the form's one field, else a call's `otherCity`.
fn city_of(req: &SubscribeRequest) -> &str {
    match req.city.trim() {
        "" => req.other_city.trim(),
        city => city,
    }
}

/// The country stored: the one chosen, else the site's.
fn country_of(req: &SubscribeRequest) -> String {
    crate::auth::countries::by_code(&req.country_code)
        .map(|c| c.code)
        .unwrap_or_else(|| site::by_id_or_default(req.site_id).country_code)
        .to_string()
}

pub(super) fn new_cypher() -> (String, String) {
    let c = session::new_token();
    let h = session::hash_token(&c);
    (c, h)
}

/// Registration: stores a not-yet-activated member, with where the registration came
/// from, and sends the activation email.
#[allow(clippy::too_many_arguments)]
pub async fn subscribe(
    state: &AppState,
    settings: &AuthSettings,
    mail: &MailSettings,
    client: &str,
    req: &SubscribeRequest,
    source: &Attribution,
    link_base: &str,
    now: i64,
) -> Result<SubscribeResponse, AuthError> {
    let mut errors = validate_registration(req);
    // An occupation is one of the account's jobs (a list kept in the database).
    if let Some(job) = req.occupation {
        let jobs = crate::account::store::jobs(&state.db).await?;
        if !jobs.iter().any(|(id, _)| *id == job) {
            errors.push(field("occupation", "auth.error.invalid"));
        }
    }
    if !errors.is_empty() {
        return Err(AuthError::Invalid(errors));
    }
    let email = normalize_email(&req.email);
    // Per client (account creation, CPU) and per target address (mails to a third party),
    // before any hashing (review M3).
    let s = settings;
    super::throttle(
        state,
        &format!("register:{client}"),
        s.register_rate_limit,
        s.login_rate_window_secs,
        now,
    )
    .await?;
    super::throttle(
        state,
        &super::mail_bucket(req.site_id, &email),
        s.email_rate_limit,
        s.email_rate_window_secs,
        now,
    )
    .await?;
    // A taken email costs no hash (the insert below still guards against races).
    if store::member_by_email(&state.db, req.site_id, &email)
        .await?
        .is_some()
    {
        return Err(AuthError::Invalid(vec![field("email", "auth.email.taken")]));
    }
    let hash = crate::platform::password::hash_async(&req.password)
        .await
        .map_err(AuthError::Internal)?;
    let birth =
        rules::parse_birth_date(&req.birth_date).map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"));
    let mut tx = state.db.begin().await?;
    let member = NewMember {
        site_id: req.site_id,
        email: &email,
        password_hash: &hash,
        civility: i64::from(req.civility.unwrap_or(0)),
        first_name: req.first_name.trim(),
        last_name: req.last_name.trim(),
        birth_date: birth,
        zip_code: req.zip_code.trim(),
        city: city_of(req),
        country_code: country_of(req),
        job_id: req.occupation,
        optin_partner: req.optin_partner,
        sponsor_code: req.sponsorship_code.trim(),
    };
    let Some(member_id) = store::insert_member(&mut tx, &member, now).await? else {
        return Err(AuthError::Invalid(vec![field("email", "auth.email.taken")]));
    };
    // A sponsor named by code or id is recorded with the account; one that names nobody
    // (or the new member themselves) is ignored without a word.
    let sponsored = crate::sponsorship::rules::Party {
        member_id,
        site_id: i64::from(req.site_id),
        email: &email,
    };
    crate::sponsorship::store::record_sponsor(
        &mut tx,
        sponsored,
        &req.sponsorship_code,
        &req.godfather_id,
        now,
    )
    .await?;
    let source = source
        .clone()
        .open_door_return(req.return_url.as_deref().unwrap_or_default());
    crate::auth::attribution::store::record(
        &mut tx,
        member_id,
        i64::from(req.site_id),
        &source,
        now,
    )
    .await?;
    let (cypher, cypher_hash) = new_cypher();
    store::insert_cypher(
        &mut tx,
        member_id,
        "activation",
        &cypher_hash,
        now,
        now + settings.cypher_ttl_secs,
    )
    .await?;
    tx.commit().await?;
    let lang = site::i18n::lang_of(site::by_id_or_default(req.site_id).locale);
    let link = format!("{link_base}/gr/authentication?signin=activate&cypher={cypher}");
    send(
        mail,
        &email,
        &site::i18n::t(lang, "mail.activation.subject"),
        &site::i18n::t_with(
            lang,
            "mail.activation.body",
            &[("link", &link), ("name", req.first_name.trim())],
        ),
        now,
    )
    .await;
    store::event(
        &state.db,
        req.site_id,
        Some(member_id),
        "subscribe",
        client,
        "",
        now,
    )
    .await;
    Ok(SubscribeResponse {
        member_id,
        msg_key: "auth.register.check_email".into(),
    })
}

pub(super) async fn send(settings: &MailSettings, to: &str, subject: &str, body: &str, now: i64) {
    let mail = Mail {
        to: to.into(),
        subject: subject.into(),
        body: body.into(),
    };
    match mail::send(settings, &mail, now).await {
        Ok(target) => tracing::info!(%target, "email sent"),
        Err(e) => tracing::error!(error = %e, "cannot send email"),
    }
}

/// Activates an account from the emailed cypher (single use).
pub async fn activate(
    state: &AppState,
    settings: &AuthSettings,
    client: &str,
    site_id: u16,
    cypher: &str,
    now: i64,
) -> Result<i64, AuthError> {
    super::throttle(
        state,
        &format!("activate:{client}"),
        settings.login_rate_limit,
        settings.login_rate_window_secs,
        now,
    )
    .await?;
    let mut tx = state.db.begin().await?;
    let Some(member_id) = store::consume_cypher(
        &mut tx,
        &session::hash_token(cypher.trim()),
        "activation",
        now,
    )
    .await?
    else {
        return Err(AuthError::CypherInvalid);
    };
    sqlx::query("UPDATE members SET status = 1 WHERE id = $1 AND status = 0")
        .bind(member_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    store::event(
        &state.db,
        site_id,
        Some(member_id),
        "activate",
        client,
        "",
        now,
    )
    .await;
    Ok(member_id)
}
