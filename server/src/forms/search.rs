//! Deleting a recent query without scripts (Post/Redirect/Get to `/find`).
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::extract::XsrfForm;
use super::outcome::FormOutcome;
use crate::web::error::{ApiError, LogAs};
use crate::web::extract::Path;

#[derive(Deserialize, Default)]
pub struct DeleteForm {}

/// Another member's query, or one already gone, is a 404: nothing of theirs is touched.
pub async fn delete_recent_form(
    Path(id): Path<i64>,
    form: XsrfForm<DeleteForm>,
) -> Result<Response, ApiError> {
    let Some(m) = form.member() else {
        return Ok(form.sign_in_first("/find"));
    };
    let deleted = app::search::service::delete_recent(&form.app.state.db, m.member_id, id)
        .await
        .log_as("cannot delete a recent query")?;
    if !deleted {
        return Err(ApiError::NotFound);
    }
    Ok(form.answer(FormOutcome::away("/find")).into_response())
}
