//! The sale catalog page (spec 000 §2): banner, description, legal notice, universes as
//! navigation, filters as links (one brand or colour moves into the path), sort, the items
//! grid and page links. Complete in the server HTML, so crawlable and usable without JS.
// Over 400 lines: one page whose view closures share its signals; the pieces are not reused.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::catalog::api::{fetch_catalog_page, CatalogPageData, CatalogQuery, PAGE_SIZE};
use crate::catalog::rules::{
    catalog_url, is_colour_slug, parse_catalog_url, CatalogLayout, CatalogSelection,
    MARKETING_INSERT_AFTER,
};
use crate::context::RequestCtx;
use crate::routes::ResolvedRoute;
use crate::ui::error_template::ErrorNotice;
use crate::ui::item_tile::ItemTile;
use crate::ui::not_found::NotFound;
use crate::ui::SeoMeta;

use super::gate::SaleIntermediate;
use super::more::{ColumnSwitch, LoadMore, MoreOf, GRID_ID};

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
        "searchTerm",
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
                            Ok(Some(CatalogPageData { sale, gate: Some(gate), .. })) => {
                                let error = use_query_map().get_untracked().get("error");
                                view! { <SaleIntermediate sale_id=sale.id sale_name=sale.name gate path error=error.unwrap_or_default() /> }.into_any()
                            }
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

/// A GET form that changes one part of the selection works without scripts: its action is
/// the path of `target` (the selection without that part), and the rest of the selection
/// rides along as hidden fields, decoded as the form will send them again.
fn form_target(target: &str) -> (String, impl IntoView) {
    let (action, query) = target.split_once('?').unwrap_or((target, ""));
    let hidden = crate::routes::query_pairs(query)
        .into_iter()
        .filter(|(k, _)| k != "dc")
        .map(|(k, v)| view! { <input type="hidden" name=k value=v /> })
        .collect_view();
    (action.to_string(), hidden)
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
    let layout = CatalogLayout::of(sale.catalog_type);
    let page_size = layout.page_size(PAGE_SIZE);
    let pages = ((content.total + page_size - 1) / page_size).max(1) as u32;
    let page = if layout.paged() {
        selection.page.max(1)
    } else {
        1
    };
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
                    let (action, hidden) = form_target(&target);
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
                _ => {
                    let option_view = |o: &crate::model::catalog_api::FilterOption| {
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
                                <a href=link(&next) class="filter__option" class:filter__option--active=active aria-current=active.then_some("true") data-filter=f.id.clone() data-slug=o.slug.clone()>
                                    {format!("{} ({})", o.label, o.count)}
                                </a>
                            </li>
                        }
                        .into_any()
                    };
                    if f.groups.is_empty() {
                        f.options.iter().map(option_view).collect::<Vec<_>>()
                    } else {
                        // A long list in sections (`catalog::sections`): a letter, then its brands.
                        f.groups
                            .iter()
                            .map(|g| {
                                let options = g
                                    .options
                                    .iter()
                                    .filter_map(|id| f.options.iter().find(|o| o.id == *id))
                                    .map(option_view)
                                    .collect_view();
                                view! {
                                    <li class="filter__group" data-section=g.section.clone()>
                                        <p class="filter__section">{g.section.clone()}</p>
                                        <ul class="filter__options">{options}</ul>
                                    </li>
                                }
                                .into_any()
                            })
                            .collect::<Vec<_>>()
                    }
                }
            };
            view! {
                <div class="filter" data-filter-type=f.filter_type.clone()>
                    <h3 class="filter__title">{ctx.t(&f.label_key)}</h3>
                    <ul class="filter__options" data-filter-type=f.filter_type.clone()>{options}</ul>
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
    // The operators' SEO settings where they set them (F15), else the generated ones.
    let seo = &sale.seo_config;
    let description = if seo.description.is_empty() {
        ctx.t_with(
            "catalog.description",
            &[("sale", &sale.name), ("brand", ctx.site().brand.name())],
        )
    } else {
        seo.description.clone()
    };
    let seo_title = if seo.title.is_empty() {
        sale.name.clone()
    } else {
        seo.title.clone()
    };
    let seo_footer = (!seo.footer_paragraphs.is_empty()).then(|| {
        let paragraphs = seo
            .footer_paragraphs
            .iter()
            .map(|p| view! { <p>{p.clone()}</p> })
            .collect_view();
        view! { <div class="catalog__seo" data-testid="catalog-seo">{paragraphs}</div> }
    });
    // A sale may ask for a theme of its own (spec 000 §9): its page wears that palette.
    let theme = crate::site::theme::Theme::for_sale(ctx.site().palette, &sale.theme, "");
    let section_class = if theme.is_special() {
        format!(
            "catalog {} catalog--themed {}",
            layout.class(),
            theme.css_class()
        )
    } else {
        format!("catalog {}", layout.class())
    };
    let pager = layout.paged().then(|| view! {
        <LoadMore of=MoreOf::Catalog { base: base.clone(), selection: selection.clone() } page=selection.page shown=content.items.len() as i64 total=content.total />
        <nav class="pager" aria-label=ctx.t("catalog.pages")>
            {prev}
            <span>{ctx.t_with("catalog.page.of", &[("page", &page.to_string()), ("pages", &pages.to_string())])}</span>
            {next}
        </nav>
    });
    // Searching within the sale (`searchTerm`): a GET form keeping the other choices, and
    // a way back to the whole sale.
    let term = selection.search_term.clone();
    let without_term = link(&CatalogSelection {
        search_term: None,
        page: 1,
        ..selection.clone()
    });
    let (search_action, search_hidden) = form_target(&without_term);
    let search_label = ctx.t("catalog.search.label");
    let term_note = term.clone().map(|t| {
        let key = if content.total == 0 { "catalog.search.none" } else { "catalog.search.for" };
        view! {
            <p class="catalog__search-note" role="status" data-testid="catalog-search-note">
                {ctx.t_with(key, &[("term", &t)])}" "
                <a href=without_term.clone() data-testid="catalog-search-clear">{ctx.t("catalog.search.clear")}</a>
            </p>
        }
    });
    let search_form = view! {
        <form method="get" action=search_action role="search" class="catalog__search" data-testid="catalog-search">
            {search_hidden}
            <input type="search" name="searchTerm" value=term.unwrap_or_default() aria-label=search_label.clone()
                placeholder=search_label maxlength=crate::catalog::rules::MAX_LIST_VALUE_CHARS.to_string() />
            <button type="submit" class="button">{ctx.t("catalog.search.submit")}</button>
        </form>
    };
    let universe_bar = layout.universe_bar().then(|| view! {
        <nav class="catalog__universes" aria-label=ctx.t("catalog.universes")><ul>{universes}</ul></nav>
    });
    // The sale's marketing (spec 000 §3): its banner under the description, its insert a
    // tile after the grid's first row, on the first page only (the next pages and "load
    // more" are items).
    let banner = sale.marketing.banner.clone().map(|m| view! {
        <aside class="catalog__marketing" data-testid="marketing-banner" aria-label=ctx.t("catalog.marketing")>
            <strong>{m.title}</strong>" "<span>{m.text}</span>
        </aside>
    });
    let insert = (page == 1)
        .then(|| sale.marketing.insert.clone())
        .flatten()
        .map(|m| {
            view! {
                <li class="items-grid__insert" data-testid="marketing-insert">
                    <strong>{m.title}</strong>
                    <span>{m.text}</span>
                </li>
            }
        });
    let mut items = content.items.clone();
    let split = if insert.is_some() {
        MARKETING_INSERT_AFTER.min(items.len())
    } else {
        items.len()
    };
    let after = items.split_off(split);
    view! {
        <SeoMeta title=seo_title description path=canonical_path />
        <section class=section_class data-sale-id=sale_id data-theme=theme.name() data-catalog-type=sale.catalog_type>
            <img class="catalog__banner" src=sale.banner.clone() alt="" width="1200" height="300" />
            <header class="catalog__head">
                <img class="catalog__logo" src=sale.logo.clone() alt="" width="56" height="56" />
                <div>
                    <h1>{sale.name.clone()}</h1>
                    {crate::catalog::offer::label_key(&sale.offer_type).map(|k| view! {
                        <p class="offer-badge" data-offer=sale.offer_type.clone()>{ctx.t(k)}</p>
                    })}
                    <p class="catalog__ends">{ctx.t_with("sale.ends_on", &[("date", &ctx.date(sale.end_date))])}</p>
                </div>
            </header>
            <p class="catalog__description">{sale.description.clone()}</p>
            {banner}
            {universe_bar}
            <div class="catalog__layout">
                <aside class="catalog__filters" aria-label=ctx.t("catalog.filters")>
                    // Folded on phones so the items come first; always open from desktop width.
                    <details class="filters-box" open={!selection.is_default() || layout.filters_open()}>
                        <summary class="filters-box__summary" data-testid="filters-toggle">{ctx.t("catalog.filters")}</summary>
                    {filter_links}
                    <a class="filter__reset" href=link(&reset)>{ctx.t("catalog.filters.reset")}</a>
                                    </details>
                </aside>
                <div class="catalog__main">
                    {search_form}
                    {term_note}
                    <div class="catalog__toolbar">
                        <p class="catalog__count" data-testid="catalog-count">{ctx.t_with("catalog.count", &[("count", &content.total.to_string())])}</p>
                        <nav class="sort" aria-label=ctx.t("catalog.sort")>{sorts}</nav>
                    </div>
                    <ColumnSwitch />
                    <ul class="items-grid items-grid--2" id=GRID_ID data-testid="items-grid">
                        {items.into_iter().map(|item| view! { <ItemTile item /> }).collect_view()}
                        {insert}
                        {after.into_iter().map(|item| view! { <ItemTile item /> }).collect_view()}
                    </ul>
                    {pager}
                </div>
            </div>
            {seo_footer}
            <p class="catalog__legal">{ctx.t_with("catalog.legal", &[("merchant", &sale.legal.merchant)])}</p>
        </section>
    }
}
