//! Communication preferences: reading them, and each change as one transaction that
//! also records the consent it gives or withdraws.
use sqlx::Row;

use crate::communications::error::CommunicationsError as E;
use crate::communications::model::*;
use crate::communications::rules::{
    default_preferences, mail_consent, opens_cancel_survey, option_set, Channel, Model,
};
use crate::communications::store::{self, DATA_PARTNER_ID};
use crate::platform::db::Db;
use crate::site::i18n::t;

/// More settings in one call than there are partners is not a real request.
const MAX_PARTNER_SETTINGS: usize = 20;

pub async fn settings(db: &Db, member_id: i64, lang: &str) -> Result<CommunicationSettings, E> {
    let consents = store::consents(&db.pool, member_id).await?;
    let (channel, model) = store::preferences(&db.pool, member_id)
        .await?
        .unwrap_or_else(|| default_preferences(consents.email));
    let set = option_set(consents.site_id);
    let partners = store::partners(db, member_id)
        .await?
        .into_iter()
        .map(|(id, name, purpose_key, status)| PartnerState {
            id,
            name,
            purpose: t(lang, &purpose_key),
            status: if id == DATA_PARTNER_ID {
                consents.data_partner
            } else {
                status
            },
        })
        .collect();
    Ok(CommunicationSettings {
        communication_channel: channel,
        communication_model: model,
        options: ChoiceSets {
            channels: set.channels.to_vec(),
            models: set.models.to_vec(),
        },
        is_optin_perso: consents.perso,
        is_optin_partner: consents.partner,
        member_commercial_partner_settings: partners,
        brand_alerts: store::brand_alerts(db, member_id).await?,
        subscription_id: store::subscription_id(db, member_id).await?,
        cancel_survey: false,
    })
}

/// PUT channel and frequency: only the member's site's options. Newsletters by e-mail
/// on or off is the e-mail opt-in, kept in step; NONE cancels the newsletter subscription
/// and, if newsletters were on, asks for the cancel survey.
pub async fn set_preferences(
    db: &Db,
    member_id: i64,
    req: &PreferencesRequest,
    lang: &str,
    now: i64,
) -> Result<CommunicationSettings, E> {
    let (Some(channel), Some(model)) = (
        Channel::from_wire(&req.communication_channel),
        Model::from_wire(&req.communication_model),
    ) else {
        return Err(E::Invalid("invalid_preferences"));
    };
    let mut tx = db.begin().await?;
    let consents = store::consents(&mut *tx, member_id).await?;
    if !option_set(consents.site_id).allows(channel, model) {
        return Err(E::Invalid("invalid_preferences"));
    }
    let (_, before) = store::preferences(&mut *tx, member_id)
        .await?
        .unwrap_or_else(|| default_preferences(consents.email));
    store::save_preferences(&mut tx, member_id, channel, model, now).await?;
    let email = mail_consent(channel, model);
    if email != consents.email {
        sqlx::query("UPDATE members SET optin_email = $2 WHERE id = $1")
            .bind(member_id)
            .bind(i64::from(email))
            .execute(&mut *tx)
            .await?;
        store::consent_event(&mut tx, member_id, "email", email, now).await?;
    }
    store::set_subscription(&mut tx, member_id, model != Model::None, now).await?;
    tx.commit().await?;
    let mut out = settings(db, member_id, lang).await?;
    out.cancel_survey = opens_cancel_survey(before, model);
    Ok(out)
}

/// POST opt-ins: each given one is set, granted or withdrawn alike.
pub async fn set_optins(
    db: &Db,
    member_id: i64,
    req: &OptinsRequest,
    lang: &str,
    now: i64,
) -> Result<CommunicationSettings, E> {
    if req.is_optin_perso.is_none() && req.is_optin_partner.is_none() {
        return Err(E::Invalid("invalid_optins"));
    }
    let mut tx = db.begin().await?;
    let consents = store::consents(&mut *tx, member_id).await?;
    let changes = [
        ("perso_gdpr", "perso", req.is_optin_perso, consents.perso),
        (
            "optin_partner",
            "partner",
            req.is_optin_partner,
            consents.partner,
        ),
    ];
    for (column, consent, wanted, current) in changes {
        let Some(wanted) = wanted.filter(|w| *w != current) else {
            continue;
        };
        sqlx::query(&format!("UPDATE members SET {column} = $2 WHERE id = $1"))
            .bind(member_id)
            .bind(i64::from(wanted))
            .execute(&mut *tx)
            .await?;
        store::consent_event(&mut tx, member_id, consent, wanted, now).await?;
    }
    tx.commit().await?;
    settings(db, member_id, lang).await
}

/// POST commercial partner settings: every id must be a partner; all are written or none.
pub async fn set_partners(
    db: &Db,
    member_id: i64,
    req: &PartnersRequest,
    lang: &str,
    now: i64,
) -> Result<CommunicationSettings, E> {
    if req.settings.is_empty() || req.settings.len() > MAX_PARTNER_SETTINGS {
        return Err(E::Invalid("invalid_partners"));
    }
    let mut tx = db.begin().await?;
    for s in &req.settings {
        let known: Option<i64> =
            sqlx::query_scalar("SELECT id FROM commercial_partners WHERE id = $1")
                .bind(s.id)
                .fetch_optional(&mut *tx)
                .await?;
        if known.is_none() {
            return Err(E::NotFound);
        }
        sqlx::query(
            "INSERT INTO member_commercial_partners (member_id, partner_id, status, updated_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (member_id, partner_id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at",
        )
        .bind(member_id)
        .bind(s.id)
        .bind(i64::from(s.status))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if s.id == DATA_PARTNER_ID {
            sqlx::query("UPDATE members SET adot_optin = $2 WHERE id = $1")
                .bind(member_id)
                .bind(i64::from(s.status))
                .execute(&mut *tx)
                .await?;
        }
        store::consent_event(
            &mut tx,
            member_id,
            &format!("partner:{}", s.id),
            s.status,
            now,
        )
        .await?;
    }
    tx.commit().await?;
    settings(db, member_id, lang).await
}

pub async fn cancel_reasons(db: &Db, lang: &str) -> Result<CancelReasons, E> {
    let datas = sqlx::query(
        "SELECT id, label_key FROM subscription_cancel_reasons ORDER BY sort_order, id",
    )
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(CancelReason {
            id: r.try_get("id")?,
            label: t(lang, &r.try_get::<String, _>("label_key")?),
        })
    })
    .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(CancelReasons { datas })
}

/// POST subscription cancel: the reason is recorded on the member's own subscription,
/// which ends (newsletters NONE, e-mail opt-in withdrawn) if it had not already.
pub async fn cancel_subscription(
    db: &Db,
    member_id: i64,
    req: &CancelRequest,
    now: i64,
) -> Result<(), E> {
    let mut tx = db.begin().await?;
    let reason: Option<i64> =
        sqlx::query_scalar("SELECT id FROM subscription_cancel_reasons WHERE id = $1")
            .bind(req.cancel_reason_id)
            .fetch_optional(&mut *tx)
            .await?;
    if reason.is_none() {
        return Err(E::Invalid("invalid_reason"));
    }
    let n = sqlx::query(
        "UPDATE member_subscriptions SET cancel_reason_id = $1, status = 'cancelled',
                cancelled_at = COALESCE(cancelled_at, $4)
          WHERE id = $2 AND member_id = $3",
    )
    .bind(req.cancel_reason_id)
    .bind(req.subscription_id)
    .bind(member_id)
    .bind(now)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if n != 1 {
        return Err(E::NotFound);
    }
    let consents = store::consents(&mut *tx, member_id).await?;
    let channel = store::preferences(&mut *tx, member_id)
        .await?
        .map_or(Channel::All, |(c, _)| c);
    store::save_preferences(&mut tx, member_id, channel, Model::None, now).await?;
    if consents.email {
        sqlx::query("UPDATE members SET optin_email = 0 WHERE id = $1")
            .bind(member_id)
            .execute(&mut *tx)
            .await?;
        store::consent_event(&mut tx, member_id, "email", false, now).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Follows (or stops following) a brand's new sales.
pub async fn brand_alert(
    db: &Db,
    member_id: i64,
    brand_id: i64,
    follow: bool,
    now: i64,
) -> Result<BrandAlerts, E> {
    let mut tx = db.begin().await?;
    let known: Option<i64> = sqlx::query_scalar("SELECT id FROM brands WHERE id = $1")
        .bind(brand_id)
        .fetch_optional(&mut *tx)
        .await?;
    if known.is_none() {
        return Err(E::NotFound);
    }
    let sql = if follow {
        "INSERT INTO brand_alerts (member_id, brand_id, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (member_id, brand_id) DO NOTHING"
    } else {
        "DELETE FROM brand_alerts WHERE member_id = $1 AND brand_id = $2 AND $3 >= 0"
    };
    sqlx::query(sql)
        .bind(member_id)
        .bind(brand_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(store::brand_alerts(db, member_id).await?)
}
