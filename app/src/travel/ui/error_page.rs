//! The travel technical error page `/t/error` (spec 001 §8 "Travel checkout failure"):
//! what happened, and the way back to the page it came from (`source`, a travel product
//! path; anything else leads to the travel home).
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::routes::ResolvedRoute;
use crate::ui::SeoMeta;

/// A source the page may link back to: a travel product path of our own, nothing else
/// (the parameter comes from the URL).
pub fn safe_source(source: Option<&str>) -> String {
    let ok = source.filter(|s| {
        let parts: Vec<&str> = s.split('/').collect();
        matches!(parts.as_slice(), ["", "t", "p", c, p] if !c.is_empty() && !p.is_empty()
            && c.bytes().all(|b| b.is_ascii_digit()) && p.bytes().all(|b| b.is_ascii_digit()))
    });
    ok.map(str::to_string)
        .unwrap_or_else(|| "/home/travel".into())
}

#[component]
pub fn TravelErrorPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let _ = route;
    let ctx = RequestCtx::current();
    let query = use_query_map();
    let back = move || safe_source(query.with(|q| q.get("source")).as_deref());
    let title = ctx.t("travel.error.title");
    view! {
        <SeoMeta title=title.clone() description=title.clone() path indexable=false />
        <section class="placeholder" data-testid="travel-error">
            <h1>{title}</h1>
            <p>{ctx.t("travel.error.text")}</p>
            <a class="button button--primary" href=back data-testid="travel-error-back">{ctx.t("travel.error.back")}</a>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::safe_source;

    #[test]
    fn only_a_travel_product_path_is_linked_back() {
        assert_eq!(safe_source(Some("/t/p/12/34")), "/t/p/12/34");
        for bad in [
            "//evil.example/t/p/1/2",
            "https://evil.example",
            "/t/p/1/2/../../x",
            "/t/p//2",
            "javascript:alert(1)",
            "",
        ] {
            assert_eq!(safe_source(Some(bad)), "/home/travel", "{bad}");
        }
        assert_eq!(safe_source(None), "/home/travel");
    }
}
