//! Travel catalog calls: campaign, offers, count, SEO.
use std::sync::Arc;

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
}
