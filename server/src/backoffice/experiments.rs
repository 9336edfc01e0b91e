//! The experiments page: every experiment with its status, its variations' weights and the
//! report's figures (`app::experiments::service::overview`, the numbers of
//! `server experiments report`), and the forms that start, stop and reweigh one through
//! `app::experiments::service::change`, the service `server experiments start|stop` uses.
//! Each form carries the control's version its page showed: a second operator acting on a
//! page that is no longer true is told (409) and nothing changes.
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;

use app::experiments::controls::{self, Status};
use app::experiments::error::ExperimentsError;
use app::experiments::report::Line;
use app::experiments::rules::{self, Audience};
use app::experiments::service::{self, Change, Live, Overview};
use app::platform::db::Db;

use super::audit::{self, Actor, Entry};
use super::roles::Permission;
use super::session::{Operator, OperatorForm};
use super::{ui, PREFIX};
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/experiments"), get(page))
        .route(&format!("{PREFIX}/experiments/{{name}}/start"), post(start))
        .route(&format!("{PREFIX}/experiments/{{name}}/stop"), post(stop))
        .route(
            &format!("{PREFIX}/experiments/{{name}}/weights"),
            post(reweigh),
        )
}

type Fields = OperatorForm<Vec<(String, String)>>;

async fn start(app: State<Arc<AppCtx>>, name: Path<String>, form: Fields) -> Response {
    act(app, name, form, Action::Start).await
}

async fn stop(app: State<Arc<AppCtx>>, name: Path<String>, form: Fields) -> Response {
    act(app, name, form, Action::Stop).await
}

async fn reweigh(app: State<Arc<AppCtx>>, name: Path<String>, form: Fields) -> Response {
    act(app, name, form, Action::Reweigh).await
}

/// Starts, stops or reweighs `name` with its audit record in one transaction, then (when
/// this process serves the shop) puts the new settings in use. `seen`: the version the
/// operator's page showed (`None` from the command line: the current one).
pub async fn apply(
    db: &Db,
    live: &Live,
    actor: &Actor,
    name: &str,
    seen: Option<i64>,
    change: &Change,
) -> Result<bool, ExperimentsError> {
    let now = app::platform::state::now();
    let mut tx = db.begin().await?;
    let by = (actor.operator_id, actor.email.as_str());
    let Some(changed) = service::change(&mut tx, live.base(), name, seen, change, by, now).await?
    else {
        return Ok(false);
    };
    let summary = changed
        .fields
        .iter()
        .filter_map(|(field, before, after)| audit::change(field, before, after))
        .collect::<Vec<_>>()
        .join("; ");
    let entry = Entry {
        action: change.action(),
        object_kind: "experiment",
        object_id: name.to_string(),
        summary,
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    if let Err(e) = live.reload(db).await {
        // Committed: the periodic reload puts it in use shortly.
        tracing::warn!(error = %e, experiment = name, "experiment change saved, not yet in use");
    }
    Ok(true)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PageQuery {
    done: String,
}

const DONE: [&str; 4] = ["start", "stop", "reweigh", "unchanged"];

async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(q): Query<PageQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::RunExperiments) {
        return r;
    }
    let notice = DONE
        .contains(&q.done.as_str())
        .then(|| op.t(&format!("experiments.done.{}", q.done)).to_string());
    render(&app, &op, notice, None, StatusCode::OK).await
}

/// A refused form, shown again on its experiment with its message and what was typed.
struct Refused {
    experiment: &'static str,
    /// The text key, and the variation it is about.
    message: (&'static str, Option<String>),
    typed: Vec<(String, String)>,
}

async fn render(
    app: &AppCtx,
    op: &Operator,
    notice: Option<String>,
    refused: Option<Refused>,
    status: StatusCode,
) -> Response {
    let mut all = match service::overview(&app.state.db, app.experiments.base()).await {
        Ok(o) => o,
        Err(ExperimentsError::Storage(e)) => return ui::db_error(e),
        Err(e) => return ui::db_error(sqlx::Error::Protocol(e.to_string())),
    };
    // The running ones first (what is live on the shop), then by name.
    all.sort_by_key(|o| (o.control.status != Status::Running, o.def.name));
    let t = |k: &str| op.t(k);
    let recorded = all
        .iter()
        .any(|o| o.lines.iter().any(|l| l.counts.visitors > 0));
    let off = app.experiments.base().disabled;
    let sections = all
        .iter()
        .map(|o| {
            let refused = refused.as_ref().filter(|r| r.experiment == o.def.name);
            section(op, o, refused)
        })
        .collect_view();
    let body = view! {
        <p>{t("experiments.help")}</p>
        <p>{t("experiments.help_stop")}</p>
        <p>{t("experiments.help_weights")}</p>
        <p>{t("experiments.multi")}</p>
        {off.then(|| view! { <p class="bo-error" role="alert" id="experiments-off">{t("experiments.off")}</p> })}
        {(!recorded).then(|| view! { <p id="experiments-empty">{t("experiments.none")}</p> })}
        <div id="experiments">{sections}</div>
    }
    .into_any();
    ui::page(
        status,
        op.lang(),
        Some(op),
        t("experiments.title"),
        notice,
        body,
    )
}

fn percent(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

fn section(op: &Operator, o: &Overview, refused: Option<&Refused>) -> impl IntoView {
    let t = |k: &str| op.t(k);
    let name = o.def.name;
    let status = o.control.status.as_str();
    let version = o.control.version.to_string();
    let (version_attr, version_toggle) = (version.clone(), version.clone());
    let audience = match o.def.audience {
        Audience::Anonymous => t("experiments.audience.anonymous"),
        Audience::Member => t("experiments.audience.member"),
    };
    let audience = if o.def.is_holdback() {
        format!("{audience} · {}", t("experiments.holdback"))
    } else {
        audience.to_string()
    };
    let last = if o.control.updated_at > 0 {
        format!(
            "{} · {}",
            o.control.updated_by,
            ui::when(o.control.updated_at)
        )
    } else {
        t("experiments.never").to_string()
    };
    let total: u64 = o.weights.iter().map(|w| u64::from(*w)).sum();
    let typed = |variation: &str, weight: u32| {
        refused
            .and_then(|r| {
                r.typed
                    .iter()
                    .find(|(v, _)| v == variation)
                    .map(|(_, w)| w.clone())
            })
            .unwrap_or_else(|| weight.to_string())
    };
    let rows = o
        .def
        .variations
        .iter()
        .zip(&o.weights)
        .zip(&o.lines)
        .map(|(((v, _), w), l)| row(op, o, v, *w, total, l))
        .collect_view();
    let inputs = o
        .def
        .variations
        .iter()
        .zip(&o.weights)
        .map(|((v, _), w)| {
            let id = format!("w-{name}-{v}");
            view! {
                <div class="bo-field">
                    <label for=id.clone()>{v.to_string()}</label>
                    <input id=id type="number" min="0" max=controls::MAX_WEIGHT.to_string() step="1"
                        name=format!("weight.{v}") value=typed(v, *w) required />
                </div>
            }
        })
        .collect_view();
    let error = refused.map(|r| {
        let text = match &r.message.1 {
            Some(v) => format!("{} ({v})", op.t(r.message.0)),
            None => op.t(r.message.0).to_string(),
        };
        view! { <p class="bo-error" role="alert" data-error-for=name>{text}</p> }
    });
    let (toggle, label) = match o.control.status {
        Status::Running => ("stop", t("experiments.stop")),
        Status::Stopped => ("start", t("experiments.start")),
    };
    view! {
        <section id=format!("exp-{name}") data-experiment=name data-status=status data-version=version_attr>
            <h2>{name}</h2>
            <dl class="bo-facts">
                <dt>{t("experiments.status")}</dt>
                <dd><strong>{op.t(&format!("experiments.status.{status}")).to_string()}</strong></dd>
                <dt>{t("experiments.audience")}</dt><dd>{audience}</dd>
                <dt>{t("experiments.last_change")}</dt><dd>{last}</dd>
            </dl>
            <div class="bo-table-wrap" tabindex="0">
            <table class="bo-table">
                <thead><tr>
                    <th scope="col">{t("experiments.variation")}</th>
                    <th scope="col">{t("experiments.weight")}</th>
                    <th scope="col">{t("experiments.share")}</th>
                    <th scope="col">{t("experiments.visitors")}</th>
                    <th scope="col">{t("experiments.exposures")}</th>
                    <th scope="col">{t("experiments.conversions")}</th>
                    <th scope="col">{t("experiments.rate")}</th>
                    <th scope="col">{t("experiments.interval")}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
            </div>
            {error}
            <form method="post" action=format!("{PREFIX}/experiments/{name}/{toggle}") class="bo-inline">
                {ui::xsrf_field(op)}
                <input type="hidden" name="version" value=version_toggle />
                <button type="submit" class="bo-secondary">{label}</button>
            </form>
            <form method="post" action=format!("{PREFIX}/experiments/{name}/weights") class="bo-stack">
                {ui::xsrf_field(op)}
                <input type="hidden" name="version" value=version />
                {inputs}
                <button type="submit">{t("experiments.reweigh")}</button>
            </form>
        </section>
    }
}

fn row(
    op: &Operator,
    o: &Overview,
    variation: &str,
    weight: u32,
    total: u64,
    l: &Line,
) -> impl IntoView {
    let c = &l.counts;
    let control =
        (variation == o.def.control()).then(|| format!(" ({})", op.t("experiments.control")));
    let share = if total == 0 {
        "0.00%".to_string()
    } else {
        percent(f64::from(weight) / total as f64)
    };
    view! {
        <tr data-variation=variation.to_string()>
            <th scope="row">{variation.to_string()}{control}</th>
            <td data-figure="weight">{weight}</td>
            <td data-figure="share">{share}</td>
            <td data-figure="visitors">{c.visitors}</td>
            <td data-figure="exposures">{c.exposures}</td>
            <td data-figure="conversions">{c.conversions}</td>
            <td data-figure="rate">{percent(l.rate)}</td>
            <td data-figure="interval">{format!("[{}, {}]", percent(l.low), percent(l.high))}</td>
        </tr>
    }
}

#[derive(Clone, Copy)]
enum Action {
    Start,
    Stop,
    Reweigh,
}

async fn act(
    State(app): State<Arc<AppCtx>>,
    Path(name): Path<String>,
    form: Fields,
    action: Action,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::RunExperiments) {
        return r;
    }
    let Some(def) = rules::definition(&name) else {
        return ui::not_found(op);
    };
    let field = |k: &str| {
        form.fields
            .iter()
            .find(|(f, _)| f == k)
            .map(|(_, v)| v.as_str())
    };
    let Some(seen) = field("version").and_then(|v| v.trim().parse::<i64>().ok()) else {
        return ui::message_page(
            op.lang(),
            Some(op),
            StatusCode::BAD_REQUEST,
            op.t("form.errors"),
        );
    };
    let change = match action {
        Action::Start => Change::Start,
        Action::Stop => Change::Stop,
        Action::Reweigh => {
            let typed: Vec<(String, String)> = form
                .fields
                .iter()
                .filter_map(|(k, v)| {
                    k.strip_prefix("weight.")
                        .map(|var| (var.to_string(), v.clone()))
                })
                .collect();
            let pairs: Vec<(&str, &str)> = typed
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            match controls::check_weights(def, &pairs) {
                Ok(w) => Change::Reweigh(w),
                Err(e) => {
                    let refused = Refused {
                        experiment: def.name,
                        message: (e.key(), e.variation().map(str::to_string)),
                        typed,
                    };
                    return render(&app, op, None, Some(refused), StatusCode::BAD_REQUEST).await;
                }
            }
        }
    };
    match apply(
        &app.state.db,
        &app.experiments,
        &op.actor(),
        def.name,
        Some(seen),
        &change,
    )
    .await
    {
        Ok(true) => ui::see_other(&format!("{PREFIX}/experiments?done={}", change.action())),
        Ok(false) => ui::see_other(&format!("{PREFIX}/experiments?done=unchanged")),
        Err(ExperimentsError::Changed) => {
            let refused = Refused {
                experiment: def.name,
                message: ("experiments.changed", None),
                typed: Vec::new(),
            };
            render(&app, op, None, Some(refused), StatusCode::CONFLICT).await
        }
        Err(ExperimentsError::Weights(e)) => {
            let refused = Refused {
                experiment: def.name,
                message: (e.key(), e.variation().map(str::to_string)),
                typed: Vec::new(),
            };
            render(&app, op, None, Some(refused), StatusCode::BAD_REQUEST).await
        }
        Err(ExperimentsError::UnknownExperiment) => ui::not_found(op),
        Err(ExperimentsError::Storage(e)) => ui::db_error(e),
        Err(e) => ui::db_error(sqlx::Error::Protocol(e.to_string())),
    }
}
