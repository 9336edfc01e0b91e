use sqlx::Row;

use crate::onboarding::rules::{self, MemberOnboarding, PopinType};
use crate::platform::db::Db;

/// The select list of [`from_row`] over a member row `m`, for
/// the session lookups of page views (`crate::platform::session_lookups`): the profile answers and the answered popins
/// as `type:version` pairs (`string_agg`: SQLite 3.44 and later, and PostgreSQL).
pub const PAGE_COLUMNS: &str = ", m.birth_date, m.perso_gdpr, m.optin_email, m.terms_version, \
     m.adot_optin, m.created_at AS registered_at, (SELECT string_agg(CAST(p.popin_type AS TEXT) || ':' || CAST(p.version AS TEXT), ',') \
     FROM member_popins p WHERE p.member_id = m.id) AS popins_answered";

/// What [`load`] reads, from a row with [`PAGE_COLUMNS`].
pub fn from_row(m: &sqlx::any::AnyRow) -> Result<MemberOnboarding, sqlx::Error> {
    let answered = m
        .try_get::<Option<String>, _>("popins_answered")?
        .unwrap_or_default()
        .split(',')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (kind, version) = pair.split_once(':').unwrap_or((pair, ""));
            match (kind.parse(), version.parse()) {
                (Ok(k), Ok(v)) => Ok((k, v)),
                _ => Err(sqlx::Error::Decode(
                    format!("answered popin {pair:?}").into(),
                )),
            }
        })
        .collect::<Result<Vec<(i64, i64)>, sqlx::Error>>()?;
    Ok(MemberOnboarding {
        answered,
        ..profile(m)?
    })
}

/// The profile answers of a member row (`answered` left empty).
fn profile(m: &sqlx::any::AnyRow) -> Result<MemberOnboarding, sqlx::Error> {
    Ok(MemberOnboarding {
        answered: Vec::new(),
        has_birth_date: m
            .try_get::<Option<String>, _>("birth_date")?
            .is_some_and(|d| !d.is_empty()),
        perso_gdpr: m.try_get::<i64, _>("perso_gdpr")? == 1,
        optin_email: m.try_get::<i64, _>("optin_email")? == 1,
        terms_version: m.try_get("terms_version")?,
        adot_answered: m.try_get::<Option<i64>, _>("adot_optin")?.is_some(),
        registered_at: m.try_get("registered_at")?,
    })
}

pub async fn load(db: &Db, member_id: i64) -> Result<MemberOnboarding, sqlx::Error> {
    let m = sqlx::query(
        "SELECT birth_date, perso_gdpr, optin_email, terms_version, adot_optin,
                created_at AS registered_at FROM members WHERE id = $1",
    )
    .bind(member_id)
    .fetch_one(&db.pool)
    .await?;
    let answered =
        sqlx::query("SELECT popin_type, version FROM member_popins WHERE member_id = $1")
            .bind(member_id)
            .fetch_all(&db.pool)
            .await?
            .iter()
            .map(|r| Ok((r.try_get("popin_type")?, r.try_get("version")?)))
            .collect::<Result<Vec<(i64, i64)>, sqlx::Error>>()?;
    Ok(MemberOnboarding {
        answered,
        ..profile(&m)?
    })
}

/// Records the answer to a popin (once per member and version) and applies it.
pub(crate) async fn answer(
    db: &Db,
    member_id: i64,
    kind: PopinType,
    version: i64,
    accepted: bool,
    birth_date: Option<String>,
    now: i64,
) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO member_popins (member_id, popin_type, version, action, answered_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (member_id, popin_type, version) DO NOTHING",
    )
    .bind(member_id)
    .bind(kind as i64)
    .bind(version)
    .bind(if accepted { "accept" } else { "close" })
    .bind(now)
    .execute(&mut *tx)
    .await?;
    if accepted {
        let update = match kind {
            PopinType::Personalisation => Some("UPDATE members SET perso_gdpr = 1 WHERE id = $1"),
            PopinType::Optin => Some("UPDATE members SET optin_email = 1 WHERE id = $1"),
            _ => None,
        };
        if let Some(sql) = update {
            sqlx::query(sql).bind(member_id).execute(&mut *tx).await?;
        }
        if kind == PopinType::TermsAndConditions {
            sqlx::query("UPDATE members SET terms_version = $2 WHERE id = $1")
                .bind(member_id)
                .bind(version)
                .execute(&mut *tx)
                .await?;
        }
        if let (PopinType::Birthdate, Some(date)) = (kind, birth_date) {
            sqlx::query("UPDATE members SET birth_date = $2 WHERE id = $1")
                .bind(member_id)
                .bind(date)
                .execute(&mut *tx)
                .await?;
        }
    }
    if let Some(reward) = rules::reward_for(kind, accepted) {
        give(&mut tx, member_id, reward, now).await?;
    }
    tx.commit().await
}

/// Gives the member a popin's reward voucher, unless that kind was given already (a
/// second answer, another version, two tabs at once: the key holds one per member).
async fn give(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    member_id: i64,
    reward: rules::Reward,
    now: i64,
) -> Result<(), sqlx::Error> {
    use rand::RngCore;
    let claimed = sqlx::query(
        "INSERT INTO onboarding_rewards (member_id, kind, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (member_id, kind) DO NOTHING",
    )
    .bind(member_id)
    .bind(reward.kind as i64)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if claimed != 1 {
        return Ok(());
    }
    let site_id: i64 = sqlx::query_scalar("SELECT site_id FROM members WHERE id = $1")
        .bind(member_id)
        .fetch_one(&mut **tx)
        .await?;
    let mut bytes = [0u8; crate::sponsorship::rules::CODE_LEN];
    rand::thread_rng().fill_bytes(&mut bytes);
    let code = format!(
        "{}-{}",
        reward.kind.code_prefix(),
        crate::sponsorship::rules::code_from_bytes(&bytes)
    );
    let voucher_id: i64 = sqlx::query_scalar(
        "INSERT INTO vouchers (site_id, code, kind, discount_type, scope, value, per_member_limit, total_limit,
                               personal, valid_from, valid_until)
         VALUES ($1, $2, 'voucher', 'FIXED', 'PRODUCT', $3, 1, 1, 1, $4, $5) RETURNING id",
    )
    .bind(site_id)
    .bind(code)
    .bind(reward.value)
    .bind(now)
    .bind(now + reward.valid_days * 86_400)
    .fetch_one(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO voucher_participations (member_id, voucher_id, created_at) VALUES ($1, $2, $3)",
    )
    .bind(member_id)
    .bind(voucher_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE onboarding_rewards SET voucher_id = $3 WHERE member_id = $1 AND kind = $2")
        .bind(member_id)
        .bind(reward.kind as i64)
        .bind(voucher_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The data-partner banner answer (`IsAdotOptinAccepted`); closing counts as "no".
pub(crate) async fn adot(db: &Db, member_id: i64, accepted: bool) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE members SET adot_optin = $2 WHERE id = $1")
        .bind(member_id)
        .bind(i64::from(accepted))
        .execute(&db.writes)
        .await?;
    Ok(())
}
