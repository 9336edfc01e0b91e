//! The vouchers page's forms without scripts: toggle an entry of the selection (Post/
//! Redirect/Get), and print (back with the printable page's link).
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Extension;
use serde::Deserialize;

use app::cart::service::Member;
use app::context::RequestCtx;
use app::model::error::WireError;
use app::promotions::rules::Selection;
use app::promotions::service;

use super::check_xsrf;
use super::outcome::see_other;
use crate::middleware::{self, SessionInfo};
use crate::state::AppCtx;
use crate::web::session::site_suffix;

const PAGE: &str = "/vouchers-promotions";

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct VouchersForm {
    #[serde(rename = "_xsrf")]
    xsrf: String,
    action: String,
    #[serde(rename = "voucherId")]
    voucher_id: String,
    #[serde(rename = "participationId")]
    participation_id: String,
}

fn back(ctx: &RequestCtx, query: &str) -> Response {
    see_other(&format!("{PAGE}?{query}{}", site_suffix(ctx, ctx.site_id)))
}

pub async fn vouchers_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let Ok(f) = serde_urlencoded::from_str::<VouchersForm>(&body) else {
        return back(&ctx, "error=errors.general_retry.notification");
    };
    if let Err(refused) = check_xsrf(&app, &session, &headers, &f.xsrf) {
        return refused;
    }
    let Some(sm) = &session.member else {
        return middleware::redirect(&app::routes::login_redirect(PAGE));
    };
    let m = Member {
        id: sm.member_id,
        site_id: i64::from(sm.site_id),
    };
    let now = app::platform::state::now();
    let result = match f.action.as_str() {
        "toggle" => {
            let Ok(voucher_id) = f.voucher_id.parse::<i64>() else {
                return back(&ctx, "error=errors.not_found");
            };
            let participation_id = match f.participation_id.as_str() {
                "" => None,
                p => match p.parse::<i64>() {
                    Ok(p) => Some(p),
                    Err(_) => return back(&ctx, "error=errors.not_found"),
                },
            };
            let choice = Selection {
                voucher_id,
                participation_id,
            };
            service::toggle(&app.cart, m, choice, now).await.map(|all| {
                let notice = if all.selection.contains(&choice) {
                    "vouchers.notice.selected"
                } else {
                    "vouchers.notice.unselected"
                };
                format!("notice={notice}")
            })
        }
        // Back to the page with the printable page's link, which opens in a new tab.
        "print" => service::print(&app.cart, m, now).await.map(|p| {
            let token = p
                .print_url
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_string();
            format!("print={token}")
        }),
        _ => return back(&ctx, "error=errors.general_retry.notification"),
    };
    match result {
        Ok(query) => back(&ctx, &query),
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, "vouchers call failed");
            }
            let key = shown(e.message_key());
            back(&ctx, &format!("error={key}"))
        }
    }
}

/// The page shows only keys it knows; a cart refusal it does not list becomes the
/// general message.
fn shown(key: &'static str) -> &'static str {
    app::wallet::ui::frame::known_notice(key).unwrap_or("errors.general_retry.notification")
}
