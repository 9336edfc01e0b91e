//! The communication preferences' SQL: the member's row, opt-ins on `members`, partners,
//! the newsletter subscription, cancel reasons and brand alerts.
use sqlx::{AnyConnection, Row};

use crate::communications::model::{BrandAlerts, BrandRef};
use crate::communications::rules::{Channel, Model};
use crate::platform::db::Db;

/// Partner 1 is the onboarding banner's data partner, stored on `members.adot_optin`.
pub const DATA_PARTNER_ID: i64 = 1;
/// Brands offered to follow, alphabetically.
const BRAND_OPTIONS: i64 = 100;

pub struct MemberConsents {
    pub site_id: u16,
    pub perso: bool,
    pub partner: bool,
    pub email: bool,
    pub data_partner: bool,
}

pub async fn consents(
    db: impl sqlx::Executor<'_, Database = sqlx::Any>,
    member_id: i64,
) -> Result<MemberConsents, sqlx::Error> {
    let r = sqlx::query(
        "SELECT site_id, perso_gdpr, optin_partner, optin_email, adot_optin FROM members WHERE id = $1",
    )
    .bind(member_id)
    .fetch_one(db)
    .await?;
    Ok(MemberConsents {
        site_id: u16::try_from(r.try_get::<i64, _>("site_id")?).unwrap_or(1),
        perso: r.try_get::<i64, _>("perso_gdpr")? == 1,
        partner: r.try_get::<i64, _>("optin_partner")? == 1,
        email: r.try_get::<i64, _>("optin_email")? == 1,
        data_partner: r.try_get::<Option<i64>, _>("adot_optin")? == Some(1),
    })
}

/// The stored choice, if the member ever made one.
pub async fn preferences(
    db: impl sqlx::Executor<'_, Database = sqlx::Any>,
    member_id: i64,
) -> Result<Option<(Channel, Model)>, sqlx::Error> {
    let row = sqlx::query("SELECT channel, model FROM member_communications WHERE member_id = $1")
        .bind(member_id)
        .fetch_optional(db)
        .await?;
    Ok(row.and_then(|r| {
        let c = r.try_get::<String, _>("channel").ok()?;
        let m = r.try_get::<String, _>("model").ok()?;
        Some((Channel::from_wire(&c)?, Model::from_wire(&m)?))
    }))
}

pub async fn partners(
    db: &Db,
    member_id: i64,
) -> Result<Vec<(i64, String, String, bool)>, sqlx::Error> {
    sqlx::query(
        "SELECT p.id, p.name, p.purpose_key, COALESCE(s.status, 0) AS status FROM commercial_partners p
           LEFT JOIN member_commercial_partners s ON s.partner_id = p.id AND s.member_id = $1
          ORDER BY p.id",
    )
    .bind(member_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok((
            r.try_get("id")?,
            r.try_get("name")?,
            r.try_get("purpose_key")?,
            r.try_get::<i64, _>("status")? == 1,
        ))
    })
    .collect()
}

pub async fn subscription_id(db: &Db, member_id: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM member_subscriptions WHERE member_id = $1 AND kind = 'newsletter'",
    )
    .bind(member_id)
    .fetch_optional(&db.pool)
    .await
}

pub async fn brand_alerts(db: &Db, member_id: i64) -> Result<BrandAlerts, sqlx::Error> {
    let read = |rows: Vec<sqlx::any::AnyRow>| {
        rows.iter()
            .map(|r| {
                Ok(BrandRef {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()
    };
    let brands = sqlx::query(
        "SELECT b.id, b.name FROM brand_alerts a JOIN brands b ON b.id = a.brand_id
          WHERE a.member_id = $1 ORDER BY b.name, b.id",
    )
    .bind(member_id)
    .fetch_all(&db.pool)
    .await?;
    let options = sqlx::query(
        "SELECT b.id, b.name FROM brands b
          WHERE NOT EXISTS (SELECT 1 FROM brand_alerts a WHERE a.member_id = $1 AND a.brand_id = b.id)
          ORDER BY b.name, b.id LIMIT $2",
    )
    .bind(member_id)
    .bind(BRAND_OPTIONS)
    .fetch_all(&db.pool)
    .await?;
    Ok(BrandAlerts {
        brands: read(brands)?,
        options: read(options)?,
    })
}

/// One line of the consent history.
pub async fn consent_event(
    tx: &mut AnyConnection,
    member_id: i64,
    consent: &str,
    granted: bool,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO member_consent_events (member_id, consent, granted, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(member_id)
    .bind(consent)
    .bind(i64::from(granted))
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

pub async fn save_preferences(
    tx: &mut AnyConnection,
    member_id: i64,
    channel: Channel,
    model: Model,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO member_communications (member_id, channel, model, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (member_id) DO UPDATE SET channel = excluded.channel, model = excluded.model,
                                               updated_at = excluded.updated_at",
    )
    .bind(member_id)
    .bind(channel.wire())
    .bind(model.wire())
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The newsletter subscription follows the choice: active, or cancelled at `now`.
pub async fn set_subscription(
    tx: &mut AnyConnection,
    member_id: i64,
    active: bool,
    now: i64,
) -> Result<(), sqlx::Error> {
    let sql = if active {
        "INSERT INTO member_subscriptions (member_id, kind, status, created_at) VALUES ($1, 'newsletter', 'active', $2)
         ON CONFLICT (member_id, kind) DO UPDATE SET status = 'active', cancel_reason_id = NULL, cancelled_at = NULL"
    } else {
        "INSERT INTO member_subscriptions (member_id, kind, status, cancelled_at, created_at)
         VALUES ($1, 'newsletter', 'cancelled', $2, $2)
         ON CONFLICT (member_id, kind) DO UPDATE SET status = 'cancelled',
                cancelled_at = COALESCE(member_subscriptions.cancelled_at, excluded.cancelled_at)"
    };
    sqlx::query(sql)
        .bind(member_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    Ok(())
}
