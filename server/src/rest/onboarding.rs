//! Popins and the data-partner opt-in (spec 000 §6, §7): the member's next modal popin,
//! answers to it, and `IsAdotOptinAccepted`.
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::model::error::ErrorBody;
use app::onboarding::rules::{self, PopinType};
use app::onboarding::store;

use super::error::{ApiError, LogAs};
use super::extract::{JsonBody, Path, SignedIn};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(popins))
        .routes(routes!(answer_popin))
        .routes(routes!(adot_optin))
}

/// The next popin to show.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Popin {
    popin_type: i64,
    name: &'static str,
    version: i64,
}

/// The next modal popin of the signed-in member, or 204 when there is none.
#[utoipa::path(get, path = "/api/popins/v1", tag = "onboarding",
    responses((status = 200, body = Popin), (status = 204, description = "no popin"),
        (status = 401, body = ErrorBody)))]
async fn popins(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Result<Response, ApiError> {
    let state = store::load(&app.state.db, m.member_id)
        .await
        .log_as("Cannot fetch Popins")?;
    Ok(match rules::next_popin(&state) {
        Some((kind, version)) => Json(Popin {
            popin_type: kind as i64,
            name: kind.key(),
            version,
        })
        .into_response(),
        None => StatusCode::NO_CONTENT.into_response(),
    })
}

#[derive(Deserialize, ToSchema)]
pub struct PopinAnswer {
    accepted: bool,
    /// For the birth-date popin: the date typed by the member.
    #[serde(rename = "birthDate", default)]
    birth_date: Option<String>,
}

/// Answers a popin.
#[utoipa::path(post, path = "/api/popins/v1/{popinType}/{version}", tag = "onboarding",
    params(("popinType" = i64, Path), ("version" = i64, Path), ("X-XSRF-TOKEN" = String, Header)),
    request_body = PopinAnswer,
    responses((status = 204, description = "stored"), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn answer_popin(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path((popin_type, version)): Path<(i64, i64)>,
    JsonBody(body): JsonBody<PopinAnswer>,
) -> Result<StatusCode, ApiError> {
    let kind = PopinType::from_code(popin_type).ok_or(ApiError::bad_request(
        "unknown_popin",
        "errors.general_retry.notification",
    ))?;
    let birth = match (kind, body.accepted, body.birth_date.as_deref()) {
        (PopinType::Birthdate, true, Some(d)) => Some(app::auth::rules::birth_date_iso(d).ok_or(
            ApiError::bad_request("invalid_birth_date", "auth.birthdate.invalid"),
        )?),
        _ => None,
    };
    app::onboarding::service::answer(
        &app.state.db,
        m.member_id,
        kind,
        version,
        body.accepted,
        birth,
        app::platform::state::now(),
    )
    .await
    .log_as("cannot store the popin answer")?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, ToSchema)]
pub struct AdotAnswer {
    #[serde(rename = "IsAdotOptinAccepted")]
    accepted: bool,
}

/// Accepts (or refuses) the data-partner opt-in.
#[utoipa::path(post, path = "/api/partner/v1/adot-optin", tag = "onboarding",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = AdotAnswer,
    responses((status = 204, description = "stored"), (status = 401, body = ErrorBody)))]
async fn adot_optin(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    JsonBody(body): JsonBody<AdotAnswer>,
) -> Result<StatusCode, ApiError> {
    app::onboarding::service::adot(&app.state.db, m.member_id, body.accepted)
        .await
        .log_as("cannot store the data-partner answer")?;
    Ok(StatusCode::NO_CONTENT)
}
