//! Travel search calls: search, autocomplete, countries, redirect.
use std::sync::Arc;

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
}
