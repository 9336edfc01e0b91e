//! A/B variations (spec 000 §7 "Navigation and content"): POST with siteId and
//! memberId in the path (a member id, or an anonymous visitor's id), body experimentNames
//! and, for members only, segmentId; no credentials. Answers each experiment's variation
//! by the deterministic bucketing the pages use; reads and records nothing.
use std::sync::Arc;

use axum::extract::State;
use axum::{Extension, Json};
use utoipa_axum::{router::OpenApiRouter, routes};

use app::context::RequestCtx;
use app::experiments::error::ExperimentsError;
use app::model::error::{ErrorBody, WireError};
use app::model::experiments::{ExperimentVariations, VariationsRequest};

use super::error::ApiError;
use super::extract::{JsonBody, Path};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new().routes(routes!(variations))
}

/// Each named experiment's variation for a member or an anonymous visitor. Experiment
/// names differ between the two (`anonymous_*`, `member_*`); a name of the other audience
/// or a segment for an anonymous id is a 400 with the message in the site's language.
#[utoipa::path(post, path = "/api/abtesting/v1/sites/{siteId}/members/{memberId}/variations",
    tag = "content",
    params(("siteId" = String, Path, description = "the site id (1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76)"),
        ("memberId" = String, Path, description = "a member id, or the 32-hex anonymous id of a visitor")),
    request_body = VariationsRequest,
    responses((status = 200, body = ExperimentVariations),
        (status = 400, body = ErrorBody, description = "unknown_site, invalid_member_id, invalid_experiment_names, unknown_experiment or segment_for_anonymous, with the localized `message`")))]
async fn variations(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Path((site_id, member_id)): Path<(String, String)>,
    JsonBody(body): JsonBody<VariationsRequest>,
) -> Result<Json<ExperimentVariations>, ApiError> {
    app::experiments::service::variations(
        &app.experiments.current(),
        &site_id,
        &member_id,
        &body.experiment_names,
        body.segment_id.as_deref(),
    )
    .map(Json)
    .map_err(|e| localized(&e, &site_id, ctx.site_id))
}

/// The error with its message in the language of the path's site (else the request's).
fn localized(e: &ExperimentsError, site_id: &str, ctx_site: u16) -> ApiError {
    let site = site_id
        .parse::<u16>()
        .ok()
        .and_then(app::site::by_id)
        .unwrap_or_else(|| app::site::by_id_or_default(ctx_site));
    let lang = app::site::i18n::lang_of(site.locale);
    ApiError::Wire {
        status: axum::http::StatusCode::from_u16(e.status())
            .unwrap_or(axum::http::StatusCode::INTERNAL_SERVER_ERROR),
        body: Box::new(ErrorBody {
            message: Some(app::site::i18n::t(lang, e.message_key()).to_string()),
            ..e.body()
        }),
        cause: e.cause(),
        what: "variations call failed",
    }
}
