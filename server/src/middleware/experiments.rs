//! The experiments of a page view (spec 000 §6): decided before the page
//! renders, so the first HTML already shows each feature as the visitor's variation says.
//!
//! Experiments are audience measurement: they run only for visitors who accepted the
//! performance cookies (C0002, as the performance metrics do). Such an anonymous visitor
//! gets the anonymous id cookie on their first page view (13 months, HttpOnly, SameSite
//! Lax, Secure over HTTPS); a member is bucketed by member id. Everyone else is outside
//! any experiment and sees every feature at its default (new features off, launched ones
//! on: `Feature::launched`), and a visitor who withdraws the consent loses the id. When
//! the experiments cannot be read (the database call fails), the page logs "ABTesting
//! fetch error" (spec 000 §8) and renders those defaults.
use axum::http::HeaderMap;
use cookie::{Cookie, SameSite};

use app::experiments::rules::{self, ANON_ID_COOKIE, ANON_ID_MAX_AGE};
use app::experiments::service::{self, Viewer};
use app::model::experiments::Experiments;

use super::cookies::cookie;
use crate::state::AppCtx;

/// `Set-Cookie` for the anonymous id (or, with `None`, its removal).
pub fn anon_id_cookie(id: Option<&str>, secure: bool) -> String {
    let age = if id.is_some() { ANON_ID_MAX_AGE } else { 0 };
    Cookie::build((ANON_ID_COOKIE, id.unwrap_or("")))
        .path("/")
        .max_age(cookie::time::Duration::seconds(age))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .build()
        .to_string()
}

/// The experiments of this page view and the cookie to set, if any.
pub async fn for_page(
    app: &AppCtx,
    headers: &HeaderMap,
    site_id: u16,
    member_id: Option<i64>,
    consent: &Option<Vec<(String, bool)>>,
) -> (Experiments, Option<String>) {
    if let Some(outside) = without_consent(app, headers, consent) {
        return outside;
    }
    let secure = app.settings.secure_cookies;
    let anon_id = cookie(headers, ANON_ID_COOKIE).filter(|v| rules::is_anon_id(v));
    let new_id = app::platform::session::hex(&rand::random::<[u8; 16]>());
    let viewer = Viewer {
        site_id,
        member_id,
        anon_id: anon_id.as_deref(),
    };
    let settings = app.experiments.current();
    let now = app::platform::state::now();
    let experiments =
        or_defaults(service::page_view(&app.exposures, &settings, &viewer, &new_id, now).await);
    let set =
        (member_id.is_none() && anon_id.is_none()).then(|| anon_id_cookie(Some(&new_id), secure));
    (experiments, set)
}

/// A member's experiments for a form they post (no page view, so nothing is recorded): the
/// variations their page views drew, or outside every experiment without the performance
/// cookies. The contact form's handler asks this for `member_contact_form`.
pub fn for_member_action(app: &AppCtx, headers: &HeaderMap, member_id: i64) -> Experiments {
    use app::onboarding::rules::{consent_accepted, parse_consent, CONSENT_COOKIE};
    let consent = parse_consent(cookie(headers, CONSENT_COOKIE).as_deref());
    if !consent_accepted(&consent, rules::CONSENT_CATEGORY) {
        return Experiments::outside();
    }
    app.experiments
        .current()
        .experiments_for(rules::Audience::Member, &format!("m:{member_id}"))
}

/// A visitor who did not accept the performance cookies is outside every experiment, and
/// loses the anonymous id they had: decided without the database. None when they accepted.
pub fn without_consent(
    app: &AppCtx,
    headers: &HeaderMap,
    consent: &Option<Vec<(String, bool)>>,
) -> Option<(Experiments, Option<String>)> {
    if app::onboarding::rules::consent_accepted(consent, rules::CONSENT_CATEGORY) {
        return None;
    }
    let sent = cookie(headers, ANON_ID_COOKIE);
    Some((
        Experiments::outside(),
        sent.map(|_| anon_id_cookie(None, app.settings.secure_cookies)),
    ))
}

/// The experiments read for a page, or (logged as spec 000 §8 says) the defaults of a
/// visitor outside any experiment when they could not be read.
pub fn or_defaults<E: std::fmt::Display>(read: Result<Experiments, E>) -> Experiments {
    read.unwrap_or_else(|e| {
        tracing::error!(error = %e, "ABTesting fetch error");
        Experiments::outside()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::experiments::rules::Settings;
    use app::model::experiments::Feature;

    #[derive(Clone, Default)]
    struct Buf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_read_gives_the_defaults() {
        let read = Settings::default().experiments_for(
            rules::Audience::Anonymous,
            "a:00000000000000000000000000000018",
        );
        assert!(
            !read.on(Feature::SponsoredBanners),
            "pinned holdback control"
        );
        assert_eq!(or_defaults::<String>(Ok(read.clone())), read);
        // Logged as spec 000 §8 names it, with the cause.
        let buf = Buf::default();
        let writer = buf.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let failed = tracing::subscriber::with_default(subscriber, || {
            or_defaults(Err("database is locked"))
        });
        let logged = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(
            logged.contains("ERROR")
                && logged.contains("ABTesting fetch error")
                && logged.contains("database is locked"),
            "{logged}"
        );
        assert_eq!(failed, Experiments::outside());
        assert!(failed.assigned.is_empty());
        assert!(failed.on(Feature::SponsoredBanners) && failed.on(Feature::LastViewed));
        assert!(!failed.on(Feature::DynamicPricing));
    }

    #[test]
    fn the_anonymous_id_cookie_lasts_13_months() {
        let c = anon_id_cookie(Some("00000000000000000000000000000001"), false);
        assert!(
            c.starts_with("rosace_anon_id=00000000000000000000000000000001"),
            "{c}"
        );
        assert!(c.contains("Path=/") && c.contains("Max-Age=34128000") && c.contains("HttpOnly"));
        assert!(c.contains("SameSite=Lax") && !c.contains("Secure"), "{c}");
        assert!(anon_id_cookie(Some("x"), true).contains("Secure"));
        let gone = anon_id_cookie(None, false);
        assert!(
            gone.starts_with("rosace_anon_id=;") && gone.contains("Max-Age=0"),
            "{gone}"
        );
    }
}
