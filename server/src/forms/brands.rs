//! The brands place's follow / stop following forms (Post/Redirect/Get back to
//! `/brandsplace`, the search kept, with a notice). The write is the communications
//! area's brand alert, the same one its page and REST call use.
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::{Extension, Form};
use serde::Deserialize;

use app::communications::service;
use app::context::RequestCtx;
use app::model::error::WireError;
use app::routes::encode_query_value;

use super::check_xsrf;
use super::outcome::see_other;
use crate::middleware::{self, SessionInfo};
use crate::state::AppCtx;
use crate::web::session::site_suffix;

const PAGE: &str = "/brandsplace";

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct BrandsForm {
    #[serde(rename = "_xsrf")]
    xsrf: String,
    action: String,
    #[serde(rename = "brandId")]
    brand: String,
    q: String,
}

pub async fn brands_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    Form(f): Form<BrandsForm>,
) -> Response {
    if let Err(refused) = check_xsrf(&app, &session, &headers, &f.xsrf) {
        return refused;
    }
    let Some(m) = &session.member else {
        return middleware::redirect(&app::routes::login_redirect(PAGE));
    };
    let q = app::brands::rules::clean_query(&f.q);
    let back = |query: &str| {
        let search = if q.is_empty() {
            String::new()
        } else {
            format!("&q={}", encode_query_value(&q))
        };
        see_other(&format!(
            "{PAGE}?{query}{search}{}",
            site_suffix(&ctx, ctx.site_id)
        ))
    };
    let follow = match f.action.as_str() {
        "follow" => true,
        "unfollow" => false,
        _ => return back("error=errors.general_retry.notification"),
    };
    let Ok(brand) = f.brand.trim().parse::<i64>() else {
        return back("error=errors.not_found");
    };
    let now = app::platform::state::now();
    match service::brand_alert(&app.state.db, m.member_id, brand, follow, now).await {
        Ok(_) if follow => back("notice=brandsplace.notice.followed"),
        Ok(_) => back("notice=brandsplace.notice.unfollowed"),
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, "brand alert failed");
            }
            back(&format!("error={}", e.message_key()))
        }
    }
}
