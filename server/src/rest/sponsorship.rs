//! Sponsorship (spec 000 §7 "sponsorship", without shape): the member's code,
//! share link, sponsored members and reward vouchers.
use std::sync::Arc;

use axum::extract::State;
use axum::{Extension, Json};
use utoipa_axum::{router::OpenApiRouter, routes};

use app::context::RequestCtx;
use app::model::error::ErrorBody;
use app::platform::state::now;
use app::sponsorship::model::Sponsorship;

use super::error::ApiError;
use super::extract::SignedIn;
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new().routes(routes!(sponsorship))
}

/// The member's sponsorship: code (`mgmcode`), share link, sponsored members, rewards.
#[utoipa::path(get, path = "/api/members/v1/sponsorship", tag = "members",
    responses((status = 200, body = Sponsorship), (status = 401, body = ErrorBody)))]
async fn sponsorship(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(m): SignedIn,
) -> Result<Json<Sponsorship>, ApiError> {
    app::sponsorship::service::page(
        &app.state.db,
        m.member_id,
        |p| ctx.url_on(m.site_id, p),
        now(),
    )
    .await
    .map(Json)
    .map_err(|e| ApiError::wire(&e).logged_as("sponsorship read failed"))
}
