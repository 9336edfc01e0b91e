//! Experiments operations: the experiments of a page view (decided and recorded before
//! rendering), the variations call, and the report.
use super::error::ExperimentsError;
use super::report::{self, Line};
use super::rules::{self, Audience, Settings, Subject};
use super::store;
use crate::model::experiments::{ExperimentVariation, ExperimentVariations, Experiments};
use crate::platform::db::Db;

/// Who is viewing a page, for the experiments.
#[derive(Clone, Debug)]
pub struct Viewer<'a> {
    pub site_id: u16,
    pub member_id: Option<i64>,
    /// The anonymous id cookie, when the browser sent a valid one.
    pub anon_id: Option<&'a str>,
}

/// The experiments of a page view, and whether the view is recorded: a member always, an
/// anonymous visitor once their browser sends the id back (a client that drops cookies,
/// as most robots do, is never counted). One transaction: the exposures, and the link of
/// the browser's anonymous assignments to the member now signed in.
pub async fn page_view(
    writer: &super::writer::ExposureWriter,
    settings: &Settings,
    viewer: &Viewer<'_>,
    new_anon_id: &str,
    now: i64,
) -> Result<Experiments, ExperimentsError> {
    let subject = match (viewer.member_id, viewer.anon_id) {
        (Some(id), _) => Subject::Member(id),
        (None, Some(anon)) => Subject::Anonymous(anon.to_string()),
        (None, None) => Subject::Anonymous(new_anon_id.to_string()),
    };
    let experiments = settings.experiments_for(subject.audience(), &subject.key());
    let recorded = viewer.member_id.is_some() || viewer.anon_id.is_some();
    if recorded && !settings.disabled {
        writer
            .write(super::writer::Exposure {
                site_id: viewer.site_id,
                visitor: subject.key(),
                member_id: viewer.member_id,
                assigned: experiments.assigned.clone(),
                now,
                link_anonymous: viewer
                    .member_id
                    .and(viewer.anon_id)
                    .map(|anon| Subject::Anonymous(anon.into()).key()),
            })
            .await
            .map_err(|e| ExperimentsError::Storage(sqlx::Error::Protocol(e)))?;
    }
    Ok(experiments)
}

/// The variations call (spec 000 §7): each named experiment's variation for the member or
/// anonymous id of the path. Reads nothing and records nothing: the assignment is the
/// deterministic bucketing, and exposures are recorded where the features are shown.
pub fn variations(
    settings: &Settings,
    site_id: &str,
    member_id: &str,
    names: &[String],
    segment: Option<&str>,
) -> Result<ExperimentVariations, ExperimentsError> {
    let site_known = site_id
        .parse::<u16>()
        .ok()
        .and_then(crate::site::by_id)
        .is_some();
    let (subject, defs) = rules::check_call(site_known, member_id, names, segment)
        .map_err(ExperimentsError::Refused)?;
    let key = subject.key();
    Ok(ExperimentVariations {
        variations: defs
            .iter()
            .map(|d| {
                let variation = settings.variation(d, &key);
                ExperimentVariation {
                    experiment_name: d.name.to_string(),
                    variation: variation.to_string(),
                    control: variation == d.control(),
                }
            })
            .collect(),
    })
}

/// The report's lines, every experiment and variation with a visitor.
pub async fn report(db: &Db) -> Result<Vec<Line>, ExperimentsError> {
    Ok(store::counts(db)
        .await?
        .into_iter()
        .map(report::line)
        .collect())
}

/// The audience of a viewer.
pub fn audience(member_id: Option<i64>) -> Audience {
    if member_id.is_some() {
        Audience::Member
    } else {
        Audience::Anonymous
    }
}
