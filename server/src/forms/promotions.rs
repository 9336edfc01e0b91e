//! The vouchers page's forms without scripts, one route per action: toggle an entry of the
//! selection (Post/Redirect/Get), and print (back with the printable page's link).
use std::sync::Arc;

use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;

use app::cart::service::Member;
use app::model::error::WireError;
use app::platform::session::SessionMember;
use app::promotions::error::PromotionsError;
use app::promotions::rules::Selection;
use app::promotions::service;
use app::promotions::ui::form_action as at;

use super::extract::XsrfForm;
use super::outcome::FormOutcome;
use crate::state::AppCtx;

const PAGE: &str = "/vouchers-promotions";

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&at("toggle"), post(toggle))
        .route(&at("print"), post(print))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ToggleForm {
    #[serde(rename = "voucherId")]
    voucher_id: String,
    #[serde(rename = "participationId")]
    participation_id: String,
}

#[derive(Deserialize, Default)]
pub struct PrintForm {}

fn cart_member(sm: &SessionMember) -> Member {
    Member {
        id: sm.member_id,
        site_id: i64::from(sm.site_id),
    }
}

/// Back to the page with `query`, or with the refusal's message.
fn outcome(result: Result<String, PromotionsError>) -> FormOutcome {
    match result {
        Ok(query) => FormOutcome::to(format!("{PAGE}?{query}")),
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, "vouchers call failed");
            }
            FormOutcome::error(PAGE, shown(e.message_key()))
        }
    }
}

/// The page shows only keys it knows; a cart refusal it does not list becomes the
/// general message.
fn shown(key: &'static str) -> &'static str {
    app::wallet::ui::frame::known_notice(key).unwrap_or("errors.general_retry.notification")
}

async fn toggle(form: XsrfForm<ToggleForm>) -> Response {
    let Some(sm) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let f = &form.fields;
    let not_found = || form.answer(FormOutcome::error(PAGE, "errors.not_found"));
    let Ok(voucher_id) = f.voucher_id.parse::<i64>() else {
        return not_found();
    };
    let participation_id = match f.participation_id.as_str() {
        "" => None,
        p => match p.parse::<i64>() {
            Ok(p) => Some(p),
            Err(_) => return not_found(),
        },
    };
    let choice = Selection {
        voucher_id,
        participation_id,
    };
    let now = app::platform::state::now();
    let result = service::toggle(&form.app.cart, cart_member(sm), choice, now)
        .await
        .map(|all| {
            let notice = if all.selection.contains(&choice) {
                "vouchers.notice.selected"
            } else {
                "vouchers.notice.unselected"
            };
            format!("notice={notice}")
        });
    form.answer(outcome(result))
}

/// Back to the page with the printable page's link, which opens in a new tab.
async fn print(form: XsrfForm<PrintForm>) -> Response {
    let Some(sm) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let now = app::platform::state::now();
    let result = service::print(&form.app.cart, cart_member(sm), now)
        .await
        .map(|p| {
            let token = p.print_url.rsplit('/').next().unwrap_or_default();
            format!("print={token}")
        });
    form.answer(outcome(result))
}
