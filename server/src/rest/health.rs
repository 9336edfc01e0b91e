//! `GET /health`: whether the process can reach its database (for load balancers).
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new().routes(routes!(health))
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok` or `degraded`.
    status: &'static str,
    /// `ok` or `down`.
    database: &'static str,
}

/// The process answers and its database too (503 when the database is down).
#[utoipa::path(get, path = "/health", tag = "operations",
    responses((status = 200, body = Health), (status = 503, body = Health)))]
async fn health(State(app): State<Arc<AppCtx>>) -> (StatusCode, Json<Health>) {
    match sqlx::query("SELECT 1").execute(&app.state.db.pool).await {
        Ok(_) => (
            StatusCode::OK,
            Json(Health {
                status: "ok",
                database: "ok",
            }),
        ),
        Err(e) => {
            tracing::error!(error = %e, "health check: database down");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(Health {
                    status: "degraded",
                    database: "down",
                }),
            )
        }
    }
}
