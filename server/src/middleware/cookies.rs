//! Reading and writing our cookies. Reading goes through the `cookie` crate so that
//! `%`-escaped values decode the way browsers and other servers encode them. Writing the
//! few cookies a page view sets is a string of their attributes (`set_cookie`): the
//! crate's builder and `Display` took about 3% of a cached page's CPU (perf), and our
//! values (hex ids, tokens, site numbers, brand names) never need its escaping.
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

/// The attributes of a cookie we set: always `SameSite=Lax` and `Path=/`.
#[derive(Clone, Copy)]
struct Attributes {
    http_only: bool,
    secure: bool,
    max_age: Option<i64>,
}

/// `Set-Cookie` in the `cookie` crate's order of attributes (the same bytes as its
/// `Display`), for values that need no escaping.
fn set_cookie(name: &str, value: &str, a: Attributes) -> String {
    debug_assert!(value
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_'));
    let mut out = String::with_capacity(name.len() + value.len() + 64);
    out.push_str(name);
    out.push('=');
    out.push_str(value);
    if a.http_only {
        out.push_str("; HttpOnly");
    }
    out.push_str("; SameSite=Lax");
    if a.secure {
        out.push_str("; Secure");
    }
    out.push_str("; Path=/");
    if let Some(age) = a.max_age {
        out.push_str("; Max-Age=");
        out.push_str(&age.to_string());
    }
    out
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
    let attributes = Attributes {
        http_only: false,
        secure: app.settings.secure_cookies,
        max_age: None,
    };
    set_cookie(xsrf_cookie_name(app), token, attributes)
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
    let attributes = Attributes {
        http_only: true,
        secure: app.settings.secure_cookies,
        max_age: None,
    };
    set_cookie(visitor_cookie_name(app), id, attributes)
}

/// `Set-Cookie` remembering the visitor's site for a year (Secure over HTTPS, so a
/// plain-HTTP response cannot overwrite it).
pub fn site_cookie(site_id: u16, secure: bool) -> String {
    let attributes = Attributes {
        http_only: false,
        secure,
        max_age: Some(365 * 24 * 3600),
    };
    set_cookie(SITE_COOKIE, &site_id.to_string(), attributes)
}

/// `Set-Cookie` for the brand cookie `appBrand` (spec 000 §3, §9): the brand of the site
/// the visitor was shown (`Rosace` or `Violeta`), for one day; readable by scripts.
pub fn app_brand_cookie(brand: app::site::Brand, secure: bool) -> String {
    use app::site::theme::{APP_BRAND_COOKIE, APP_BRAND_MAX_AGE_SECS};
    let attributes = Attributes {
        http_only: false,
        secure,
        max_age: Some(APP_BRAND_MAX_AGE_SECS),
    };
    set_cookie(APP_BRAND_COOKIE, brand.name(), attributes)
}

/// `Set-Cookie` for a partner cookie (app/src/auth/attribution/partner.rs): HttpOnly (only
/// the server reads it); the value is a checked partner id.
pub fn partner_cookie(name: &str, partner: &str, max_age: i64, secure: bool) -> String {
    let attributes = Attributes {
        http_only: true,
        secure,
        max_age: Some(max_age),
    };
    set_cookie(name, partner, attributes)
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

    /// The hand-written cookies are the bytes the `cookie` crate writes for them.
    #[test]
    fn set_cookie_writes_what_the_cookie_crate_writes() {
        for (http_only, secure, max_age) in [
            (false, false, None),
            (true, false, None),
            (false, true, Some(86_400)),
            (true, true, Some(31_536_000)),
        ] {
            let mut built = Cookie::build(("rosace_visitor", "0af3.9c_e-1"))
                .path("/")
                .http_only(http_only)
                .same_site(SameSite::Lax)
                .secure(secure);
            if let Some(age) = max_age {
                built = built.max_age(cookie::time::Duration::seconds(age));
            }
            let attributes = Attributes {
                http_only,
                secure,
                max_age,
            };
            assert_eq!(
                set_cookie("rosace_visitor", "0af3.9c_e-1", attributes),
                built.build().to_string()
            );
        }
    }

    #[test]
    fn site_cookie_is_secure_over_https() {
        let c = site_cookie(69, true);
        assert!(c.starts_with("site=69") && c.contains("Secure"), "{c}");
    }
}
