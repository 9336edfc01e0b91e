use leptos::prelude::*;
use leptos_meta::{Link, Meta, Title};

use crate::context::RequestCtx;

/// Title, description, canonical URL and hreflang alternates of a page.
#[component]
pub fn SeoMeta(
    title: String,
    description: String,
    /// Path of the page (no query), the same on every site.
    path: String,
    #[prop(default = true)] indexable: bool,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let site = ctx.site();
    let brand = site.brand.name();
    let full_title = if title.contains(brand) {
        title
    } else {
        format!("{title} | {brand}")
    };
    let canonical = ctx.url_on(site.site_id, &path);
    let alternates = site
        .siblings()
        .map(|s| {
            let href = ctx.url_on(s.site_id, &path);
            view! { <Link rel="alternate" hreflang=s.locale href=href /> }
        })
        .collect_view();
    view! {
        <Title text=full_title />
        <Meta name="description" content=description />
        <Link rel="canonical" href=canonical />
        {alternates}
        {(!indexable).then(|| view! { <Meta name="robots" content="noindex, nofollow" /> })}
    }
}
