//! The SQL of social sign-in: authorization requests, pending identities, links.
use crate::auth::attribution::Attribution;
use sqlx::{Any, Row, Transaction};

use super::rules::Provider;
use crate::platform::db::Db;
use crate::platform::session::hash_token;

/// One authorization request as it was started.
#[derive(Clone, Debug)]
pub struct LoginState {
    pub provider: Provider,
    pub site_id: u16,
    pub nonce: String,
    pub pkce_verifier: String,
    pub return_url: String,
    /// The share link's sponsor, carried to the registration (code 13).
    pub sponsor: Sponsor,
    /// The hash of the binding of the visitor who started it: a pending identity made from
    /// it stays theirs (review N5).
    pub binding_hash: String,
    /// For a re-authentication (review N1): the member who must sign in again; 0 for a
    /// sign-in.
    pub reauth_member_id: i64,
}

/// A ticket of a pending identity, as the browser that presents it holds it: only the
/// browser that started the sign-in can use it (review N5).
#[derive(Clone, Copy, Debug)]
pub struct HeldTicket<'a> {
    pub ticket: &'a str,
    /// What the presenting visitor's CSRF tokens are bound to.
    pub binding: &'a str,
}

/// A share link's sponsor (`mgmcode`, `godfatherid`), as given: checked at registration;
/// and where the visitor came from, recorded if they register.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sponsor {
    pub code: String,
    pub godfather_id: String,
    pub source: Attribution,
}

impl Sponsor {
    /// At most 64 characters of each (longer ones name nobody anyway).
    pub fn new(code: &str, godfather_id: &str) -> Sponsor {
        let cut = |s: &str| s.trim().chars().take(64).collect::<String>();
        Sponsor {
            code: cut(code),
            godfather_id: cut(godfather_id),
            source: Attribution::default(),
        }
    }

    pub fn with_source(self, source: Attribution) -> Sponsor {
        Sponsor { source, ..self }
    }
}

pub struct NewState<'a> {
    pub state: &'a str,
    pub binding: &'a str,
    pub provider: Provider,
    pub site_id: u16,
    pub nonce: &'a str,
    pub pkce_verifier: &'a str,
    pub return_url: &'a str,
    pub sponsor: &'a Sponsor,
    pub expires_at: i64,
    pub reauth_member_id: i64,
}

pub async fn insert_state(db: &Db, s: &NewState<'_>, now: i64) -> Result<(), sqlx::Error> {
    // Ended requests go as new ones come (there is no other reader of them).
    sqlx::query("DELETE FROM social_login_states WHERE expires_at < $1")
        .bind(now)
        .execute(&db.writes)
        .await?;
    sqlx::query(
        "INSERT INTO social_login_states (state_hash, binding_hash, provider, site_id, nonce,
             pkce_verifier, return_url, expires_at, sponsor_code, godfather_id, reauth_member_id,
             source)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(hash_token(s.state))
    .bind(hash_token(s.binding))
    .bind(i64::from(s.provider.id()))
    .bind(i64::from(s.site_id))
    .bind(s.nonce)
    .bind(s.pkce_verifier)
    .bind(s.return_url)
    .bind(s.expires_at)
    .bind(&s.sponsor.code)
    .bind(&s.sponsor.godfather_id)
    .bind(s.reauth_member_id)
    .bind(s.sponsor.source.to_query())
    .execute(&db.writes)
    .await?;
    Ok(())
}

/// Takes a request by its state, once: the row is deleted whatever follows. `None` when
/// unknown, used, expired or started by another visitor.
pub async fn take_state(
    db: &Db,
    state: &str,
    binding: &str,
    now: i64,
) -> Result<Option<LoginState>, sqlx::Error> {
    let row = sqlx::query(
        "DELETE FROM social_login_states WHERE state_hash = $1
         RETURNING binding_hash, provider, site_id, nonce, pkce_verifier, return_url, expires_at,
                   sponsor_code, godfather_id, reauth_member_id, source",
    )
    .bind(hash_token(state))
    .fetch_optional(&db.writes)
    .await?;
    let Some(r) = row else { return Ok(None) };
    let binding_hash: String = r.try_get("binding_hash")?;
    let expires_at: i64 = r.try_get("expires_at")?;
    let Some(provider) = Provider::from_id(r.try_get("provider")?) else {
        return Ok(None);
    };
    if expires_at < now || binding_hash != hash_token(binding) {
        return Ok(None);
    }
    Ok(Some(LoginState {
        provider,
        site_id: u16::try_from(r.try_get::<i64, _>("site_id")?).unwrap_or(1),
        nonce: r.try_get("nonce")?,
        pkce_verifier: r.try_get("pkce_verifier")?,
        return_url: r.try_get("return_url")?,
        sponsor: Sponsor {
            code: r.try_get("sponsor_code")?,
            godfather_id: r.try_get("godfather_id")?,
            source: Attribution::from_query(&r.try_get::<String, _>("source")?),
        },
        binding_hash,
        reauth_member_id: r.try_get("reauth_member_id")?,
    }))
}

/// A verified identity waiting for its association or registration step.
#[derive(Clone, Debug)]
pub struct Pending {
    pub provider: Provider,
    pub subject: String,
    pub site_id: u16,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub return_url: String,
    pub sponsor: Sponsor,
}

/// Keeps a pending identity behind `ticket`, for the visitor whose binding hashes to
/// `binding_hash` (the one who started the sign-in).
pub async fn insert_pending(
    db: &Db,
    ticket: &str,
    binding_hash: &str,
    p: &Pending,
    expires_at: i64,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM social_pending WHERE expires_at < $1")
        .bind(now)
        .execute(&db.writes)
        .await?;
    sqlx::query(
        "INSERT INTO social_pending (ticket_hash, provider, subject, site_id, email, first_name,
             last_name, return_url, expires_at, sponsor_code, godfather_id, binding_hash, source)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(hash_token(ticket))
    .bind(i64::from(p.provider.id()))
    .bind(&p.subject)
    .bind(i64::from(p.site_id))
    .bind(&p.email)
    .bind(&p.first_name)
    .bind(&p.last_name)
    .bind(&p.return_url)
    .bind(expires_at)
    .bind(&p.sponsor.code)
    .bind(&p.sponsor.godfather_id)
    .bind(binding_hash)
    .bind(p.sponsor.source.to_query())
    .execute(&db.writes)
    .await?;
    Ok(())
}

/// The pending identity of a live ticket on this site, held by the browser it was made for.
pub async fn pending(
    db: &Db,
    held: HeldTicket<'_>,
    site_id: u16,
    now: i64,
) -> Result<Option<Pending>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT provider, subject, site_id, email, first_name, last_name, return_url, sponsor_code,
                godfather_id, source
         FROM social_pending
         WHERE ticket_hash = $1 AND binding_hash = $2 AND site_id = $3 AND expires_at >= $4",
    )
    .bind(hash_token(held.ticket.trim()))
    .bind(hash_token(held.binding))
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    let Some(r) = row else { return Ok(None) };
    let Some(provider) = Provider::from_id(r.try_get("provider")?) else {
        return Ok(None);
    };
    Ok(Some(Pending {
        provider,
        subject: r.try_get("subject")?,
        site_id,
        email: r.try_get("email")?,
        first_name: r.try_get("first_name")?,
        last_name: r.try_get("last_name")?,
        return_url: r.try_get("return_url")?,
        sponsor: Sponsor {
            code: r.try_get("sponsor_code")?,
            godfather_id: r.try_get("godfather_id")?,
            source: Attribution::from_query(&r.try_get::<String, _>("source")?),
        },
    }))
}

/// Uses a ticket up inside the step's transaction; false when someone else did first.
pub async fn use_pending(
    tx: &mut Transaction<'_, Any>,
    held: HeldTicket<'_>,
) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("DELETE FROM social_pending WHERE ticket_hash = $1 AND binding_hash = $2")
            .bind(hash_token(held.ticket.trim()))
            .bind(hash_token(held.binding))
            .execute(&mut **tx)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// The member linked to a provider account on a site.
pub async fn linked_member(
    db: &Db,
    site_id: u16,
    provider: Provider,
    subject: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT member_id FROM member_social_links WHERE site_id = $1 AND provider = $2 AND subject = $3",
    )
    .bind(i64::from(site_id))
    .bind(i64::from(provider.id()))
    .bind(subject)
    .fetch_optional(&db.pool)
    .await
}

/// Links a provider account; false when this account or this provider is linked already.
pub async fn insert_link(
    tx: &mut Transaction<'_, Any>,
    member_id: i64,
    p: &Pending,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO member_social_links (member_id, site_id, provider, subject, email, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
    )
    .bind(member_id)
    .bind(i64::from(p.site_id))
    .bind(i64::from(p.provider.id()))
    .bind(&p.subject)
    .bind(&p.email)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A member registered by a provider: active (the provider verified the email), no
/// password (it never matches: the member can set one through password recovery),
/// registration type association.
pub async fn insert_social_member(
    tx: &mut Transaction<'_, Any>,
    p: &Pending,
    civility: i64,
    first_name: &str,
    last_name: &str,
    optin_partner: bool,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query(
        "INSERT INTO members (site_id, email, password_hash, civility, first_name, last_name, status,
             created_at, optin_partner, registration_type, terms_version)
         VALUES ($1, $2, '', $3, $4, $5, 1, $6, $7, $8, $9)
         ON CONFLICT (site_id, email) DO NOTHING
         RETURNING id",
    )
    .bind(i64::from(p.site_id))
    .bind(&p.email)
    .bind(civility)
    .bind(first_name)
    .bind(last_name)
    .bind(now)
    .bind(i64::from(optin_partner))
    .bind(super::rules::RegistrationType::Association as i64)
    // The social registration form requires the general conditions: those in force.
    .bind(crate::onboarding::rules::TERMS_VERSION)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| r.try_get("id")).transpose()
}

/// A member's links: provider, the email the provider gave, since when.
pub async fn links(db: &Db, member_id: i64) -> Result<Vec<(Provider, String, i64)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT provider, email, created_at FROM member_social_links WHERE member_id = $1 ORDER BY provider",
    )
    .bind(member_id)
    .fetch_all(&db.pool)
    .await?;
    let mut out = Vec::new();
    for r in rows {
        if let Some(p) = Provider::from_id(r.try_get("provider")?) {
            out.push((p, r.try_get("email")?, r.try_get("created_at")?));
        }
    }
    Ok(out)
}

pub async fn has_password(
    tx: &mut Transaction<'_, Any>,
    member_id: i64,
) -> Result<bool, sqlx::Error> {
    let hash: Option<String> =
        sqlx::query_scalar("SELECT password_hash FROM members WHERE id = $1")
            .bind(member_id)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(hash.is_some_and(|h| !h.is_empty()))
}

pub async fn count_links(
    tx: &mut Transaction<'_, Any>,
    member_id: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM member_social_links WHERE member_id = $1")
        .bind(member_id)
        .fetch_one(&mut **tx)
        .await
}

pub async fn delete_link(
    tx: &mut Transaction<'_, Any>,
    member_id: i64,
    provider: Provider,
) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("DELETE FROM member_social_links WHERE member_id = $1 AND provider = $2")
            .bind(member_id)
            .bind(i64::from(provider.id()))
            .execute(&mut **tx)
            .await?;
    Ok(done.rows_affected() == 1)
}
