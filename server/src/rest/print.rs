//! The printable pages (a cart's vouchers, a rose deal's vouchers): standalone HTML with
//! their own strict policy. Their one script is the `print` page module (the button
//! prints; a page marked `data-print-on-load` prints once loaded), so nothing runs inline.
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

/// Nothing loads but the print module, only the page's inline styles apply, no page may
/// frame it.
pub const PRINT_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; \
     frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// Whether the page prints as soon as it is open (the cart's voucher print link) or on
/// the button only.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Print {
    OnLoad,
    OnButton,
}

/// The page around `head` (title, styles) and `body` (its content, the button included),
/// never cached.
pub fn page(lang: &str, head: &str, body: &str, print: Print) -> Response {
    let on_load = if print == Print::OnLoad {
        " data-print-on-load"
    } else {
        ""
    };
    let html = format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">{head}</head>\
         <body{on_load}>{body}<script type=\"module\" src=\"{script}\"></script></body></html>",
        script = app::ui::assets::script("print"),
    );
    (
        [
            (header::CACHE_CONTROL, "no-store"),
            (header::CONTENT_SECURITY_POLICY, PRINT_CSP),
        ],
        Html(html),
    )
        .into_response()
}
