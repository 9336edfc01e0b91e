//! `/find`: the search box, then the results of `?q=` (filters, sort, paging) or the
//! member's recent queries (each can be deleted).
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::client::{self, CallError};
use crate::context::RequestCtx;
use crate::model::search::RecentQuery;
use crate::search::api::{fetch_search_page, SearchPageData, SearchPageQuery};
use crate::search::rules::{search_url, FindSelection, PAGE_SIZE};
use crate::search::ui::search_box::SearchBox;
use crate::ui::error_template::ErrorNotice;
use crate::ui::item_tile::ItemTile;
use crate::ui::SeoMeta;

/// `/find`: the search box, then the results of `?q=` or the member's recent queries.
#[component]
pub fn SearchPage() -> impl IntoView {
    let query = use_query_map();
    // Links to another search on this page (paging, filters, suggestions) change only the
    // query: the view follows it.
    move || {
        let sel = query.with(|m| FindSelection::from_query(|k| m.get(k)));
        view! { <SearchView sel /> }
    }
}

#[component]
fn SearchView(sel: FindSelection) -> impl IntoView {
    let ctx = RequestCtx::current();
    let key = (ctx.site_id, sel.clone());
    let data = Resource::new(
        move || key.clone(),
        |(site_id, s)| {
            fetch_search_page(SearchPageQuery {
                site_id,
                q: s.q,
                brands: s.brands,
                colors: s.colors,
                sizes: s.sizes,
                sort: s.sort,
                page: s.page,
            })
        },
    );
    let title = if sel.q.trim().is_empty() {
        ctx.t("search.title")
    } else {
        ctx.t_with("search.title.query", &[("query", sel.q.trim())])
    };
    let description = ctx.t("search.intro");
    let (seo_path, indexable) = sel.seo();
    view! {
        <SeoMeta title=title.clone() description path=seo_path indexable />
        <section class="search" data-testid="search-page">
            <h1 class="search__title">{title}</h1>
            <SearchBox initial=sel.q.clone() />
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {
                    let sel = sel.clone();
                    move || {
                        let sel = sel.clone();
                        Suspend::new(async move {
                            match data.await {
                                Ok(d) => view! { <Results data=d sel /> }.into_any(),
                                Err(_) => view! { <ErrorNotice /> }.into_any(),
                            }
                        })
                    }
                }
            </Suspense>
        </section>
    }
}

#[component]
fn Results(data: SearchPageData, sel: FindSelection) -> impl IntoView {
    let ctx = RequestCtx::current();
    if let Some(key) = data.refused {
        return view! { <p class="error" role="alert" data-testid="search-error">{ctx.t(&key)}</p> }
            .into_any();
    }
    let items = data.items;
    if items.search_term.is_empty() {
        return view! { <RecentQueries recent=data.recent /> }.into_any();
    }
    let total = items.total_products_count;
    let term = items.search_term.clone();
    if total == 0 && !sel.has_filters() {
        return view! {
            <div class="search__empty" data-testid="search-results" data-count="0">
                <p class="search__count" data-testid="search-count">{ctx.t_with("search.empty", &[("query", &term)])}</p>
                <p>{ctx.t("search.empty.hint")}</p>
            </div>
        }
        .into_any();
    }
    let pages = ((total + PAGE_SIZE - 1) / PAGE_SIZE).max(1) as u32;
    let page = sel.page.max(1);
    let filter_links = data
        .filters
        .iter()
        .filter(|f| !f.options.is_empty())
        .map(|f| {
            let options = f
                .options
                .iter()
                .map(|o| {
                    let active = sel.is_active(&f.id, &o.slug);
                    let href = sel.toggled(&f.id, &o.slug).url();
                    view! {
                        <li>
                            <a href=href class="filter__option" class:filter__option--active=active aria-current=active.then_some("true")
                                data-filter=f.id.clone() data-slug=o.slug.clone()>
                                {format!("{} ({})", o.label, o.count)}
                            </a>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="filter" data-filter-type=f.filter_type.clone()>
                    <h3 class="filter__title">{ctx.t(&f.label_key)}</h3>
                    <ul class="filter__options">{options}</ul>
                </div>
            }
        })
        .collect_view();
    let reset = FindSelection {
        q: sel.q.clone(),
        page: 1,
        ..Default::default()
    };
    let sorts = [
        ("", "catalog.sort.default"),
        ("price_asc", "catalog.sort.price_asc"),
        ("price_desc", "catalog.sort.price_desc"),
        ("discount", "catalog.sort.discount"),
    ]
    .iter()
    .map(|(value, key)| {
        let next = FindSelection {
            sort: (!value.is_empty()).then(|| value.to_string()),
            page: 1,
            ..sel.clone()
        };
        let active = sel.sort.as_deref().unwrap_or("") == *value;
        view! { <a href=next.url() class="sort__option" class:sort__option--active=active aria-current=active.then_some("true")>{ctx.t(key)}</a> }
    })
    .collect_view();
    let page_link = |p: u32| {
        FindSelection {
            page: p,
            ..sel.clone()
        }
        .url()
    };
    let sales = (!items.sales.is_empty()).then(|| {
        let links = items
            .sales
            .iter()
            .map(|s| view! { <li><a class="search__sale" href=s.url.clone() data-sale-id=s.id>{s.name.clone()}</a></li> })
            .collect_view();
        view! {
            <nav class="search__sales" aria-label=ctx.t("search.sales")>
                <h2>{ctx.t("search.sales")}</h2>
                <ul>{links}</ul>
            </nav>
        }
    });
    let tiles = items
        .products
        .into_iter()
        .map(|item| view! { <ItemTile item columns=4 /> })
        .collect_view();
    view! {
        {sales}
        <div class="catalog__layout search__layout">
            <aside class="catalog__filters" aria-label=ctx.t("catalog.filters")>
                <details class="filters-box" open=sel.has_filters()>
                    <summary class="filters-box__summary" data-testid="filters-toggle">{ctx.t("catalog.filters")}</summary>
                    {filter_links}
                    <a class="filter__reset" href=reset.url()>{ctx.t("catalog.filters.reset")}</a>
                </details>
            </aside>
            <div class="catalog__main">
                <div class="catalog__toolbar">
                    <p class="search__count" data-testid="search-count">
                        {ctx.t_with(if total == 1 { "search.count.one" } else { "search.count" }, &[("count", &total.to_string()), ("query", &term)])}
                    </p>
                    <nav class="sort" aria-label=ctx.t("catalog.sort")>{sorts}</nav>
                </div>
                <ul class="items-grid items-grid--4" data-testid="search-results" data-count=total>{tiles}</ul>
                <nav class="pager" aria-label=ctx.t("catalog.pages")>
                    {(page > 1).then(|| view! { <a rel="prev" href=page_link(page - 1)>{ctx.t("catalog.page.prev")}</a> })}
                    <span>{ctx.t_with("catalog.page.of", &[("page", &page.to_string()), ("pages", &pages.to_string())])}</span>
                    {(page < pages).then(|| view! { <a rel="next" href=page_link(page + 1) data-testid="next-page">{ctx.t("catalog.page.next")}</a> })}
                </nav>
            </div>
        </div>
    }
    .into_any()
}

/// The member's recent queries, each with a delete button: a form that posts without
/// scripts; hydrated (an island), the REST call (DELETE by id) and the entry leaves the list.
#[island(lazy)]
pub(crate) fn RecentQueries(recent: Vec<RecentQuery>) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let ctx = RequestCtx::current();
    if !ctx.is_member() {
        return view! { <p class="search__intro">{ctx.t("search.intro")}</p> }.into_any();
    }
    crate::site::i18n::shown_later(["search.recent.empty", "search.recent.error"]);
    let list = RwSignal::new(recent);
    let failed = RwSignal::new(false);
    let xsrf = ctx.xsrf.clone();
    let remove = move |id: i64| {
        failed.set(false);
        leptos::task::spawn_local(async move {
            match client::call(
                "DELETE",
                &format!("/api/catalog/v1/search/recent/{id}"),
                None,
            )
            .await
            {
                Ok(_) => list.update(|l| l.retain(|r| r.id != id)),
                Err(CallError::Unauthorized) => client::to_sign_in(),
                Err(_) => failed.set(true),
            }
        });
    };
    let entries = move || {
        let xsrf = xsrf.clone();
        list.get()
            .into_iter()
            .map(|r| {
                let id = r.id;
                let label = RequestCtx::current().t_with("search.recent.delete", &[("query", &r.query)]);
                view! {
                    <li class="recent__item" data-testid="recent-query" data-id=id>
                        <a class="recent__link" href=search_url(&r.query)>{r.query.clone()}</a>
                        <form class="recent__delete" method="post" action=format!("/find/recent/{id}/delete")
                            on:submit=move |ev| { ev.prevent_default(); remove(id); }>
                            <input type="hidden" name="_xsrf" value=xsrf.clone() />
                            <button type="submit" class="recent__delete-button" aria-label=label.clone() title=label data-testid="recent-delete">
                                <span aria-hidden="true">"×"</span>
                            </button>
                        </form>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <section class="recent" aria-labelledby="recent-title">
            <h2 id="recent-title" class="recent__title">{ctx.t("search.recent.title")}</h2>
            {move || list.with(Vec::is_empty).then(|| view! { <p class="recent__empty" data-testid="recent-empty">{RequestCtx::current().t("search.recent.empty")}</p> })}
            <ul class="recent__list">{entries}</ul>
            {move || failed.get().then(|| view! { <p class="error" role="alert">{RequestCtx::current().t("search.recent.error")}</p> })}
        </section>
    }
    .into_any()
}
