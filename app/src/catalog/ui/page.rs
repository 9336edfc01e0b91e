//! The sale catalog page (spec 000 §2): banner, description, legal notice, universes as
//! navigation, filters as links (one brand or colour moves into the path), sort, the items
//! grid and page links. Complete in the server HTML, so crawlable and usable without JS.
// Over 400 lines: one page whose view closures share its signals; the pieces are not reused.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::catalog::api::{fetch_catalog_page, CatalogPageData, CatalogQuery, PAGE_SIZE};
use crate::catalog::rules::{
    catalog_url, is_colour_slug, parse_catalog_url, CatalogAction, CatalogItemsState,
    CatalogSelection,
};
use crate::context::RequestCtx;
use crate::model::catalog_api::CatalogItem;
use crate::routes::ResolvedRoute;
use crate::ui::error_template::ErrorNotice;
use crate::ui::item_tile::ItemTile;
use crate::ui::not_found::NotFound;
use crate::ui::SeoMeta;

/// The path of a catalog page without filters, SEO variant or not.
fn base_path(route: &ResolvedRoute) -> String {
    let (c, u) = (
        route.get("campaignId").unwrap_or("0"),
        route.get("universeId").unwrap_or("0"),
    );
    match route.get("seo") {
        Some(seo) if route.seo => format!("/c/{seo}/{c}/{u}"),
        _ => format!("/catalog/{c}/{u}"),
    }
}

#[component]
pub fn CatalogPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let pairs: Vec<(String, String)> = [
        "brand",
        "color",
        "size",
        "price",
        "pmin",
        "pmax",
        "stock",
        "sort",
        "page",
        "catalogId",
    ]
    .iter()
    .filter_map(|k| query.get(k).map(|v| (k.to_string(), v)))
    .collect();
    let slug = route.get("brandOrColor").map(str::to_string);
    let selection = parse_catalog_url(
        route.get_id("catalogId"),
        slug.as_deref(),
        is_colour_slug,
        &pairs,
    );
    let sale_id = route.get_id("campaignId").unwrap_or(0);
    let universe_id = route.get_id("universeId").unwrap_or(0);
    let key = (ctx.site_id, sale_id, universe_id, selection.clone());
    let data = Resource::new(
        move || key.clone(),
        |(site, sale, universe, sel)| {
            fetch_catalog_page(CatalogQuery::of(site, sale, universe, &sel))
        },
    );
    let base = base_path(&route);
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let (base, path, selection, route) = (base.clone(), path.clone(), selection.clone(), route.clone());
                move || {
                    let (base, path, selection, route) = (base.clone(), path.clone(), selection.clone(), route.clone());
                    Suspend::new(async move {
                        match data.await {
                            Ok(Some(d)) => view! { <CatalogView data=d base path selection route /> }.into_any(),
                            Ok(None) => view! { <NotFound /> }.into_any(),
                            Err(_) => view! { <ErrorNotice /> }.into_any(),
                        }
                    })
                }
            }
        </Suspense>
    }
}

fn toggled(list: &[String], value: &str) -> Vec<String> {
    if list.iter().any(|v| v == value) {
        list.iter().filter(|v| *v != value).cloned().collect()
    } else {
        let mut l = list.to_vec();
        l.push(value.to_string());
        l
    }
}

/// The items grid with its column switch and "load more": the catalog page's island (the
/// pager links below it work without it).
#[island(lazy)]
fn CatalogItems(
    items: Vec<CatalogItem>,
    total: i64,
    offset: i64,
    selection: CatalogSelection,
    sale_id: i64,
    universe_id: i64,
) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let ctx = RequestCtx::current();
    // Items as the catalog items state of spec 000 §4: "load more" appends the next page.
    let loaded = CatalogItemsState {
        loading: false,
        items,
        total: total as u32,
        error: None,
        offset: offset as u32,
        limit: PAGE_SIZE as u32,
        request_id: 0,
        search_term: String::new(),
    };
    let items_state = RwSignal::new(loaded);
    let columns = RwSignal::new(2u8);
    let more = {
        let selection = selection.clone();
        move |_| {
            let state = items_state.get_untracked();
            if state.loading || state.items.len() as u32 >= state.total {
                return;
            }
            items_state.update(|s| {
                *s = std::mem::replace(s, CatalogItemsState::new(0))
                    .apply(CatalogAction::NextPage)
                    .apply(CatalogAction::Pending)
            });
            let offset = items_state.get_untracked().offset;
            let page = offset / PAGE_SIZE as u32 + 1;
            let sel = selection.clone();
            let (site, universe) = (RequestCtx::current().site_id, universe_id);
            leptos::task::spawn_local(async move {
                let query = CatalogQuery {
                    page,
                    ..CatalogQuery::of(site, sale_id, universe, &sel)
                };
                let result = fetch_catalog_page(query).await;
                items_state.update(|s| {
                    let action = match result {
                        Ok(Some(d)) => CatalogAction::Fulfilled {
                            offset,
                            total: d.content.total as u32,
                            items: d.content.items,
                        },
                        _ => {
                            leptos::logging::warn!("[Error] cannot fetch search items");
                            CatalogAction::Rejected("errors.general_retry.notification".into())
                        }
                    };
                    *s = std::mem::replace(s, CatalogItemsState::new(0)).apply(action);
                });
            });
        }
    };
    let items = move || {
        items_state
            .with(|s| s.items.clone())
            .into_iter()
            .map(|item| view! { <ItemTile item columns=columns.get() in_island=true /> })
            .collect_view()
    };
    let column_buttons = (1u8..=4)
        .map(|n| {
            let label = ctx.t_with("catalog.columns", &[("count", &n.to_string())]);
            view! {
                <button type="button" class="columns__option" aria-pressed=move || (columns.get() == n).to_string()
                    aria-label=label data-testid=format!("columns-{n}") on:click=move |_| columns.set(n)>
                    {n.to_string()}
                </button>
            }
        })
        .collect_view();
    let t = |k: &str| RequestCtx::current().t(k);
    view! {
    <div class="columns" role="group" aria-label=ctx.t("catalog.layout")>{column_buttons}</div>
            <ul class=move || format!("items-grid items-grid--{}", columns.get()) data-testid="items-grid">{items}</ul>
            {move || items_state.with(|s| s.error.clone()).map(|key| view! { <p class="error" role="alert">{t(&key)}</p> })}
            {move || {
                let (shown, total, loading) = items_state.with(|s| (s.items.len(), s.total as usize, s.loading));
                (shown < total).then(|| view! {
                    <button type="button" class="load-more" data-testid="load-more" on:click=more.clone() disabled=loading aria-busy=loading.to_string()>
                        {if loading { t("common.loading") } else { RequestCtx::current().t_with("catalog.load_more", &[("shown", &shown.to_string()), ("total", &total.to_string())]) }}
                    </button>
                })
            }}
        }
}

#[component]
fn CatalogView(
    data: CatalogPageData,
    base: String,
    path: String,
    selection: CatalogSelection,
    route: ResolvedRoute,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let sale = data.sale;
    let content = data.content;
    let sale_id = sale.id;
    let pages = ((content.total + PAGE_SIZE - 1) / PAGE_SIZE).max(1) as u32;
    let page = selection.page.max(1);
    // Filters and paging start from the default state of this universe.
    let reset = CatalogSelection {
        catalog_id: selection.catalog_id,
        page: 1,
        ..Default::default()
    };
    let link = |sel: &CatalogSelection| catalog_url(&base, sel);
    let seo_slug = route
        .get("seo")
        .map(str::to_string)
        .unwrap_or_else(|| crate::text::slug::slug(&sale.name));
    let canonical_path = format!(
        "/c/{seo_slug}/{}/{}",
        sale_id,
        route.get("universeId").unwrap_or("0")
    );
    let _ = path;
    let universe_href = |id: &str| {
        if route.seo {
            format!("/c/{seo_slug}/{sale_id}/{id}")
        } else {
            format!("/catalog/{sale_id}/{id}")
        }
    };
    let filter_links = data
        .filters
        .iter()
        .filter(|f| f.filter_type != "hidden")
        .map(|f| {
            let options = match f.filter_type.as_str() {
                "category" => f
                    .options
                    .iter()
                    .map(|o| {
                        let current = route.get("universeId") == Some(o.slug.as_str());
                        view! {
                            <li>
                                <a href=universe_href(&o.slug) class="filter__option" class:filter__option--active=current
                                    aria-current=current.then_some("page") data-filter="category" data-slug=o.slug.clone()>
                                    {format!("{} ({})", o.label, o.count)}
                                </a>
                            </li>
                        }
                        .into_any()
                    })
                    .collect::<Vec<_>>(),
                "range" => {
                    let bound = |id: &str| f.options.iter().find(|o| o.id == id).map(|o| o.count).unwrap_or(0);
                    let (lo, hi) = (bound("min") / 100, (bound("max") + 99) / 100);
                    let current = selection.filters.get("price").and_then(|v| v.first().cloned()).unwrap_or_default();
                    let (cur_lo, cur_hi) = current.split_once('-').map(|(a, b)| (a.to_string(), b.to_string())).unwrap_or_default();
                    // A GET form works without scripts: the other choices ride along hidden.
                    let mut rest = CatalogSelection { page: 1, ..selection.clone() };
                    rest.filters.remove("price");
                    let target = link(&rest);
                    let (action, query) = target.split_once('?').map(|(a, q)| (a.to_string(), q.to_string())).unwrap_or((target.clone(), String::new()));
                    let hidden = query
                        .split('&')
                        .filter_map(|kv| kv.split_once('='))
                        .filter(|(k, _)| *k != "dc")
                        .map(|(k, v)| {
                            let v = v.replace("%2C", ",").replace("%20", " ");
                            view! { <input type="hidden" name=k.to_string() value=v /> }
                        })
                        .collect_view();
                    let clear = (!current.is_empty()).then(|| view! { <a class="filter__reset" href=target.clone()>{ctx.t("catalog.filter.price.clear")}</a> });
                    vec![view! {
                        <li class="filter__range">
                            <form method="get" action=action class="price-form" data-testid="price-form">
                                {hidden}
                                <label>{ctx.t("catalog.filter.price.min")}
                                    <input type="number" name="pmin" min="0" inputmode="numeric" placeholder=lo.to_string() value=cur_lo />
                                </label>
                                <label>{ctx.t("catalog.filter.price.max")}
                                    <input type="number" name="pmax" min="0" inputmode="numeric" placeholder=hi.to_string() value=cur_hi />
                                </label>
                                <button type="submit" class="button">{ctx.t("catalog.filter.price.apply")}</button>
                            </form>
                            {clear}
                        </li>
                    }
                    .into_any()]
                }
                "radio" => f
                    .options
                    .iter()
                    .map(|o| {
                        let chosen = selection.filters.get(&f.id).and_then(|v| v.first().cloned());
                        let active = chosen.as_deref() == Some(o.slug.as_str()) || (chosen.is_none() && o.slug == "all");
                        let mut next = CatalogSelection { page: 1, ..selection.clone() };
                        if o.slug == "all" {
                            next.filters.remove(&f.id);
                        } else {
                            next.filters.insert(f.id.clone(), vec![o.slug.clone()]);
                        }
                        view! {
                            <li>
                                <a href=link(&next) class="filter__option" class:filter__option--active=active role="radio" aria-checked=active.to_string()
                                    data-filter=f.id.clone() data-slug=o.slug.clone()>
                                    {format!("{} ({})", ctx.t(&o.label), o.count)}
                                </a>
                            </li>
                        }
                        .into_any()
                    })
                    .collect::<Vec<_>>(),
                _ => f
                    .options
                    .iter()
                    .map(|o| {
                        let mut next = CatalogSelection { page: 1, ..selection.clone() };
                        let active = match f.id.as_str() {
                            "brand" => {
                                let on = selection.brands.contains(&o.slug);
                                next.brands = toggled(&selection.brands, &o.slug);
                                on
                            }
                            "color" => {
                                let on = selection.colors.contains(&o.slug);
                                next.colors = toggled(&selection.colors, &o.slug);
                                on
                            }
                            _ => {
                                let current = selection.filters.get(&f.id).cloned().unwrap_or_default();
                                let on = current.contains(&o.slug);
                                next.filters.insert(f.id.clone(), toggled(&current, &o.slug));
                                on
                            }
                        };
                        view! {
                            <li>
                                <a href=link(&next) class="filter__option" class:filter__option--active=active aria-pressed=active.to_string() data-filter=f.id.clone() data-slug=o.slug.clone()>
                                    {format!("{} ({})", o.label, o.count)}
                                </a>
                            </li>
                        }
                        .into_any()
                    })
                    .collect::<Vec<_>>(),
            };
            view! {
                <div class="filter" data-filter-type=f.filter_type.clone()>
                    <h3 class="filter__title">{ctx.t(&f.label_key)}</h3>
                    <ul class="filter__options" role=(f.filter_type == "radio").then_some("radiogroup")>{options}</ul>
                </div>
            }
        })
        .collect_view();
    let sorts = [("", "catalog.sort.default"), ("price_asc", "catalog.sort.price_asc"), ("price_desc", "catalog.sort.price_desc"), ("discount", "catalog.sort.discount")]
        .iter()
        .map(|(value, key)| {
            let next = CatalogSelection { sort: (!value.is_empty()).then(|| value.to_string()), page: 1, ..selection.clone() };
            let active = selection.sort.as_deref().unwrap_or("") == *value;
            view! { <a href=link(&next) class="sort__option" class:sort__option--active=active>{ctx.t(key)}</a> }
        })
        .collect_view();
    // Universe 0 is the whole sale ("all", the spec's default universe filter value).
    let universes = std::iter::once((0, ctx.t("catalog.universe.all")))
        .chain(sale.universes.iter().map(|u| (u.id, u.title.clone())))
        .map(|(id, title)| {
            let href = if route.seo { format!("/c/{seo_slug}/{sale_id}/{id}") } else { format!("/catalog/{sale_id}/{id}") };
            let current = route.get_id("universeId") == Some(id);
            view! { <li><a href=href aria-current=current.then_some("page") data-universe=id>{title}</a></li> }
        })
        .collect_view();
    let prev = (page > 1).then(|| {
        let href = link(&CatalogSelection {
            page: page - 1,
            ..selection.clone()
        });
        view! { <a rel="prev" href=href>{ctx.t("catalog.page.prev")}</a> }
    });
    let next = (page < pages).then(|| {
        let href = link(&CatalogSelection {
            page: page + 1,
            ..selection.clone()
        });
        view! { <a rel="next" href=href data-testid="next-page">{ctx.t("catalog.page.next")}</a> }
    });
    let description = ctx.t_with(
        "catalog.description",
        &[("sale", &sale.name), ("brand", ctx.site().brand.name())],
    );
    view! {
        <SeoMeta title=sale.name.clone() description path=canonical_path />
        <section class="catalog" data-sale-id=sale_id>
            <img class="catalog__banner" src=sale.banner.clone() alt="" width="1200" height="300" />
            <header class="catalog__head">
                <img class="catalog__logo" src=sale.logo.clone() alt="" width="56" height="56" />
                <div>
                    <h1>{sale.name.clone()}</h1>
                    <p class="catalog__ends">{ctx.t_with("sale.ends_on", &[("date", &ctx.date(sale.end_date))])}</p>
                </div>
            </header>
            <p class="catalog__description">{sale.description.clone()}</p>
            <nav class="catalog__universes" aria-label=ctx.t("catalog.universes")><ul>{universes}</ul></nav>
            <div class="catalog__layout">
                <aside class="catalog__filters" aria-label=ctx.t("catalog.filters")>
                    // Folded on phones so the items come first; always open from desktop width.
                    <details class="filters-box" open=!selection.is_default()>
                        <summary class="filters-box__summary" data-testid="filters-toggle">{ctx.t("catalog.filters")}</summary>
                    {filter_links}
                    <a class="filter__reset" href=link(&reset)>{ctx.t("catalog.filters.reset")}</a>
                                    </details>
                </aside>
                <div class="catalog__main">
                    <div class="catalog__toolbar">
                        <p class="catalog__count" data-testid="catalog-count">{ctx.t_with("catalog.count", &[("count", &content.total.to_string())])}</p>
                        <nav class="sort" aria-label=ctx.t("catalog.sort")>{sorts}</nav>
                    </div>
                    <CatalogItems items=content.items.clone() total=content.total offset=content.offset selection=selection.clone() sale_id universe_id=route.get_id("universeId").unwrap_or(0) />
                    <nav class="pager" aria-label=ctx.t("catalog.pages")>
                        {prev}
                        <span>{ctx.t_with("catalog.page.of", &[("page", &page.to_string()), ("pages", &pages.to_string())])}</span>
                        {next}
                    </nav>
                </div>
            </div>
            <p class="catalog__legal">{ctx.t_with("catalog.legal", &[("merchant", &sale.legal.merchant)])}</p>
        </section>
    }
}
