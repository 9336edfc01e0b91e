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
    /// The page's hreflang alternates as (site, path) when its path differs per site (a
    /// landing page's slug is in its language): only these are listed, each at its own
    /// path. Without it, every site of the brand at `path`.
    #[prop(optional)]
    alternates: Option<Vec<(u16, String)>>,
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
    let alternates: Vec<(u16, String)> = match alternates {
        Some(list) => list
            .into_iter()
            .filter(|(id, _)| site.siblings().any(|s| s.site_id == *id))
            .collect(),
        None => site.siblings().map(|s| (s.site_id, path.clone())).collect(),
    };
    let alternates = alternates
        .into_iter()
        .filter_map(|(id, p)| {
            let s = crate::site::by_id(id)?;
            let href = ctx.url_on(id, &p);
            Some(view! { <Link rel="alternate" hreflang=s.locale href=href /> })
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
