//! Item lists outside a sale: a brand's page across live sales (`/b/{id}`, open-door SEO
//! page) and the member's favourites (`/postsales/favourites`).
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::more::{LoadMore, MoreOf, GRID_ID};
use crate::catalog::api::{
    fetch_brand_page, fetch_favourites, BrandPageData, BrandQuery, PAGE_SIZE,
};
use crate::catalog::rules::brand_url;
use crate::context::RequestCtx;
use crate::routes::ResolvedRoute;
use crate::ui::error_template::ErrorNotice;
use crate::ui::item_tile::ItemTile;
use crate::ui::not_found::NotFound;
use crate::ui::SeoMeta;

fn loading() -> impl IntoView {
    view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }
}

fn failure() -> AnyView {
    view! { <ErrorNotice /> }.into_any()
}

#[component]
pub fn BrandPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let brand_id = route.get_id("brandId").unwrap_or(0);
    let page = use_query_map()
        .get_untracked()
        .get("page")
        .and_then(|p| p.parse::<u32>().ok())
        .unwrap_or(1)
        .max(1);
    let site = ctx.site_id;
    let data = Resource::new(
        move || (site, brand_id, page),
        |(site_id, brand_id, page)| {
            fetch_brand_page(BrandQuery {
                site_id,
                brand_id,
                page,
            })
        },
    );
    view! {
        <Suspense fallback=loading>
            {
                let path = path.clone();
                move || {
                    let path = path.clone();
                    Suspend::new(async move {
                        match data.await {
                            Ok(Some(d)) => view! { <BrandView data=d brand_id page path /> }.into_any(),
                            Ok(None) => view! { <NotFound /> }.into_any(),
                            Err(_) => failure(),
                        }
                    })
                }
            }
        </Suspense>
    }
}

#[component]
fn BrandView(data: BrandPageData, brand_id: i64, page: u32, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let pages = ((data.total + PAGE_SIZE - 1) / PAGE_SIZE).max(1) as u32;
    let description = ctx.t_with(
        "brand.description",
        &[("brand", &data.name), ("site", ctx.site().brand.name())],
    );
    let link = move |p: u32| brand_url(brand_id, p);
    let shown = data.items.len() as i64;
    let _ = path;
    view! {
        <SeoMeta title=data.name.clone() description path=link(page) />
        <section class="brand-page">
            <h1>{data.name.clone()}</h1>
            <p class="catalog__count" data-testid="catalog-count">{ctx.t_with("catalog.count", &[("count", &data.total.to_string())])}</p>
            {if data.items.is_empty() {
                view! { <p class="empty">{ctx.t("brand.empty")}</p> }.into_any()
            } else {
                view! {
                    <ul class="items-grid items-grid--4" id=GRID_ID data-testid="items-grid">
                        {data.items.into_iter().map(|item| view! { <ItemTile item columns=4 /> }).collect_view()}
                    </ul>
                }.into_any()
            }}
            // Scripts append the next pages here; the pager stays for a browser without.
            <LoadMore of=MoreOf::Brand { brand_id } page shown total=data.total />
            <nav class="pager" aria-label=ctx.t("catalog.pages")>
                {(page > 1).then(|| view! { <a rel="prev" href=link(page - 1)>{ctx.t("catalog.page.prev")}</a> })}
                <span>{ctx.t_with("catalog.page.of", &[("page", &page.to_string()), ("pages", &pages.to_string())])}</span>
                {(page < pages).then(|| view! { <a rel="next" href=link(page + 1)>{ctx.t("catalog.page.next")}</a> })}
            </nav>
        </section>
    }
}

#[component]
pub fn FavouritesPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let site = ctx.site_id;
    let data = Resource::new(move || site, fetch_favourites);
    let title = ctx.t("page.favourites");
    view! {
        <SeoMeta title=title.clone() description=title.clone() path />
        <section class="favourites-page">
            <h1>{title}</h1>
            <Suspense fallback=loading>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(items) if items.is_empty() => view! {
                            <p class="empty" data-testid="favourites-empty">{RequestCtx::current().t("favourites.empty")}</p>
                            <a class="button" href="/">{RequestCtx::current().t("favourites.browse")}</a>
                        }.into_any(),
                        Ok(items) => view! {
                            <ul class="items-grid items-grid--4" data-testid="favourites-grid">
                                {items.into_iter().map(|item| view! { <ItemTile item columns=4 /> }).collect_view()}
                            </ul>
                        }.into_any(),
                        Err(_) => failure(),
                    }
                })}
            </Suspense>
        </section>
    }
}
