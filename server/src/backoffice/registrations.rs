//! The registrations report: how many accounts each source brought over a period (the
//! entry links' `utm_*`, `formid`, `partnerid`, `godfathertype` and open-door pages,
//! `app::auth::attribution`), how many were activated and how many bought, per site or
//! for all. Read only; marketing's page, beside the campaigns.
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use leptos::prelude::*;

use app::auth::attribution::credits::{self, PartnerLine};
use app::auth::attribution::store::{self, ReportLine, MAX_LINES};
use app::auth::attribution::Dimension;
use app::travel::rules::Date;

use super::roles::Permission;
use super::session::Operator;
use super::{ui, PREFIX};
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new().route(&format!("{PREFIX}/registrations"), get(page))
}

/// The report's fields, as typed.
#[derive(serde::Deserialize, Default, Clone, Debug)]
#[serde(default)]
pub struct Filter {
    pub by: String,
    pub site: String,
    /// `YYYY-MM-DD`, UTC, both included; empty: the last 30 days.
    pub from: String,
    pub until: String,
}

const DEFAULT_DAYS: i64 = 30;

/// The period's first second and the second after its last day, or the key of what is
/// wrong with it.
fn period(f: &Filter, now: i64) -> Result<(Date, Date), &'static str> {
    let today = Date::from_unix(now);
    let day = |s: &str, default: Date| match s.trim() {
        "" => Ok(default),
        s => Date::parse(s).ok_or("orders.error.date"),
    };
    let until = day(&f.until, today)?;
    let from = day(&f.from, until.add_days(1 - DEFAULT_DAYS))?;
    if from > until {
        return Err("registrations.error.order");
    }
    Ok((from, until))
}

fn unix(d: Date) -> i64 {
    Date::from_unix(0).days_until(d) * 86_400
}

fn share(part: i64, whole: i64) -> String {
    if whole == 0 {
        "–".into()
    } else {
        format!("{:.1} %", part as f64 * 100.0 / whole as f64)
    }
}

/// A value as the operator reads it: none given is "direct", open-door is yes or no.
fn value_label(op: &Operator, by: Dimension, value: &str) -> String {
    match (by, value) {
        (Dimension::OpenDoor, "1") => op.t("registrations.yes").into(),
        (Dimension::OpenDoor, _) => op.t("registrations.no").into(),
        (_, "") => op.t("registrations.direct").into(),
        (_, v) => v.into(),
    }
}

async fn page(State(app): State<Arc<AppCtx>>, op: Operator, Query(f): Query<Filter>) -> Response {
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let t = |k: &str| op.t(k);
    let by = Dimension::parse(&f.by);
    let site: i64 = f.site.trim().parse().unwrap_or(0);
    let now = app::platform::state::now();
    let (lines, partners, error, shown) = match period(&f, now) {
        Ok((from, until)) => {
            let (start, end) = (unix(from), unix(until.add_days(1)));
            let lines = match store::report(&app.state.db, by, site, start, end).await {
                Ok(l) => l,
                Err(e) => return ui::db_error(e),
            };
            let partners = match credits::report(&app.state.db, site, start, end).await {
                Ok(p) => p,
                Err(e) => return ui::db_error(e),
            };
            (lines, partners, None, (from.to_string(), until.to_string()))
        }
        Err(key) => (
            Vec::new(),
            Vec::new(),
            Some(key),
            (f.from.clone(), f.until.clone()),
        ),
    };
    let dimensions = Dimension::ALL
        .iter()
        .map(|d| {
            view! { <option value=d.name() selected=*d == by>{t(&format!("registrations.by.{}", d.name()))}</option> }
        })
        .collect_view();
    let total = lines.iter().fold(ReportLine::default(), |mut acc, l| {
        acc.registered += l.registered;
        acc.activated += l.activated;
        acc.buyers += l.buyers;
        acc
    });
    let row = |label: String, l: &ReportLine, head: bool| {
        let cells = view! {
            <td class="num">{l.registered}</td>
            <td class="num">{l.activated}</td>
            <td class="num">{l.buyers}</td>
            <td class="num">{share(l.buyers, l.registered)}</td>
        };
        if head {
            view! { <tr data-total=""><th scope="row">{label}</th>{cells}</tr> }.into_any()
        } else {
            view! { <tr data-value=l.value.clone()><th scope="row">{label}</th>{cells}</tr> }
                .into_any()
        }
    };
    let list = if lines.is_empty() {
        error
            .is_none()
            .then(|| view! { <p data-testid="registrations-none">{t("registrations.none")}</p> })
            .into_any()
    } else {
        let body = lines
            .iter()
            .map(|l| row(value_label(&op, by, &l.value), l, false))
            .collect_view();
        let capped = (lines.len() as i64 == MAX_LINES).then(|| {
            view! { <p>{op.t("registrations.capped").replace("{count}", &MAX_LINES.to_string())}</p> }
        });
        view! {
            <div class="bo-table-wrap" tabindex="0">
                <table id="registrations">
                    <caption>{format!("{} · {} → {}", t(&format!("registrations.by.{}", by.name())), shown.0, shown.1)}</caption>
                    <thead><tr>
                        <th scope="col">{t(&format!("registrations.by.{}", by.name()))}</th>
                        <th scope="col" class="num">{t("registrations.registered")}</th>
                        <th scope="col" class="num">{t("registrations.activated")}</th>
                        <th scope="col" class="num">{t("registrations.buyers")}</th>
                        <th scope="col" class="num">{t("registrations.share")}</th>
                    </tr></thead>
                    <tbody>{body}</tbody>
                    <tfoot>{row(t("registrations.total").into(), &total, true)}</tfoot>
                </table>
            </div>
            {capped}
        }
        .into_any()
    };
    let partners_view = error.is_none().then(|| partners_table(&op, &partners));
    let error_view = error.map(|k| view! { <p class="bo-error" role="alert">{op.t(k)}</p> });
    let status = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let body = view! {
        <p>{t("registrations.intro")}</p>
        <form method="get" action=format!("{PREFIX}/registrations") class="bo-inline" id="registrations-filter">
            <label for="by">{t("registrations.group")}</label>
            <select id="by" name="by">{dimensions}</select>
            <label for="site">{t("sales.site")}</label>
            <select id="site" name="site">{super::sales::site_options(site, Some(t("sales.any_site")))}</select>
            <label for="from">{t("orders.from")}</label>
            <input id="from" name="from" type="date" value=shown.0.clone() />
            <label for="until">{t("orders.until")}</label>
            <input id="until" name="until" type="date" value=shown.1.clone() />
            <button type="submit" class="bo-secondary">{t("registrations.show")}</button>
        </form>
        {error_view}
        {list}
        {partners_view}
    }
    .into_any();
    ui::page(
        status,
        op.lang(),
        Some(&op),
        t("registrations.title"),
        None,
        body,
    )
}

/// What each partner brought over the period: registrations, sign-ins within the hour of
/// the partner's visit, and paid orders within 30 days of its last click
/// (`app::auth::attribution::partner`).
fn partners_table(op: &Operator, lines: &[PartnerLine]) -> AnyView {
    let t = |k: &str| op.t(k);
    let heading = view! { <h2 id="partners-title">{t("registrations.partners")}</h2> };
    if lines.is_empty() {
        return view! { {heading}<p data-testid="partners-none">{t("registrations.partners_none")}</p> }
            .into_any();
    }
    let body = lines
        .iter()
        .map(|l| {
            view! {
                <tr data-partner=l.partner.clone()>
                    <th scope="row">{l.partner.clone()}</th>
                    <td class="num">{l.registrations}</td>
                    <td class="num">{l.sign_ins}</td>
                    <td class="num">{l.orders}</td>
                    <td class="num">{format!("{} EUR", ui::amount(l.revenue))}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        {heading}
        <p>{t("registrations.partners_intro")}</p>
        <div class="bo-table-wrap" tabindex="0">
            <table id="partners" aria-labelledby="partners-title">
                <thead><tr>
                    <th scope="col">{t("registrations.by.partner")}</th>
                    <th scope="col" class="num">{t("registrations.registered")}</th>
                    <th scope="col" class="num">{t("registrations.sign_ins")}</th>
                    <th scope="col" class="num">{t("registrations.orders")}</th>
                    <th scope="col" class="num">{t("registrations.revenue")}</th>
                </tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(from: &str, until: &str) -> Filter {
        Filter {
            from: from.into(),
            until: until.into(),
            ..Filter::default()
        }
    }

    #[test]
    fn the_period_defaults_to_the_last_thirty_days_and_is_checked() {
        let now = unix(Date::parse("2026-12-06").unwrap()) + 3_600;
        let (from, until) = period(&Filter::default(), now).unwrap();
        assert_eq!(
            (from.to_string(), until.to_string()),
            ("2026-11-07".into(), "2026-12-06".into())
        );
        let (from, _) = period(&filter("", "2026-01-31"), now).unwrap();
        assert_eq!(from.to_string(), "2026-01-02");
        assert_eq!(
            period(&filter("2026-13-01", ""), now),
            Err("orders.error.date")
        );
        assert_eq!(period(&filter("demain", ""), now), Err("orders.error.date"));
        assert_eq!(
            period(&filter("2026-12-02", "2026-12-01"), now),
            Err("registrations.error.order")
        );
        assert_eq!(share(1, 3), "33.3 %");
        assert_eq!(share(0, 0), "–");
    }
}
