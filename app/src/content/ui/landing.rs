//! `/l/{slug}`: an SEO landing page, open door. Its seoConfig gives the title, the
//! description and the paragraphs at its foot; content blocks come first, then its
//! selection (live sales, or a brand's items). An unknown slug is the real 404 page.
use leptos::prelude::*;

use crate::content::api::{fetch_landing, fetch_landing_by_key};
use crate::content::model::{Landing, LandingSale};
use crate::context::RequestCtx;
use crate::routes::ResolvedRoute;
use crate::ui::error_template::ErrorNotice;
use crate::ui::item_tile::ItemTile;
use crate::ui::not_found::NotFound;
use crate::ui::SeoMeta;

#[component]
pub fn LandingPage(route: ResolvedRoute, path: String) -> impl IntoView {
    // `/gr/gifts` (and the like): the site's page with that translation key, by redirect to
    // its canonical `/l/{slug}`.
    if let Some(key) = route.get("translationKey") {
        let key = key.to_string();
        return view! { <LandingByKey key /> }.into_any();
    }
    let slug = route.get("seo").unwrap_or_default().to_string();
    // Only `/l/{slug}` (or `/gr/l/{slug}`) is a landing page; deeper paths (other than the
    // SEO product variant, resolved before) name nothing.
    if !is_landing_path(&path, &slug) {
        return view! { <NotFound /> }.into_any();
    }
    let data = Resource::new(move || slug.clone(), fetch_landing);
    let loading = || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> };
    view! {
        <Suspense fallback=loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(Some(l)) => view! { <LandingView landing=l /> }.into_any(),
                    Ok(None) => view! { <NotFound /> }.into_any(),
                    Err(_) => view! { <ErrorNotice /> }.into_any(),
                }
            })}
        </Suspense>
    }
    .into_any()
}

/// A stable address for a landing page whatever its slug in the site's language: the
/// server answers with a redirect (302) to the site's page with this translation key, the
/// query kept; a site without one gets the 404 page.
#[component]
fn LandingByKey(key: String) -> impl IntoView {
    let data = Resource::new(move || key.clone(), fetch_landing_by_key);
    let search = leptos_router::hooks::use_location().search.get_untracked();
    let loading = || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> };
    view! {
        <Suspense fallback=loading>
            {move || {
                let search = search.clone();
                Suspend::new(async move {
                    match data.await {
                        Ok(Some(target)) => {
                            let target = crate::routes::with_query(&target, &search);
                            crate::operations::ui::redirect_to(&target);
                            view! { <p class="page__redirect"><a href=target.clone()>{RequestCtx::current().t("page.landing")}</a></p> }.into_any()
                        }
                        Ok(None) => view! { <NotFound /> }.into_any(),
                        Err(_) => view! { <ErrorNotice /> }.into_any(),
                    }
                })
            }}
        </Suspense>
    }
}

fn is_landing_path(path: &str, slug: &str) -> bool {
    let path = path.strip_prefix(crate::routes::SITE_BASE).unwrap_or(path);
    path.trim_end_matches('/') == format!("/l/{slug}")
}

#[component]
fn LandingView(landing: Landing) -> impl IntoView {
    let ctx = RequestCtx::current();
    let path = format!("/l/{}", landing.slug);
    let seo = landing.seo_config.clone();
    // Each translation at its own slug: the same path on another site names nothing.
    let alternates: Vec<(u16, String)> = landing
        .translations
        .iter()
        .map(|t| (t.site_id, format!("/l/{}", t.slug)))
        .collect();
    let blocks = landing
        .blocks
        .iter()
        .map(|b| {
            view! {
                <section class="landing__block">
                    <h2>{b.heading.clone()}</h2>
                    <p>{b.text.clone()}</p>
                </section>
            }
        })
        .collect_view();
    let selection = if landing.selection_kind == "brand" {
        let title = ctx.t_with(
            "content.landing.brand_items",
            &[("brand", landing.brand.as_deref().unwrap_or_default())],
        );
        if landing.products.is_empty() {
            view! { <p class="empty" data-testid="landing-empty">{ctx.t("content.landing.empty")}</p> }.into_any()
        } else {
            view! {
                <h2 class="landing__selection-title">{title}</h2>
                <ul class="items-grid items-grid--4" data-testid="landing-products">
                    {landing.products.into_iter().map(|item| view! { <ItemTile item columns=4 /> }).collect_view()}
                </ul>
            }
            .into_any()
        }
    } else if landing.sales.is_empty() {
        view! { <p class="empty" data-testid="landing-empty">{ctx.t("content.landing.empty")}</p> }
            .into_any()
    } else {
        view! {
            <h2 class="landing__selection-title">{ctx.t("content.landing.sales")}</h2>
            <ul class="landing__sales" data-testid="landing-sales">
                {landing.sales.into_iter().map(|sale| view! { <SaleCard sale /> }).collect_view()}
            </ul>
        }
        .into_any()
    };
    view! {
        <SeoMeta title=seo.title description=seo.description path alternates />
        <article class="landing" data-testid="landing" aria-labelledby="landing-title">
            <h1 id="landing-title">{landing.heading}</h1>
            <div class="landing__blocks">{blocks}</div>
            <section class="landing__selection" aria-label=ctx.t("content.landing.selection")>{selection}</section>
            <footer class="landing__seo" data-testid="landing-seo-footer">
                {seo.footer_paragraphs.into_iter().map(|p| view! { <p>{p}</p> }).collect_view()}
            </footer>
        </article>
    }
}

#[component]
fn SaleCard(sale: LandingSale) -> impl IntoView {
    let ctx = RequestCtx::current();
    let ends = ctx.t_with("sale.ends_on", &[("date", &ctx.date(sale.ends_at))]);
    view! {
        <li class="landing-sale">
            <a class="landing-sale__link" href=sale.url>
                <img class="landing-sale__image" src=sale.image_url alt="" width="600" height="300" loading="lazy" />
                <span class="landing-sale__name">{sale.name}</span>
            </a>
            <p class="landing-sale__description">{sale.description}</p>
            <p class="landing-sale__ends">{ends}</p>
        </li>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_one_segment_after_l_is_a_landing_path() {
        assert!(super::is_landing_path("/l/summer", "summer"));
        assert!(super::is_landing_path("/gr/l/summer/", "summer"));
        assert!(!super::is_landing_path("/l/summer/extra", "summer"));
        assert!(!super::is_landing_path("/gr/l/summer/extra", "summer"));
    }
}
