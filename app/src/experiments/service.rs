//! Experiments operations: the experiments of a page view (decided and recorded before
//! rendering), the variations call, the report, and the operators' controls with the
//! settings they give the shop ([`Live`]).
use std::sync::{Arc, RwLock};

use sqlx::{Any, Transaction};

use super::controls::{self, Control, Status};
use super::error::ExperimentsError;
use super::report::{self, Counts, Line};
use super::rules::{self, Audience, Definition, Settings, Subject};
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

/// The settings this process decides with: the environment's ([`Settings::current`]) and
/// the operators' controls, replaced after each change made here and reloaded on a
/// schedule for the changes other instances (or the command line) make.
pub struct Live {
    base: Settings,
    /// The settings, with the sum of the controls' versions they were built from: versions
    /// only grow, so a reload that read the table before a change cannot put back what
    /// the change's own reload installed.
    current: RwLock<(i64, Arc<Settings>)>,
}

impl Live {
    /// `base` alone, until [`Live::reload`] reads the controls.
    pub fn new(base: Settings) -> Live {
        let current = RwLock::new((-1, Arc::new(base.clone())));
        Live { base, current }
    }

    pub fn base(&self) -> &Settings {
        &self.base
    }

    pub fn current(&self) -> Arc<Settings> {
        let cur = self.current.read().unwrap_or_else(|e| e.into_inner());
        cur.1.clone()
    }

    pub async fn reload(&self, db: &Db) -> Result<(), sqlx::Error> {
        let stored = store::controls(db).await?;
        let generation = stored.iter().map(|c| c.version).sum::<i64>();
        let settings = Arc::new(controls::effective(&self.base, &stored));
        let mut cur = self.current.write().unwrap_or_else(|e| e.into_inner());
        if generation >= cur.0 {
            *cur = (generation, settings);
        }
        Ok(())
    }
}

/// One experiment as the experiments page shows it.
#[derive(Clone, Debug)]
pub struct Overview {
    pub def: &'static Definition,
    pub control: Control,
    /// Whether visitors are in it now (running, and experiments not off for the process).
    pub runs: bool,
    /// The weights the shop uses, in the variations' order.
    pub weights: Vec<u32>,
    /// The report's line of each variation, in the variations' order (zeros before the
    /// first visitor).
    pub lines: Vec<Line>,
}

/// Every experiment with its control, weights and figures: the report's lines (the same
/// numbers as `server experiments report`) beside the controls.
pub async fn overview(db: &Db, base: &Settings) -> Result<Vec<Overview>, ExperimentsError> {
    let lines = report(db).await?;
    let every = controls::every(store::controls(db).await?);
    let settings = controls::effective(base, &every);
    Ok(every
        .into_iter()
        .filter_map(|control| {
            let def = rules::definition(control.experiment)?;
            let lines = def
                .variations
                .iter()
                .map(|(v, _)| {
                    lines
                        .iter()
                        .find(|l| l.counts.experiment == def.name && l.counts.variation == *v)
                        .cloned()
                        .unwrap_or_else(|| {
                            report::line(Counts {
                                experiment: def.name.to_string(),
                                variation: v.to_string(),
                                visitors: 0,
                                exposures: 0,
                                conversions: 0,
                            })
                        })
                })
                .collect();
            Some(Overview {
                def,
                runs: settings.runs(def),
                weights: settings.weights_of(def),
                control,
                lines,
            })
        })
        .collect())
}

/// What an operator does to an experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Start,
    Stop,
    /// New weights in the variations' order (see `controls::check_weights`).
    Reweigh(Vec<u32>),
}

impl Change {
    /// The audit log's action.
    pub fn action(&self) -> &'static str {
        match self {
            Change::Start => "start",
            Change::Stop => "stop",
            Change::Reweigh(_) => "reweigh",
        }
    }
}

/// A change made: each field's before and after, as the audit log summarises it.
#[derive(Clone, Debug)]
pub struct Changed {
    pub fields: Vec<(&'static str, String, String)>,
}

/// Starts, stops or reweighs experiment `name` if its control is still at version `seen`
/// (what the operator's page showed; `None`: whatever it is now, for the command line),
/// in the caller's transaction so that the audit record commits with it. `Ok(None)`:
/// nothing to change (already in that state). `base` gives the weights a reweigh replaces
/// when none were stored.
pub async fn change(
    tx: &mut Transaction<'static, Any>,
    base: &Settings,
    name: &str,
    seen: Option<i64>,
    change: &Change,
    by: (Option<i64>, &str),
    now: i64,
) -> Result<Option<Changed>, ExperimentsError> {
    let def = rules::definition(name).ok_or(ExperimentsError::UnknownExperiment)?;
    if let Change::Reweigh(w) = change {
        controls::valid_weights(def, w).map_err(ExperimentsError::Weights)?;
    }
    let before = store::control_for_update(tx, def).await?;
    let seen = seen.unwrap_or(before.version);
    if seen != before.version {
        return Err(ExperimentsError::Changed);
    }
    let mut after = before.clone();
    match change {
        Change::Start => after.status = Status::Running,
        Change::Stop => after.status = Status::Stopped,
        Change::Reweigh(w) => after.weights = Some(w.clone()),
    }
    let weights = |c: &Control| {
        let w = c.weights.clone().unwrap_or_else(|| base.weights_of(def));
        controls::weights_text(def, &w)
    };
    let fields: Vec<(&'static str, String, String)> = [
        (
            "status",
            before.status.as_str().to_string(),
            after.status.as_str().to_string(),
        ),
        ("weights", weights(&before), weights(&after)),
    ]
    .into_iter()
    .filter(|(_, b, a)| b != a)
    .collect();
    if fields.is_empty() {
        return Ok(None);
    }
    after.updated_by = by.1.to_string();
    after.updated_at = now;
    if !store::save_control(tx, def, &after, seen, by.0).await? {
        return Err(ExperimentsError::Changed);
    }
    Ok(Some(Changed { fields }))
}
