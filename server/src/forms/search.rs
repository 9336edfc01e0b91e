//! Deleting a recent query without scripts (Post/Redirect/Get to `/find`).
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Form};
use serde::Deserialize;

use super::check_xsrf;
use super::outcome::see_other;
use crate::middleware::{self, SessionInfo};
use crate::state::AppCtx;
use crate::web::error::{ApiError, LogAs};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DeleteForm {
    #[serde(rename = "_xsrf")]
    xsrf: String,
}

pub async fn delete_recent_form(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Form(f): Form<DeleteForm>,
) -> Result<Response, ApiError> {
    if let Err(refused) = check_xsrf(&app, &session, &headers, &f.xsrf) {
        return Ok(refused);
    }
    let Some(m) = &session.member else {
        return Ok(middleware::redirect(&app::routes::login_redirect("/find")));
    };
    let deleted = app::search::service::delete_recent(&app.state.db, m.member_id, id)
        .await
        .log_as("cannot delete a recent query")?;
    if !deleted {
        return Err(ApiError::NotFound);
    }
    Ok(see_other("/find").into_response())
}
