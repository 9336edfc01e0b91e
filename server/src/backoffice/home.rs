//! The back office's first page: what is open now and what opens within 48 hours, with
//! their dashboards one click away.
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use leptos::prelude::*;

use app::platform::state::now;

use super::roles::Permission;
use super::sales::store::{self as sales, Filter};
use super::session::Operator;
use super::{ui, PREFIX};
use crate::state::AppCtx;

/// The queues the operator works, with how many items wait in each.
async fn queues(app: &AppCtx, op: &Operator) -> Result<Option<AnyView>, sqlx::Error> {
    let mut items = vec![];
    if op.can(Permission::ManageOrders) {
        let counts = super::orders::store::returns_counts(&app.state.db).await?;
        let n = counts.iter().map(|(_, n)| *n).sum::<i64>();
        items.push((op.t("nav.returns"), n, format!("{PREFIX}/returns")));
    }
    if op.can(Permission::AnswerTickets) {
        let counts = app::help::store::support_counts(&app.state.db).await?;
        let n = counts
            .iter()
            .find(|(s, _)| s == "open")
            .map_or(0, |(_, n)| *n);
        items.push((op.t("nav.support"), n, format!("{PREFIX}/support")));
    }
    if op.can(Permission::ModerateContent) {
        let n = super::moderation::store::waiting(&app.state.db).await?;
        items.push((op.t("nav.moderation"), n, format!("{PREFIX}/moderation")));
    }
    if items.is_empty() {
        return Ok(None);
    }
    let list = items
        .into_iter()
        .map(|(label, n, href)| view! { <li><a href=href>{label}</a>{format!(" · {n}")}</li> })
        .collect_view();
    Ok(Some(
        view! { <h2>{op.t("home.queues")}</h2><ul id="queues">{list}</ul> }.into_any(),
    ))
}

pub async fn page(State(app): State<Arc<AppCtx>>, op: Operator) -> Response {
    let t = |k: &str| op.t(k);
    let queues = match queues(&app, &op).await {
        Ok(q) => q,
        Err(e) => return ui::db_error(e),
    };
    if !op.can(Permission::ReadCatalogue) {
        let body = view! { <p>{op.row.email.clone()}</p>{queues} }.into_any();
        return ui::page(
            StatusCode::OK,
            op.lang(),
            Some(&op),
            t("home.title"),
            None,
            body,
        );
    }
    let at = now();
    let live = Filter {
        state: "live".into(),
        ..Default::default()
    };
    let upcoming = Filter {
        state: "upcoming".into(),
        ..Default::default()
    };
    let (live, upcoming) = match tokio::try_join!(
        sales::list(&app.state.db, &live, at),
        sales::list(&app.state.db, &upcoming, at)
    ) {
        Ok(((live, _), (upcoming, _))) => (live, upcoming),
        Err(e) => return ui::db_error(e),
    };
    // Only a role that may watch an opening gets the links to its dashboard.
    let watch = op.can(Permission::WatchSaleOpening);
    let soon: Vec<_> = upcoming
        .into_iter()
        .filter(|s| s.starts_at <= at + 48 * 3600)
        .collect();
    let list = |rows: Vec<sales::SaleRow>| {
        if rows.is_empty() {
            return view! { <p>{t("home.none")}</p> }.into_any();
        }
        let items = rows
            .into_iter()
            .take(20)
            .map(|s| {
                view! {
                    <li>
                        <a href=format!("{PREFIX}/sales/{}", s.id)>{s.name.clone()}</a>
                        {format!(" · {} · {} → {} · ", super::sales::site_label(s.site_id), ui::when(s.starts_at), ui::when(s.ends_at))}
                        {watch.then(|| view! { <a href=format!("{PREFIX}/sales/{}/dashboard", s.id)>{t("sales.dashboard")}</a> })}
                    </li>
                }
            })
            .collect_view();
        view! { <ul>{items}</ul> }.into_any()
    };
    let body = view! {
        {queues}
        <h2>{t("home.upcoming")}</h2>
        {list(soon)}
        <h2>{t("home.live")}</h2>
        {list(live)}
        <p><a href=format!("{PREFIX}/sales")>{t("nav.sales")}</a></p>
    }
    .into_any();
    ui::page(
        StatusCode::OK,
        op.lang(),
        Some(&op),
        t("home.title"),
        None,
        body,
    )
}
