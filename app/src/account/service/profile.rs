//! Personal data: read, jobs list, deactivation reasons, update.
use crate::account::error::AccountError;
use crate::account::model::*;
use crate::account::rules::{self, check_profile, ProfileInput, DEACTIVATION_REASONS, F_JOB};
use crate::account::store;
use crate::auth::rules::{registration_fields, Visibility};
use crate::platform::db::Db;
use crate::site;

use super::today;

pub async fn profile(db: &Db, member_id: i64, now: i64) -> Result<MemberProfile, AccountError> {
    store::profile(db, member_id, now).await?.ok_or_else(|| {
        AccountError::Internal(format!("member {member_id} of a live session is missing"))
    })
}

pub async fn jobs(db: &Db, lang: &str) -> Result<JobsResponse, AccountError> {
    Ok(JobsResponse {
        jobs: store::jobs(db)
            .await?
            .into_iter()
            .map(|(id, key)| Job {
                id,
                title: site::i18n::t(lang, &key),
            })
            .collect(),
    })
}

pub fn deactivation_reasons(lang: &str) -> DeactivationReasons {
    DeactivationReasons {
        reasons: DEACTIVATION_REASONS
            .iter()
            .filter_map(|v| {
                Some(DeactivationReason {
                    label: site::i18n::t(lang, &rules::deactivation_reason_key(v)?),
                    value: (*v).into(),
                })
            })
            .collect(),
    }
}

/// Sites that ask a birth date at registration keep asking for one.
pub fn birth_date_required(site_id: u16) -> bool {
    registration_fields(site_id).birth_date == Visibility::Mandatory
}

/// Everything an account page shows.
pub async fn view(
    db: &Db,
    member_id: i64,
    site_id: u16,
    lang: &str,
    now: i64,
) -> Result<AccountView, AccountError> {
    Ok(AccountView {
        profile: profile(db, member_id, now).await?,
        jobs: jobs(db, lang).await?.jobs,
        reasons: deactivation_reasons(lang).reasons,
        birth_date_required: birth_date_required(site_id),
    })
}

/// Saves the personal data; a refused form stores nothing and names every faulty field.
pub async fn update_profile(
    db: &Db,
    member_id: i64,
    site_id: u16,
    req: &ProfileRequest,
    now: i64,
) -> Result<AccountConfirmation, AccountError> {
    let input = ProfileInput {
        first_name: &req.first_name,
        last_name: &req.last_name,
        gender: &req.gender,
        birth_date: &req.birth_date,
        phone: &req.phone,
        birth_date_required: birth_date_required(site_id),
    };
    let checked = check_profile(&input, today(now));
    let known_job = match req.job_id {
        Some(id) => store::jobs(db).await?.iter().any(|(j, _)| *j == id),
        None => true,
    };
    let valid = match (checked, known_job) {
        (Ok(v), true) => v,
        (Ok(_), false) => return Err(AccountError::invalid(&[(F_JOB, "myprofile.errors.job")])),
        (Err(mut errors), known) => {
            if !known {
                errors.push((F_JOB, "myprofile.errors.job"));
            }
            return Err(AccountError::invalid(&errors));
        }
    };
    let mut tx = db.begin().await?;
    store::update_profile(&mut tx, member_id, &valid, req.job_id).await?;
    tx.commit().await?;
    Ok(AccountConfirmation {
        member: Some(profile(db, member_id, now).await?),
        ..AccountConfirmation::new("myprofile.text.personaldata.notification")
    })
}
