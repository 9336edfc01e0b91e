//! The live sale-opening dashboard: per option its stock, held, sold and available units;
//! adds to cart and payments per second; adds refused as sold out and failed in the last
//! minute; the checkout waiting line's length and longest wait. Every figure is read from
//! the database (the counters are written by every instance), so it is right with several
//! instances on one database. The page shows them server-rendered; the back office's script
//! then takes a new reading every second from a server-sent event stream, without a reload.
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use leptos::prelude::*;
use sqlx::Row;

use app::platform::db::Db;
use app::platform::state::now;

use super::roles::Permission;
use super::sales::store as sales;
use super::session::Operator;
use super::{store, ui, PREFIX};
use crate::state::AppCtx;

/// How long one stream lasts before the browser opens a new one (EventSource reconnects by
/// itself): the operator's session is checked again then.
const STREAM_SECS: u64 = 300;
const WINDOW_SECS: i64 = 10;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/sales/{{id}}/dashboard"), get(page))
        .route(&format!("{PREFIX}/sales/{{id}}/dashboard/live"), get(live))
}

pub use app::model::backoffice::{DashboardFigures as Figures, DashboardOption as OptionFigures};

fn per_second(n: i64) -> String {
    format!("{:.1}", n as f64 / WINDOW_SECS as f64)
}

pub async fn figures(db: &Db, sale_id: i64, at: i64) -> Result<Figures, sqlx::Error> {
    let options = sales::stock_of_sale(db, sale_id)
        .await?
        .into_iter()
        .filter_map(|r| {
            Some(OptionFigures {
                id: r.option_id?,
                product: r.product_name,
                label: r.label,
                stock: r.stock,
                held: r.held,
                sold: r.sold,
                available: r.stock - r.held - r.sold,
            })
        })
        .collect();
    let counters = sqlx::query(
        "SELECT CAST(COALESCE(SUM(CASE WHEN second > $2 THEN added ELSE 0 END), 0) AS BIGINT) AS added,
                CAST(COALESCE(SUM(refused), 0) AS BIGINT) AS refused,
                CAST(COALESCE(SUM(failed), 0) AS BIGINT) AS failed
         FROM sale_opening_counters WHERE sale_id = $1 AND second > $3",
    )
    .bind(sale_id)
    .bind(at - WINDOW_SECS)
    .bind(at - 60)
    .fetch_one(&db.pool)
    .await?;
    let payments: i64 = sqlx::query_scalar(
        "SELECT COUNT(DISTINCT o.id) FROM order_items i JOIN orders o ON o.id = i.order_id
         WHERE i.sale_id = $1 AND o.created_at > $2",
    )
    .bind(sale_id)
    .bind(at - WINDOW_SECS)
    .fetch_one(&db.pool)
    .await?;
    let line = sqlx::query(
        "SELECT COUNT(*) AS n, MIN(CASE WHEN queued_at > 0 THEN queued_at END) AS first
         FROM checkout_line WHERE state = 'queued'",
    )
    .fetch_one(&db.pool)
    .await?;
    let first: Option<i64> = line.try_get("first")?;
    Ok(Figures {
        at: ui::when(at) + &format!(":{:02}", at.rem_euclid(60)),
        options,
        adds_per_second: per_second(counters.try_get("added")?),
        payments_per_second: per_second(payments),
        refused_last_minute: counters.try_get("refused")?,
        failed_last_minute: counters.try_get("failed")?,
        line_length: line.try_get("n")?,
        longest_wait_secs: first.map(|f| (at - f).max(0)).unwrap_or(0),
    })
}

pub async fn page(State(app): State<Arc<AppCtx>>, op: Operator, Path(id): Path<i64>) -> Response {
    if let Err(r) = op.require(Permission::WatchSaleOpening) {
        return r;
    }
    let sale = match sales::by_id(&app.state.db, id).await {
        Ok(Some(s)) => s,
        Ok(None) => return ui::not_found(&op),
        Err(e) => return ui::db_error(e),
    };
    let f = match figures(&app.state.db, id, now()).await {
        Ok(f) => f,
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let figure = |label: &'static str, key: &'static str, value: String| {
        view! { <div><dt>{label}</dt><dd data-live=key>{value}</dd></div> }
    };
    let rows = f
        .options
        .iter()
        .map(|o| {
            let id = o.id.to_string();
            view! {
                <tr data-live-option=id>
                    <td>{format!("{} · {}", o.product, o.label)}</td>
                    <td class="num" data-field="stock">{o.stock}</td>
                    <td class="num" data-field="held">{o.held}</td>
                    <td class="num" data-field="sold">{o.sold}</td>
                    <td class="num" data-field="available">{o.available}</td>
                </tr>
            }
        })
        .collect_view();
    let body = view! {
        <p><a href=format!("{PREFIX}/sales/{id}")>{sale.name.clone()}</a>{format!(" · {} → {}", ui::when(sale.starts_at), ui::when(sale.ends_at))}</p>
        <div data-live-source=format!("{PREFIX}/sales/{id}/dashboard/live")>
            <p>{t("dash.live")}" "{t("dash.updated")}" "<span data-live="at">{f.at.clone()}</span></p>
            <dl class="bo-figures">
                {figure(t("dash.adds"), "adds_per_second", f.adds_per_second.clone())}
                {figure(t("dash.payments"), "payments_per_second", f.payments_per_second.clone())}
                {figure(t("dash.refused"), "refused_last_minute", f.refused_last_minute.to_string())}
                {figure(t("dash.failed"), "failed_last_minute", f.failed_last_minute.to_string())}
                {figure(t("dash.line"), "line_length", f.line_length.to_string())}
                {figure(t("dash.longest"), "longest_wait_secs", f.longest_wait_secs.to_string())}
            </dl>
            <div class="bo-table-wrap" tabindex="0">
                <table id="dashboard">
                    <thead><tr>
                        <th scope="col">{t("stock.option")}</th><th scope="col" class="num">{t("stock.stock")}</th>
                        <th scope="col" class="num">{t("stock.held")}</th><th scope="col" class="num">{t("stock.sold")}</th>
                        <th scope="col" class="num">{t("stock.available")}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </div>
    }
    .into_any();
    ui::page(
        StatusCode::OK,
        op.lang(),
        Some(&op),
        &format!("{} · {}", t("dash.title"), sale.name),
        None,
        body,
    )
}

/// `text/event-stream` of `figures` events, one a second, for `STREAM_SECS`; it ends at
/// once when the operator's session does.
pub async fn live(State(app): State<Arc<AppCtx>>, op: Operator, Path(id): Path<i64>) -> Response {
    if let Err(r) = op.require(Permission::WatchSaleOpening) {
        return r;
    }
    match sales::by_id(&app.state.db, id).await {
        Ok(Some(_)) => {}
        Ok(None) => return StatusCode::NOT_FOUND.into_response(),
        Err(e) => return ui::db_error(e),
    }
    let started = std::time::Instant::now();
    let stream = futures_util::stream::unfold((app, op.token), move |(app, token)| async move {
        tokio::time::sleep(Duration::from_secs(1)).await;
        if started.elapsed().as_secs() >= STREAM_SECS {
            return None;
        }
        let at = now();
        let alive = store::session(&app.state.db, &token)
            .await
            .ok()
            .flatten()
            .is_some_and(|s| s.second_factor && at - s.last_seen_at <= super::session::IDLE_SECS);
        if !alive {
            return None;
        }
        let event = match figures(&app.state.db, id, at).await {
            Ok(f) => Event::default()
                .event("figures")
                .json_data(&f)
                .unwrap_or_default(),
            Err(e) => {
                tracing::warn!(error = %e, "dashboard figures failed");
                Event::default().comment("retry")
            }
        };
        Some((Ok::<_, std::convert::Infallible>(event), (app, token)))
    });
    let mut res = Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response();
    res.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    res
}
