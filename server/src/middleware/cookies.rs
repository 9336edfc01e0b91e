//! Reading and writing our cookies. Reading goes through the `cookie` crate so that
//! `%`-escaped values decode the way browsers and other servers encode them.
use axum::http::{header, HeaderMap};
use cookie::{Cookie, SameSite};

use crate::state::AppCtx;

pub const SITE_COOKIE: &str = "site";

/// The value of cookie `name` in the request, percent-decoded.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse_encoded)
        .filter_map(Result::ok)
        .find(|c| c.name() == name)
        .map(|c| c.value().to_string())
}

pub fn session_cookie_name(app: &AppCtx) -> &'static str {
    if app.settings.secure_cookies {
        app::platform::session::SECURE_COOKIE
    } else {
        app::platform::session::COOKIE
    }
}

/// `Set-Cookie` for the session: HttpOnly, SameSite=Lax, Secure and `__Host-` over HTTPS.
pub fn session_cookie(app: &AppCtx, token: &str, max_age: Option<i64>) -> String {
    let mut c = Cookie::build((session_cookie_name(app), token))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(app.settings.secure_cookies);
    if let Some(age) = max_age {
        c = c.max_age(cookie::time::Duration::seconds(age));
    }
    c.build().to_string()
}

/// The XSRF cookie's name: `__Host-XSRF-TOKEN` over HTTPS (no sibling host or plain-HTTP
/// page can set or shadow it), `XSRF-TOKEN` otherwise.
pub fn xsrf_cookie_name(app: &AppCtx) -> &'static str {
    if app.settings.secure_cookies {
        app::platform::csrf::SECURE_COOKIE
    } else {
        app::platform::csrf::COOKIE
    }
}

/// `Set-Cookie` for the XSRF token: readable by scripts (they echo it in a header).
pub fn xsrf_cookie(app: &AppCtx, token: &str) -> String {
    Cookie::build((xsrf_cookie_name(app), token))
        .path("/")
        .same_site(SameSite::Lax)
        .secure(app.settings.secure_cookies)
        .build()
        .to_string()
}

/// The pre-session cookie: a random id per visitor that anonymous XSRF tokens are bound
/// to, so that one visitor's token is worthless to another.
pub const VISITOR_COOKIE: &str = "rosace_visitor";
pub const SECURE_VISITOR_COOKIE: &str = "__Host-rosace_visitor";

pub fn visitor_cookie_name(app: &AppCtx) -> &'static str {
    if app.settings.secure_cookies {
        SECURE_VISITOR_COOKIE
    } else {
        VISITOR_COOKIE
    }
}

/// `Set-Cookie` for the pre-session id: HttpOnly, for the browser session, `__Host-` and
/// Secure over HTTPS.
pub fn visitor_cookie(app: &AppCtx, id: &str) -> String {
    Cookie::build((visitor_cookie_name(app), id))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(app.settings.secure_cookies)
        .build()
        .to_string()
}

/// `Set-Cookie` remembering the visitor's site for a year (Secure over HTTPS, so a
/// plain-HTTP response cannot overwrite it).
pub fn site_cookie(site_id: u16, secure: bool) -> String {
    Cookie::build((SITE_COOKIE, site_id.to_string()))
        .path("/")
        .max_age(cookie::time::Duration::days(365))
        .same_site(SameSite::Lax)
        .secure(secure)
        .build()
        .to_string()
}

/// `Set-Cookie` for the brand cookie `appBrand` (spec 000 §3, §9): the brand of the site
/// the visitor was shown (`Rosace` or `Violeta`), for one day; readable by scripts.
pub fn app_brand_cookie(brand: app::site::Brand, secure: bool) -> String {
    use app::site::theme::{APP_BRAND_COOKIE, APP_BRAND_MAX_AGE_SECS};
    Cookie::build((APP_BRAND_COOKIE, brand.name()))
        .path("/")
        .max_age(cookie::time::Duration::seconds(APP_BRAND_MAX_AGE_SECS))
        .same_site(SameSite::Lax)
        .secure(secure)
        .build()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookie_values_are_found_and_percent_decoded() {
        let mut h = HeaderMap::new();
        h.append(header::COOKIE, "a=1; site=66".parse().unwrap());
        h.append(header::COOKIE, "consent=a%2Cb".parse().unwrap());
        assert_eq!(cookie(&h, "site").as_deref(), Some("66"));
        assert_eq!(cookie(&h, "consent").as_deref(), Some("a,b"));
        assert_eq!(cookie(&h, "missing"), None);
    }

    #[test]
    fn site_cookie_keeps_its_attributes() {
        let c = site_cookie(69, false);
        assert!(c.starts_with("site=69"), "{c}");
        assert!(
            c.contains("Path=/") && c.contains("Max-Age=31536000") && c.contains("SameSite=Lax")
        );
        assert!(!c.contains("Secure"), "{c}");
    }

    #[test]
    fn app_brand_cookie_lasts_a_day() {
        let c = app_brand_cookie(app::site::Brand::Violeta, false);
        assert!(c.starts_with("appBrand=Violeta"), "{c}");
        assert!(c.contains("Path=/") && c.contains("Max-Age=86400") && c.contains("SameSite=Lax"));
        assert!(!c.contains("HttpOnly") && !c.contains("Secure"), "{c}");
        assert!(app_brand_cookie(app::site::Brand::Rosace, true).contains("Secure"));
    }

    #[test]
    fn site_cookie_is_secure_over_https() {
        let c = site_cookie(69, true);
        assert!(c.starts_with("site=69") && c.contains("Secure"), "{c}");
    }
}
