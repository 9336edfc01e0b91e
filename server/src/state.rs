//! The application state every handler and layer receives: the app's state (database),
//! the settings of every area, the edge's configuration, the cart service and every cache
//! (pages, search indexes, homes and live sales, translations). Caches belong to what owns
//! the database.
use std::sync::Arc;

use app::platform::state::AppState;

use crate::config::{Config, Settings};
use crate::serve::page_cache::PageCache;

/// Everything handlers need, shared.
pub struct AppCtx {
    pub config: Config,
    pub state: AppState,
    /// The settings of every area, as read at start (with the database's CSRF key).
    pub settings: Settings,
    pub origins: Arc<Vec<app::context::SiteOrigin>>,
    /// Cart, held stock, checkout and waiting line.
    pub cart: Arc<app::cart::service::CartService>,
    /// Travel products, calendars and bookings (held places, payment).
    pub travel: Arc<app::travel::service::TravelService>,
    /// Page views' experiment exposures, recorded by one writer in group commits.
    pub exposures: app::experiments::writer::ExposureWriter,
    /// API calls' session lookups, read together.
    pub sessions: app::platform::session_lookups::SessionLookups,
    /// Page views' session lookups with the member's page values, read together.
    pub page_sessions:
        app::platform::session_lookups::SessionLookups<crate::middleware::context::PageValues>,
    /// The experiments' settings with the back office's controls (start, stop, reweigh).
    pub experiments: Arc<app::experiments::service::Live>,
    /// Pages as anonymous visitors see them, for a moment (see `serve::page_cache`).
    pub page_cache: Arc<PageCache>,
    /// The help articles' answerer, rebuilt when customer care edits one.
    pub help: Arc<app::help::kb::KnowledgeBase>,
    /// Every site's search index (rebuilt as sales start and end).
    pub search: Arc<app::search::store::SearchIndexes>,
    /// Members' searches, recorded among their recent queries by one writer in group commits.
    pub searches: Arc<app::search::service::SearchRecorder>,
    /// Live sales and homes as every visitor of a site sees them, for a few seconds.
    pub homes: Arc<app::home::store::HomeCache>,
    /// Merged translation tables by (language, fallback language), built on first request.
    pub translations: TranslationsCache,
    /// The Prometheus scrape's counters and histograms (requests, browser diagnostics).
    pub telemetry: crate::telemetry::Telemetry,
}

/// Merged translation tables by (language, fallback language): five languages, so at most
/// 25 entries, each serialised once.
#[derive(Default)]
pub struct TranslationsCache(
    std::sync::Mutex<std::collections::HashMap<(String, String), bytes::Bytes>>,
);

impl TranslationsCache {
    pub fn get_or_build(
        &self,
        key: (String, String),
        build: impl FnOnce() -> bytes::Bytes,
    ) -> bytes::Bytes {
        if let Some(b) = self.0.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return b;
        }
        let bytes = build();
        if let Ok(mut c) = self.0.lock() {
            c.insert(key, bytes.clone());
        }
        bytes
    }
}

impl AppCtx {
    /// Who sends files from `client`, with the shop's quotas (review N2).
    pub fn uploader<'a>(&'a self, client: &'a str) -> app::platform::upload_quota::Uploader<'a> {
        app::platform::upload_quota::Uploader {
            quota: &self.settings.upload_quota,
            client,
        }
    }

    /// The account's mails, with links on `link_base` (the member's site origin).
    pub fn mailer<'a>(&'a self, link_base: &'a str) -> app::account::service::Mailer<'a> {
        app::account::service::Mailer {
            settings: &self.settings.mail,
            link_base,
        }
    }

    /// The proof a sensitive change asks of `member` (review N1), with the shop's limits.
    pub fn proof<'a>(
        &'a self,
        client: &'a str,
        member: &'a app::platform::session::SessionMember,
        current_password: &'a str,
    ) -> app::auth::reauth::Proof<'a> {
        app::auth::reauth::Proof {
            auth: &self.settings.auth,
            client,
            member,
            current_password,
        }
    }

    /// What a password sign-in needs: the sign-in tunables and the mail settings.
    pub fn sign_in(&self) -> app::auth::service::SignIn<'_> {
        app::auth::service::SignIn {
            settings: &self.settings.auth,
            mail: &self.settings.mail,
        }
    }
}
