//! The request context: which site, which member, and where the sites live.
//! Resolved once per request by the server, serialised into the page for the browser.
use serde::{Deserialize, Serialize};

use crate::site::{self, Site};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestCtx {
    pub site_id: u16,
    /// Set when the request carries a valid session.
    pub member_id: Option<i64>,
    pub member_first_name: Option<String>,
    /// Sites with a host of their own, for canonical and hreflang links: one list for the
    /// process, shared by every request's context rather than copied into each.
    #[serde(with = "shared_list")]
    pub origins: std::sync::Arc<Vec<SiteOrigin>>,
    /// Origin of the sites without a host of their own (told apart by `?site=`).
    pub default_origin: String,
    /// The CSRF token of this visitor (also in the `XSRF-TOKEN` cookie), for forms that
    /// post without scripts.
    pub xsrf: String,
    /// Consent banner, popins and banners decided by the server for this page.
    pub onboarding: crate::model::onboarding::OnboardingView,
    /// Units held in the member's cart (0 for visitors), for the header's cart link.
    #[serde(default)]
    pub cart_count: i64,
    /// Unread messages of the member's message centre (0 for visitors), for the header bell.
    #[serde(default)]
    pub unread_count: i64,
    /// The experiments' variations of this visitor and the features they switch
    /// (`experiments::rules`), decided by the server before rendering.
    #[serde(default)]
    pub experiments: crate::model::experiments::Experiments,
    /// An operator's preview (`backoffice::preview`): the home, catalogs and product pages
    /// render as they will be at this unix second. `None` for everyone else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_at: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteOrigin {
    pub site_id: u16,
    /// `https://www.rosace.fr`, or the local address when sites share one host.
    pub base: String,
    /// Sites sharing one host are told apart by `?site=` (local use).
    pub by_query: bool,
}

impl RequestCtx {
    /// The time pages are rendered at: now, or an operator's preview time.
    #[cfg(feature = "ssr")]
    pub fn now(&self) -> i64 {
        self.preview_at.unwrap_or_else(crate::platform::state::now)
    }

    pub fn site(&self) -> &'static Site {
        site::by_id_or_default(self.site_id)
    }

    pub fn lang(&self) -> &'static str {
        site::i18n::lang_of(self.site().locale)
    }

    pub fn is_member(&self) -> bool {
        self.member_id.is_some()
    }

    pub fn t(&self, key: &str) -> String {
        site::i18n::t(self.lang(), key)
    }

    pub fn t_with(&self, key: &str, args: &[(&str, &str)]) -> String {
        site::i18n::t_with(self.lang(), key, args)
    }

    pub fn money(&self, cents: i64) -> String {
        site::format::money(self.site().locale, cents)
    }

    pub fn date(&self, unix_secs: i64) -> String {
        site::format::date(self.site().date_format, unix_secs)
    }

    /// Absolute URL of `path` on another (or this) site.
    pub fn url_on(&self, site_id: u16, path: &str) -> String {
        match self.origins.iter().find(|o| o.site_id == site_id) {
            Some(o) if o.by_query => {
                let sep = if path.contains('?') { '&' } else { '?' };
                format!("{}{path}{sep}site={site_id}", o.base)
            }
            Some(o) => format!("{}{path}", o.base),
            None => {
                let sep = if path.contains('?') { '&' } else { '?' };
                format!("{}{path}{sep}site={site_id}", self.default_origin)
            }
        }
    }

    /// The context of the current request: from the server's request extensions while
    /// rendering, from the page's `data-ctx` attribute in the browser.
    pub fn current() -> RequestCtx {
        if let Some(ctx) = leptos::prelude::use_context::<RequestCtx>() {
            return ctx;
        }
        Self::from_environment().unwrap_or_else(|| RequestCtx {
            site_id: site::DEFAULT_SITE_ID,
            ..Default::default()
        })
    }

    #[cfg(feature = "ssr")]
    fn from_environment() -> Option<RequestCtx> {
        let parts = leptos::prelude::use_context::<axum::http::request::Parts>()?;
        parts.extensions.get::<RequestCtx>().cloned()
    }

    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    fn from_environment() -> Option<RequestCtx> {
        let json = web_sys::window()?
            .document()?
            .document_element()?
            .get_attribute("data-ctx")?;
        serde_json::from_str(&json).ok()
    }

    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    fn from_environment() -> Option<RequestCtx> {
        None
    }
}

/// Serde for a list shared behind an `Arc`: the same JSON as the list itself (serde's
/// own `Arc` support is a feature of the whole workspace's serde, which every crate would
/// be rebuilt for).
mod shared_list {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(
        v: &Arc<Vec<T>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        v.as_slice().serialize(s)
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Arc<Vec<T>>, D::Error> {
        Vec::deserialize(d).map(Arc::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_on_other_sites_use_host_or_query() {
        let ctx = RequestCtx {
            site_id: 1,
            origins: std::sync::Arc::new(vec![SiteOrigin {
                site_id: 1,
                base: "https://www.rosace.fr".into(),
                by_query: false,
            }]),
            default_origin: "http://127.0.0.1:3000".into(),
            ..Default::default()
        };
        assert_eq!(
            ctx.url_on(1, "/gr/aboutus"),
            "https://www.rosace.fr/gr/aboutus"
        );
        assert_eq!(ctx.url_on(2, "/"), "http://127.0.0.1:3000/?site=2");
        assert_eq!(
            ctx.url_on(2, "/find?q=a"),
            "http://127.0.0.1:3000/find?q=a&site=2"
        );
        assert_eq!(ctx.money(1990), "19,90\u{a0}€");
    }
}
