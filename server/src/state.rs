//! The application state every handler and layer receives: the app's state (database,
//! settings), the edge's configuration, the cart service and the page cache.
use std::sync::Arc;

use app::platform::state::AppState;

use crate::config::Config;
use crate::serve::page_cache::PageCache;

/// Everything handlers need, shared.
pub struct AppCtx {
    pub config: Config,
    pub state: AppState,
    pub origins: Vec<app::context::SiteOrigin>,
    /// Cart, held stock, checkout and waiting line.
    pub cart: Arc<app::cart::service::CartService>,
    /// Pages as anonymous visitors see them, for a moment (see `serve::page_cache`).
    pub page_cache: PageCache,
    /// Merged translation tables by (language, fallback language), built on first request.
    pub translations: crate::rest::content::TranslationsCache,
}
