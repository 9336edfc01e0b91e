//! The back office's page frame, rendered on the server by Leptos (no island, no WASM: the
//! members' bundle holds none of it). One stylesheet and one script of its own: the form
//! enhancement of the shop (`frontend-react/src/pages/backoffice.ts` loads it) and the
//! dashboard's live figures. Every page works without the script.
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use leptos::prelude::*;

use super::roles::Permission;
use super::session::Operator;
use super::{text, PREFIX};

pub const STYLESHEET: &str = include_str!("../../../style/backoffice.css");

/// The back office's pages load only their own stylesheet and script, fetch only this
/// origin (the enhancement, the dashboard's stream) and post forms only to it.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                       connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The stylesheet's address, content-hashed so it is cached `immutable`.
pub fn stylesheet_href() -> &'static str {
    static HREF: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HREF.get_or_init(|| {
        format!(
            "{PREFIX}/assets/backoffice-{:08x}.css",
            crc32fast::hash(STYLESHEET.as_bytes())
        )
    })
}

/// A whole page: the operator's menu (what their role may open), the title, an optional
/// notice (`role="status"`) or error (`role="alert"`), and the body.
pub fn page(
    status: StatusCode,
    lang: &str,
    operator: Option<&Operator>,
    title: &str,
    notice: Option<String>,
    body: AnyView,
) -> Response {
    let lang = lang.to_string();
    let t = |k: &str| text::t(&lang, k);
    let nav = operator.map(|op| {
        let mut links: Vec<(&str, String)> = vec![(t("nav.home"), format!("{PREFIX}/"))];
        if op.can(Permission::ReadCatalogue) {
            links.push((t("nav.sales"), format!("{PREFIX}/sales")));
            links.push((t("nav.brands"), format!("{PREFIX}/brands")));
        }
        if op.can(Permission::EditCatalogue) {
            links.push((t("nav.import"), format!("{PREFIX}/import")));
        }
        if op.can(Permission::ManageOrders) {
            links.push((t("nav.orders"), format!("{PREFIX}/orders")));
            links.push((t("nav.returns"), format!("{PREFIX}/returns")));
        }
        if op.can(Permission::ManageMembers) {
            links.push((t("nav.members"), format!("{PREFIX}/members")));
        }
        if op.can(Permission::AnswerTickets) {
            links.push((t("nav.support"), format!("{PREFIX}/support")));
        }
        if op.can(Permission::EditHelpArticles) {
            links.push((t("nav.help"), format!("{PREFIX}/help")));
        }
        if op.can(Permission::ManagePromotions) {
            links.push((t("nav.campaigns"), format!("{PREFIX}/campaigns")));
            links.push((t("nav.operations"), format!("{PREFIX}/operations")));
            links.push((t("nav.registrations"), format!("{PREFIX}/registrations")));
        }
        if op.can(Permission::RunExperiments) {
            links.push((t("nav.experiments"), format!("{PREFIX}/experiments")));
        }
        if op.can(Permission::ModerateContent) {
            links.push((t("nav.moderation"), format!("{PREFIX}/moderation")));
        }
        if op.can(Permission::ManageOperators) {
            links.push((t("nav.operators"), format!("{PREFIX}/operators")));
        }
        if op.can(Permission::ReadAudit) {
            links.push((t("nav.audit"), format!("{PREFIX}/audit")));
        }
        let who = format!("{} · {}", op.row.email, op.row.role.as_str());
        let xsrf = op.xsrf.clone();
        view! {
            <nav class="bo-nav" aria-label=t("app")>
                <ul>
                    {links.into_iter().map(|(label, href)| view! { <li><a href=href>{label}</a></li> }).collect_view()}
                </ul>
                <p class="bo-who">{who}</p>
                <form method="post" action=format!("{PREFIX}/signout")>
                    <input type="hidden" name="_xsrf" value=xsrf />
                    <button type="submit" class="bo-link">{t("nav.signout")}</button>
                </form>
            </nav>
        }
    });
    let notice =
        notice.map(|n| view! { <p class="bo-notice" role="status" data-enhance-announce>{n}</p> });
    let doc_title = format!("{title} · {}", t("app"));
    let html = Owner::new().with(|| {
        view! {
            <html lang=lang.clone() data-failed=t("enhance.failed")>
                <head>
                    <meta charset="utf-8" />
                    <meta name="viewport" content="width=device-width, initial-scale=1" />
                    <meta name="robots" content="noindex, nofollow" />
                    <title>{doc_title}</title>
                    <link rel="stylesheet" href=stylesheet_href() />
                    <script type="module" src=app::ui::assets::script("backoffice")></script>
                </head>
                <body>
                    <a class="bo-skip" href="#main">{t("skip")}</a>
                    <header class="bo-header">
                        <p class="bo-brand"><a href=format!("{PREFIX}/")>{t("app")}</a></p>
                        {nav}
                    </header>
                    <main id="main" data-enhance-region="main" tabindex="-1">
                        <h1>{title.to_string()}</h1>
                        {notice}
                        {body}
                    </main>
                </body>
            </html>
        }
        .to_html()
    });
    let mut res = (status, format!("<!DOCTYPE html>{html}")).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    res
}

/// A page that only says something (refusals, dead links).
pub fn message_page(
    lang: &str,
    operator: Option<&Operator>,
    status: StatusCode,
    message: &str,
) -> Response {
    let message = message.to_string();
    page(
        status,
        lang,
        operator,
        text::t(lang, "app"),
        None,
        view! { <p class="bo-error" role="alert">{message}</p> }.into_any(),
    )
}

pub fn denied(op: &Operator) -> Response {
    let lang = op.row.lang.clone();
    page(
        StatusCode::FORBIDDEN,
        &lang,
        Some(op),
        text::t(&lang, "denied.title"),
        None,
        view! { <p role="alert">{text::t(&lang, "denied.text")}</p> }.into_any(),
    )
}

pub fn not_found(op: &Operator) -> Response {
    message_page(
        &op.row.lang,
        Some(op),
        StatusCode::NOT_FOUND,
        op.t("notfound"),
    )
}

/// A database failure: logged, and the general message (nothing half-done: every write
/// is one transaction).
pub fn db_error(e: sqlx::Error) -> Response {
    tracing::error!(error = %e, "back office: database error");
    message_page(
        "en",
        None,
        StatusCode::INTERNAL_SERVER_ERROR,
        "Something went wrong on our side; nothing was changed. Try again in a moment.",
    )
}

/// After a write: back to `to` with a notice key (Post/Redirect/Get).
pub fn see_other(to: &str) -> Response {
    let mut res = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(to) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// `res` with one more `Set-Cookie`.
pub fn with_cookie(mut res: Response, set_cookie: impl AsRef<str>) -> Response {
    if let Ok(v) = HeaderValue::from_str(set_cookie.as_ref()) {
        res.headers_mut().append(header::SET_COOKIE, v);
    }
    res
}

/// The previous and next links of a list shown a page at a time (`page` from 1; `more`
/// when a next page has rows), each built by `link`.
pub fn pager(
    op: &Operator,
    page: usize,
    more: bool,
    link: impl Fn(usize) -> String,
) -> impl IntoView {
    let previous = (page > 1).then(
        || view! { <a href=link(page - 1) rel="prev">{op.t("page.previous").to_string()}</a> },
    );
    let next = more
        .then(|| view! { <a href=link(page + 1) rel="next">{op.t("page.next").to_string()}</a> });
    view! { <nav class="bo-pager" aria-label=op.t("page.nav").to_string()>{previous}{next}</nav> }
}

/// The page a list's `page` query asks for: from 1, anything unreadable being the first.
pub fn page_number(raw: &str) -> usize {
    raw.trim().parse::<usize>().unwrap_or(1).clamp(1, 100_000)
}

/// An amount in cents as the back office shows it: `89.90`.
pub fn amount(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, (cents % 100).abs())
}

/// The hidden field every back-office form carries.
pub fn xsrf_field(op: &Operator) -> impl IntoView {
    view! { <input type="hidden" name="_xsrf" value=op.xsrf.clone() /> }
}

/// A labelled field with its error, if any (`aria-invalid`, `aria-describedby`).
pub fn field(label: &str, name: &str, input: AnyView, error: Option<&str>) -> impl IntoView {
    let id_err = format!("err-{name}");
    let error = error.map(|e| view! { <p class="bo-field-error" id=id_err.clone() data-error-for=name.to_string()>{e.to_string()}</p> });
    view! {
        <div class="bo-field" data-field>
            <label for=name.to_string()>{label.to_string()}</label>
            {input}
            {error}
        </div>
    }
}

/// `2026-12-01T08:00` (UTC) for an instant, as a `datetime-local` field shows it.
pub fn datetime_value(unix: i64) -> String {
    let date = app::travel::rules::Date::from_unix(unix);
    let secs = unix.rem_euclid(86_400);
    format!("{date}T{:02}:{:02}", secs / 3600, (secs % 3600) / 60)
}

/// The instant of a `datetime-local` value taken as UTC (`2026-12-01T08:00`, seconds allowed).
pub fn parse_datetime(value: &str) -> Option<i64> {
    let (date, time) = value.trim().split_once('T')?;
    let date = app::travel::rules::Date::parse(date)?;
    let mut hm = time.split(':');
    let h: i64 = hm.next()?.parse().ok()?;
    let m: i64 = hm.next()?.parse().ok()?;
    let s: i64 = match hm.next() {
        Some(s) => s.parse().ok()?,
        None => 0,
    };
    if !(0..24).contains(&h)
        || !(0..60).contains(&m)
        || !(0..60).contains(&s)
        || hm.next().is_some()
    {
        return None;
    }
    let days = app::travel::rules::Date::from_unix(0).days_until(date);
    Some(days * 86_400 + h * 3600 + m * 60 + s)
}

/// A short UTC time for lists: `2026-12-01 08:00`.
pub fn when(unix: i64) -> String {
    datetime_value(unix).replace('T', " ")
}

/// A refused form's field errors as its page shows them: each field's message, its
/// `aria-invalid` and `aria-describedby` (the message's id is `err-{name}`, as [`field`]
/// gives it), and the summary above the form.
pub struct FieldMessages<'a> {
    op: &'a Operator,
    errors: &'a [(&'static str, &'static str)],
}

impl<'a> FieldMessages<'a> {
    pub fn new(op: &'a Operator, errors: &'a [(&'static str, &'static str)]) -> Self {
        FieldMessages { op, errors }
    }

    pub fn message(&self, name: &str) -> Option<&'static str> {
        self.errors
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| self.op.t(k))
    }

    pub fn invalid(&self, name: &str) -> Option<&'static str> {
        self.message(name).map(|_| "true")
    }

    pub fn described(&self, name: &str) -> Option<String> {
        self.message(name).map(|_| format!("err-{name}"))
    }

    pub fn summary(&self) -> Option<AnyView> {
        (!self.errors.is_empty()).then(|| {
            view! { <p class="bo-error" role="alert">{self.op.t("form.errors")}</p> }.into_any()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datetimes_read_back() {
        for t in [0, 1_800_000_000, 1_795_000_020] {
            let v = datetime_value(t);
            assert_eq!(parse_datetime(&v), Some(t - t.rem_euclid(60)));
        }
        assert_eq!(parse_datetime("2026-12-01T08:00"), Some(1_796_112_000));
        assert_eq!(parse_datetime("2026-12-01T24:00"), None);
        assert_eq!(parse_datetime("2026-13-01T08:00"), None);
        assert_eq!(parse_datetime("yesterday"), None);
        assert_eq!(parse_datetime("2026-12-01T08:00:00:00"), None);
    }
}
