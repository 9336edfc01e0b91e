//! The transparency report of a period (a month or a year): notices received and decided,
//! counts by reason and decision, the median time to decide, and the same as CSV.
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use leptos::prelude::*;
use serde::Deserialize;

use super::rules::{self, Period, OUTCOMES};
use super::{reason_label, store};
use crate::backoffice::roles::Permission;
use crate::backoffice::session::Operator;
use crate::backoffice::{ui, PREFIX};
use crate::state::AppCtx;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PeriodQuery {
    period: String,
}

/// The period asked for (this month when none); `Err` when it cannot be read.
fn period(q: &PeriodQuery) -> Result<Period, ()> {
    if q.period.trim().is_empty() {
        return Ok(Period::of(app::platform::state::now()));
    }
    Period::parse(&q.period).ok_or(())
}

pub async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(q): Query<PeriodQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ModerateContent) {
        return r;
    }
    let t = |k: &str| op.t(k);
    let (chosen, status, error) = match period(&q) {
        Ok(p) => (p, StatusCode::OK, None),
        Err(()) => (
            Period::of(app::platform::state::now()),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(
                view! { <p class="bo-error" role="alert" id="err-period">{t("transparency.error.period")}</p> },
            ),
        ),
    };
    let (from, until) = chosen.bounds();
    let rows = match store::period(&app.state.db, from, until).await {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let report = rules::report(&rows);
    let head = OUTCOMES
        .iter()
        .map(|o| view! { <th scope="col" class="num">{op.t(&format!("decision.{o}")).to_string()}</th> })
        .collect_view();
    let cells = |counts: &[usize; 5]| {
        counts
            .iter()
            .map(|c| view! { <td class="num">{*c}</td> })
            .collect_view()
    };
    let rows_view = report
        .by_reason
        .iter()
        .map(|(reason, counts)| {
            view! {
                <tr data-reason=reason.as_str()>
                    <th scope="row">{reason_label(&op, reason.as_str())}</th>
                    {cells(counts)}
                    <td class="num">{counts.iter().sum::<usize>()}</td>
                </tr>
            }
        })
        .collect_view();
    let median = report.median_secs.map_or_else(
        || t("transparency.no_median").to_string(),
        |s| format!("{} h", rules::hours(s)),
    );
    let label = chosen.label();
    let csv_href = format!("{PREFIX}/transparency.csv?period={label}");
    let body = view! {
        <form method="get" action=format!("{PREFIX}/transparency") class="bo-inline">
            <label for="period">{t("transparency.period")}</label>
            <input id="period" name="period" value=label.clone() maxlength="7" pattern="[0-9]{4}(-[0-9]{2})?"
                aria-describedby="period-hint" aria-invalid=error.is_some().then_some("true") />
            <button type="submit" class="bo-secondary">{t("transparency.show")}</button>
        </form>
        <p id="period-hint" class="bo-hint">{t("transparency.period_hint")}</p>
        {error}
        <dl class="bo-facts" id="transparency-figures">
            <dt>{t("transparency.received")}</dt><dd>{report.received}</dd>
            <dt>{t("transparency.decided")}</dt><dd>{report.decided}</dd>
            <dt>{t("transparency.median")}</dt><dd id="median">{median}</dd>
        </dl>
        <div class="bo-table-wrap" tabindex="0">
            <table id="transparency">
                <caption>{format!("{} {label}", t("transparency.caption"))}</caption>
                <thead><tr><th scope="col">{t("moderation.reasons")}</th>{head}<th scope="col" class="num">{t("transparency.notices")}</th></tr></thead>
                <tbody>{rows_view}</tbody>
                <tfoot><tr><th scope="row">{t("transparency.total")}</th>{cells(&report.totals)}<td class="num">{report.received}</td></tr></tfoot>
            </table>
        </div>
        <p><a href=csv_href download=format!("transparency-{label}.csv")>{t("transparency.csv")}</a></p>
    }
    .into_any();
    ui::page(
        status,
        op.lang(),
        Some(&op),
        t("transparency.title"),
        None,
        body,
    )
}

pub async fn csv(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(q): Query<PeriodQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ModerateContent) {
        return r;
    }
    let Ok(chosen) = period(&q) else {
        return ui::message_page(
            op.lang(),
            Some(&op),
            StatusCode::UNPROCESSABLE_ENTITY,
            op.t("transparency.error.period"),
        );
    };
    let (from, until) = chosen.bounds();
    let rows = match store::period(&app.state.db, from, until).await {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let body = rules::csv(chosen, &rules::report(&rows));
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!(
                    "attachment; filename=\"transparency-{}.csv\"",
                    chosen.label()
                ),
            ),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        body,
    )
        .into_response()
}
