//! What a form's POST answers: always a redirect (Post/Redirect/Get), to the page that shows
//! the outcome. One type for every form, so each handler says what happened and this says
//! how it is sent: the site's suffix on the address, `no-store`, the draft cookie of a
//! refused form (HttpOnly, SameSite=Strict, Secure over HTTPS, five minutes).
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use app::context::RequestCtx;
use app::ui::draft::{self, FormDraft};

use crate::state::AppCtx;
use crate::web::session::site_suffix;

pub struct FormOutcome {
    kind: Kind,
    cookies: Vec<DraftCookie>,
}

enum Kind {
    /// A page of this site: the site's suffix is added.
    Here(String),
    /// Another address, as is (an identity provider, a link that already names its site).
    Away(String),
    /// A response made otherwise (a new session's cookies, a file).
    Made(Response),
}

struct DraftCookie {
    name: &'static str,
    path: String,
    value: String,
    max_age: i64,
}

/// `page` with `param=value` added to its query, before any `#anchor`.
pub(crate) fn with_param(page: &str, param: &str, value: &str) -> String {
    let (before, anchor) = match page.split_once('#') {
        Some((before, anchor)) => (before, format!("#{anchor}")),
        None => (page, String::new()),
    };
    let sep = if before.contains('?') { '&' } else { '?' };
    format!("{before}{sep}{param}={value}{anchor}")
}

impl FormOutcome {
    /// To `page` of this site, as is.
    pub fn to(page: impl Into<String>) -> FormOutcome {
        FormOutcome {
            kind: Kind::Here(page.into()),
            cookies: vec![],
        }
    }

    /// Back to `page` with its notice (`notice=<key>`; pages show known keys only).
    pub fn notice(page: &str, key: &str) -> FormOutcome {
        FormOutcome::to(with_param(page, "notice", key))
    }

    /// Back to `page` with its error (`error=<key>`).
    pub fn error(page: &str, key: &str) -> FormOutcome {
        FormOutcome::to(with_param(page, "error", key))
    }

    /// Back to `page` with the refused form filled in: `retry=1`, and the draft in its
    /// cookie, scoped to that page (not in the address, where personal data would reach
    /// histories and logs).
    pub fn retry<D: FormDraft>(page: &str, d: &D) -> FormOutcome {
        let path = page.split(['?', '#']).next().unwrap_or(page).to_string();
        FormOutcome {
            kind: Kind::Here(retry_first(page)),
            cookies: vec![DraftCookie {
                name: D::COOKIE,
                path,
                value: draft::encode(d),
                max_age: draft::MAX_AGE_SECS,
            }],
        }
    }

    /// Another address, as is.
    pub fn away(url: impl Into<String>) -> FormOutcome {
        FormOutcome {
            kind: Kind::Away(url.into()),
            cookies: vec![],
        }
    }

    /// A response made otherwise (a sign-in's new session).
    pub fn made(res: Response) -> FormOutcome {
        FormOutcome {
            kind: Kind::Made(res),
            cookies: vec![],
        }
    }

    /// Drops the draft `D` kept for `path` (the form was accepted: what it held is gone).
    pub fn clearing<D: FormDraft>(mut self, path: &str) -> FormOutcome {
        self.cookies.push(DraftCookie {
            name: D::COOKIE,
            path: path.to_string(),
            value: String::new(),
            max_age: 0,
        });
        self
    }

    pub fn respond(self, app: &AppCtx, ctx: &RequestCtx) -> Response {
        let mut res = match self.kind {
            Kind::Here(page) => see_other(&on_site(&page, &site_suffix(ctx, ctx.site_id))),
            Kind::Away(url) => see_other(&url),
            Kind::Made(res) => res,
        };
        let secure = if app.settings.secure_cookies {
            "; Secure"
        } else {
            ""
        };
        for c in self.cookies {
            let v = format!(
                "{}={}; Path={}; Max-Age={}; HttpOnly; SameSite=Strict{secure}",
                c.name, c.value, c.path, c.max_age
            );
            if let Ok(v) = HeaderValue::from_str(&v) {
                res.headers_mut().append(header::SET_COOKIE, v);
            }
        }
        res
    }
}

/// `page` with `retry=1` first in its query.
fn retry_first(page: &str) -> String {
    match page.split_once('?') {
        // A page already reached by a refused post says it once.
        Some((path, query)) => {
            let rest: Vec<&str> = query
                .split('&')
                .filter(|p| !p.is_empty() && *p != "retry=1")
                .collect();
            if rest.is_empty() {
                format!("{path}?retry=1")
            } else {
                format!("{path}?retry=1&{}", rest.join("&"))
            }
        }
        None => with_param(page, "retry", "1"),
    }
}

/// `page` with the site's `&site=` suffix (when the host does not say the site), before any
/// `#anchor`.
fn on_site(page: &str, suffix: &str) -> String {
    let Some(param) = suffix.strip_prefix('&') else {
        return page.to_string();
    };
    let (before, anchor) = match page.split_once('#') {
        Some((before, anchor)) => (before, format!("#{anchor}")),
        None => (page, String::new()),
    };
    let sep = if before.contains('?') { '&' } else { '?' };
    format!("{before}{sep}{param}{anchor}")
}

/// A 303 to `location`, never stored by a cache.
pub fn see_other(location: &str) -> Response {
    let mut res = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

#[cfg(test)]
mod tests {
    use super::on_site;

    #[test]
    fn the_site_goes_into_the_query_before_any_anchor() {
        assert_eq!(
            on_site("/cart#delivery", "&site=2"),
            "/cart?site=2#delivery"
        );
        assert_eq!(on_site("/a?notice=k", "&site=2"), "/a?notice=k&site=2");
        assert_eq!(on_site("/", "&site=69"), "/?site=69");
        assert_eq!(on_site("/a?x=1#f", ""), "/a?x=1#f");
    }

    #[test]
    fn a_notice_goes_into_the_query_before_any_anchor() {
        use super::with_param;
        assert_eq!(
            with_param("/cart#delivery", "retry", "1"),
            "/cart?retry=1#delivery"
        );
        assert_eq!(with_param("/a?b=1", "notice", "k"), "/a?b=1&notice=k");
        assert_eq!(super::retry_first("/a?b=1#f"), "/a?retry=1&b=1#f");
        assert_eq!(super::retry_first("/a#f"), "/a?retry=1#f");
        // Refused again: one retry, the rest of the query kept.
        assert_eq!(super::retry_first("/a?retry=1&b=1"), "/a?retry=1&b=1");
        assert_eq!(super::retry_first("/a?retry=1"), "/a?retry=1");
    }
}
