//! The brands place's follow / stop following forms, one route each (Post/Redirect/Get
//! back to `/brandsplace`, the search kept, with a notice). The write is the communications
//! area's brand alert, the same one its page and REST call use.
use std::sync::Arc;

use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;

use app::brands::ui::form_action as at;
use app::communications::service;
use app::model::error::WireError;
use app::routes::encode_query_value;

use super::extract::XsrfForm;
use super::outcome::FormOutcome;
use crate::state::AppCtx;

const PAGE: &str = "/brandsplace";

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&at("follow"), post(follow))
        .route(&at("unfollow"), post(unfollow))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct BrandsForm {
    #[serde(rename = "brandId")]
    brand: String,
    q: String,
}

async fn follow(form: XsrfForm<BrandsForm>) -> Response {
    brand_alert(form, true).await
}

async fn unfollow(form: XsrfForm<BrandsForm>) -> Response {
    brand_alert(form, false).await
}

async fn brand_alert(form: XsrfForm<BrandsForm>, follow: bool) -> Response {
    let Some(m) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let q = app::brands::rules::clean_query(&form.fields.q);
    // Back to the place, its search kept.
    let back = |query: &str| {
        let search = if q.is_empty() {
            String::new()
        } else {
            format!("&q={}", encode_query_value(&q))
        };
        FormOutcome::to(format!("{PAGE}?{query}{search}"))
    };
    let Ok(brand) = form.fields.brand.trim().parse::<i64>() else {
        return form.answer(back("error=errors.not_found"));
    };
    let now = app::platform::state::now();
    let outcome =
        match service::brand_alert(&form.app.state.db, m.member_id, brand, follow, now).await {
            Ok(_) if follow => back("notice=brandsplace.notice.followed"),
            Ok(_) => back("notice=brandsplace.notice.unfollowed"),
            Err(e) => {
                if let Some(cause) = e.cause() {
                    tracing::error!(error = %cause, "brand alert failed");
                }
                back(&format!("error={}", e.message_key()))
            }
        };
    form.answer(outcome)
}
