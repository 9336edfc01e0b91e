//! Frontend diagnostics (spec 000 §7 "Diagnostics"): metric batches are logged, not stored.
use std::sync::Arc;

use axum::http::StatusCode;
use serde::de::IgnoredAny;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::model::error::ErrorBody;

use super::extract::JsonBody;
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new().routes(routes!(metrics))
}

/// A batch of browser timings; only their count and the app name are read.
#[derive(Deserialize, ToSchema)]
pub struct MetricsBatch {
    #[serde(default)]
    #[schema(value_type = Vec<Object>)]
    metrics: Vec<IgnoredAny>,
    #[serde(default)]
    tags: MetricTags,
}

#[derive(Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MetricTags {
    #[serde(default)]
    app_name: Option<String>,
}

/// Logs a batch of frontend metrics.
#[utoipa::path(post, path = "/api/frontend-logger/v1/metrics", tag = "diagnostics",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = MetricsBatch,
    responses((status = 204, description = "logged"), (status = 400, body = ErrorBody)))]
async fn metrics(JsonBody(batch): JsonBody<MetricsBatch>) -> StatusCode {
    let app_name = batch.tags.app_name.as_deref().unwrap_or("");
    tracing::info!(count = batch.metrics.len(), app = %app_name, "frontend metrics");
    StatusCode::NO_CONTENT
}
