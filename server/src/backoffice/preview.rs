//! An operator's preview of the shop at a chosen date and time: the home, the catalogs,
//! the product pages and the header's menus render as members will see them then, in this
//! operator's browser only, with nothing made public.
//!
//! From a sale's page an operator asks for a time; the back office records it in the audit
//! log and sets a cookie for the whole shop (`Path=/`, HttpOnly, SameSite=Strict, 30
//! minutes) holding the site, the time and its end, signed with the server's secret. The
//! shop's request context reads it for that site only (`RequestCtx::preview_at`); such a
//! page is rendered in full (never from or into the page cache or a member template) and
//! sent `no-store`, with a strip on top that says so. The cookie grants nothing else:
//! no write, no REST call and no browser call follows its time.
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use cookie::{Cookie, SameSite};
use leptos::prelude::*;
use serde::Deserialize;

use app::platform::csrf;
use app::platform::state::now;

use super::audit::{self, Entry};
use super::roles::Permission;
use super::session::{Operator, OperatorForm};
use super::{ui, PREFIX};
use crate::state::AppCtx;

pub const COOKIE: &str = "rosace_preview";
/// How long one preview lasts in a browser.
pub const LIFETIME: i64 = 30 * 60;
/// How far from now a preview may look, either way.
const REACH: i64 = 366 * 86_400;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/sales/{{id}}/preview"), post(start))
        .route(&format!("{PREFIX}/preview"), get(page))
        .route(&format!("{PREFIX}/preview/end"), post(end))
}

/// What the signature covers: never a session hash or a visitor id, so no CSRF token can
/// pass for a preview or the other way round.
fn binding(site: u16, at: i64, expires: i64) -> String {
    format!("operator-preview|{site}|{at}|{expires}")
}

/// The cookie's value for a preview of `site` at `at`, good for [`LIFETIME`] from `now`.
pub fn grant(secret: &[u8], site: u16, at: i64, now: i64) -> String {
    let expires = now + LIFETIME;
    let token = csrf::issue(secret, &binding(site, at, expires));
    format!("{site}.{at}.{expires}.{token}")
}

/// The site and time of a cookie's preview, if it is ours and still running.
pub fn read_grant(secret: &[u8], value: &str, now: i64) -> Option<(u16, i64)> {
    let mut parts = value.splitn(4, '.');
    let site: u16 = parts.next()?.parse().ok()?;
    let at: i64 = parts.next()?.parse().ok()?;
    let expires: i64 = parts.next()?.parse().ok()?;
    let token = parts.next()?;
    let running = expires > now && expires <= now + LIFETIME;
    (running && csrf::is_valid(secret, &binding(site, at, expires), token)).then_some((site, at))
}

/// The preview time for a page of `site`, when the request's cookie holds one.
pub fn read(app: &AppCtx, value: &str, site: u16, now: i64) -> Option<i64> {
    read_grant(&app.settings.xsrf_secret, value, now)
        .filter(|(s, _)| *s == site)
        .map(|(_, at)| at)
}

fn preview_cookie(app: &AppCtx, value: &str, max_age: i64) -> String {
    Cookie::build((COOKIE, value))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(app.settings.secure_cookies)
        .max_age(cookie::time::Duration::seconds(max_age))
        .build()
        .to_string()
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PreviewFields {
    at: String,
    /// `home` or `catalog`.
    page: String,
}

async fn start(
    State(app): State<Arc<AppCtx>>,
    Path(sale_id): Path<i64>,
    form: OperatorForm<PreviewFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ReadCatalogue) {
        return r;
    }
    let sale = match super::sales::store::by_id(&app.state.db, sale_id).await {
        Ok(Some(s)) => s,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let at_now = now();
    let Some(at) = ui::parse_datetime(&form.fields.at).filter(|at| (at - at_now).abs() <= REACH)
    else {
        return ui::message_page(
            op.lang(),
            Some(op),
            StatusCode::UNPROCESSABLE_ENTITY,
            op.t("preview.error.at"),
        );
    };
    let Ok(site) = u16::try_from(sale.site_id) else {
        return ui::not_found(op);
    };
    // The open-door catalog (the whole sale): it opens for an operator who is not also
    // signed in as a member, and a member's browser shows it as members see it.
    let to = match form.fields.page.as_str() {
        "catalog" => format!(
            "/c/{}/{sale_id}/0?site={site}",
            app::text::slug::slug(&sale.name)
        ),
        _ => format!("/?site={site}"),
    };
    let recorded: Result<(), sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let entry = Entry {
            action: "preview",
            object_kind: "sale",
            object_id: sale_id.to_string(),
            summary: format!("site {site} at {} UTC", ui::when(at)),
        };
        audit::record(&mut tx, &op.actor(), entry, at_now).await?;
        tx.commit().await
    }
    .await;
    if let Err(e) = recorded {
        return ui::db_error(e);
    }
    let value = grant(&app.settings.xsrf_secret, site, at, at_now);
    ui::with_cookie(ui::see_other(&to), preview_cookie(&app, &value, LIFETIME))
}

/// Whether a preview runs in this browser, and a button to end it.
async fn page(State(app): State<Arc<AppCtx>>, op: Operator, headers: HeaderMap) -> Response {
    let t = |k: &str| op.t(k);
    let running = crate::middleware::cookies::cookie(&headers, COOKIE)
        .and_then(|v| read_grant(&app.settings.xsrf_secret, &v, now()));
    let body = match running {
        Some((site, at)) => view! {
            <p data-testid="preview-running">{format!("{} {} · {} {site}", t("preview.running"), ui::when(at), t("sales.site"))}</p>
            <p><a href=format!("/?site={site}")>{t("preview.open_home")}</a></p>
            <form method="post" action=format!("{PREFIX}/preview/end")>
                {ui::xsrf_field(&op)}
                <button type="submit">{t("preview.end")}</button>
            </form>
        }
        .into_any(),
        None => view! { <p data-testid="preview-none">{t("preview.none")}</p> }.into_any(),
    };
    ui::page(
        StatusCode::OK,
        op.lang(),
        Some(&op),
        t("preview.title"),
        None,
        body,
    )
}

async fn end(State(app): State<Arc<AppCtx>>, _form: OperatorForm<PreviewFields>) -> Response {
    ui::with_cookie(
        ui::see_other(&format!("{PREFIX}/preview")),
        preview_cookie(&app, "", 0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"0123456789abcdef0123456789abcdef";

    #[test]
    fn a_grant_reads_back_for_its_site_and_time_only_while_it_runs() {
        let now = 1_800_000_000;
        let g = grant(SECRET, 66, now + 86_400, now);
        assert_eq!(read_grant(SECRET, &g, now), Some((66, now + 86_400)));
        assert_eq!(
            read_grant(SECRET, &g, now + LIFETIME - 1),
            Some((66, now + 86_400))
        );
        assert_eq!(read_grant(SECRET, &g, now + LIFETIME), None, "ended");
        assert_eq!(
            read_grant(b"another secret of thirty-two b!!", &g, now),
            None
        );
        // Another time, site or end in front of the same signature is refused.
        let token = g.splitn(4, '.').nth(3).unwrap();
        for forged in [
            format!("66.{}.{}.{token}", now + 1, now + LIFETIME),
            format!("1.{}.{}.{token}", now + 86_400, now + LIFETIME),
            format!("66.{}.{}.{token}", now + 86_400, now + LIFETIME - 60),
        ] {
            assert_eq!(read_grant(SECRET, &forged, now), None, "{forged}");
        }
        // A CSRF token of the shop is no grant, whatever it is bound to.
        let xsrf = csrf::issue(SECRET, &binding(66, now, now + LIFETIME));
        assert_eq!(read_grant(SECRET, &xsrf, now), None);
        for junk in ["", "66", "66.x.y.z", "..."] {
            assert_eq!(read_grant(SECRET, junk, now), None, "{junk}");
        }
    }
}
