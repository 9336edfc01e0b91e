// The page's server function takes the flat, GET-encoded selection as separate arguments.
#![allow(clippy::too_many_arguments)]
//! Search (spec 000 §2 "Search", issue #4): `/find` with suggestions while typing, the
//! member's recent queries (each can be deleted), and a results page with the catalog's
//! filters, sort and paging. Complete in the server HTML (form, results, filter links,
//! page links, delete forms); once hydrated the box suggests as the member types and
//! deletes recent queries without a page load.
pub mod index;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod error;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

pub use rules::{product_url, sale_url, search_url};
use rules::{FindSelection, SuggestAction, SuggestionsState, PAGE_SIZE};

use crate::catalog::page::ItemTile;
use crate::client::{self, CallError};
use crate::context::RequestCtx;
use crate::model::catalog_api::Filter;
use crate::model::search::{RecentQuery, SearchItems, SuggestionKind, Suggestions};
use crate::ui::SeoMeta;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchPageData {
    pub items: SearchItems,
    pub filters: Vec<Filter>,
    /// The member's recent queries (shown under an empty box).
    pub recent: Vec<RecentQuery>,
    /// Translation key when the query was refused (too long).
    pub refused: Option<String>,
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "search/page")]
pub async fn fetch_search_page(
    site_id: u16,
    q: String,
    // Comma-separated lists and "" for no sort: GET-encoded arguments stay flat.
    brands: String,
    colors: String,
    sizes: String,
    sort: String,
    page: u32,
) -> Result<SearchPageData, ServerFnError> {
    let state = use_context::<crate::platform::state::AppState>()
        .ok_or_else(|| ServerFnError::new("no state"))?;
    let now = crate::platform::state::now();
    let member = RequestCtx::current().member_id;
    let fail = |e: sqlx::Error| {
        tracing::error!(error = %e, "Unavailable Search Results");
        ServerFnError::new("errors.general_retry.notification")
    };
    use crate::catalog::rules::comma_list as list;
    let mut data = SearchPageData {
        items: SearchItems::default(),
        filters: vec![],
        recent: vec![],
        refused: None,
    };
    if q.chars().count() > index::MAX_QUERY_CHARS {
        data.refused = Some("search.errors.too_long".into());
        return Ok(data);
    }
    let query = store::SearchQuery {
        q: q.clone(),
        offset: (i64::from(page.max(1)) - 1) * PAGE_SIZE,
        limit: PAGE_SIZE,
        sort: (!sort.is_empty()).then_some(sort),
        brands: list(&brands),
        colors: list(&colors),
        sizes: list(&sizes),
    };
    data.items = store::search_items(&state.db, site_id, &query, member, now)
        .await
        .map_err(fail)?;
    if !data.items.search_term.is_empty() {
        data.filters = store::search_filters(&state.db, site_id, &q, now)
            .await
            .map_err(fail)?
            .filters;
    }
    if let Some(m) = member {
        if !data.items.search_term.is_empty() && page <= 1 {
            store::record(&state.db, m, site_id, &q, now)
                .await
                .map_err(fail)?;
        }
        data.recent = store::recent(&state.db, m, site_id).await.map_err(fail)?;
    }
    Ok(data)
}

/// `/find`: the search box, then the results of `?q=` or the member's recent queries.
#[component]
pub fn SearchPage(path: String) -> impl IntoView {
    let query = use_query_map();
    // Links to another search on this page (paging, filters, suggestions) change only the
    // query: the view follows it.
    move || {
        let sel = query.with(|m| FindSelection::from_query(|k| m.get(k)));
        view! { <SearchView sel path=path.clone() /> }
    }
}

#[component]
fn SearchView(sel: FindSelection, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let key = (ctx.site_id, sel.clone());
    let data = Resource::new(
        move || key.clone(),
        |(site, s)| {
            fetch_search_page(
                site,
                s.q,
                s.brands.join(","),
                s.colors.join(","),
                s.sizes.join(","),
                s.sort.unwrap_or_default(),
                s.page,
            )
        },
    );
    let title = if sel.q.trim().is_empty() {
        ctx.t("search.title")
    } else {
        ctx.t_with("search.title.query", &[("query", sel.q.trim())])
    };
    let description = ctx.t("search.intro");
    let indexable = sel.q.trim().is_empty();
    view! {
        <SeoMeta title=title.clone() description path indexable />
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
                                Err(_) => view! { <p class="error" role="alert">{RequestCtx::current().t("errors.general_retry.notification")}</p> }.into_any(),
                            }
                        })
                    }
                }
            </Suspense>
        </section>
    }
}

/// The search form: a plain GET form to `/find`; hydrated, a combobox with suggestions.
#[component]
fn SearchBox(initial: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let state = RwSignal::new(SuggestionsState {
        input_value: initial.clone(),
        ..Default::default()
    });
    let timer = StoredValue::new(None::<TimeoutHandle>);
    let site_id = ctx.site_id;
    let ask = move |value: String| {
        state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Pending));
        let id = state.with_untracked(|s| s.request);
        leptos::task::spawn_local(async move {
            let action = match fetch_suggestions(&rules::suggestions_url(&value, site_id)).await {
                Ok(found) => SuggestAction::Fulfilled(id, found.suggestions),
                Err(e) => {
                    leptos::logging::warn!("Cannot fetch suggestions");
                    SuggestAction::Rejected(id, e.message_key())
                }
            };
            state.update(|s| *s = std::mem::take(s).apply(action));
        });
    };
    let on_input = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Input(value.clone())));
        if let Some(h) = timer.get_value() {
            h.clear();
        }
        let handle = set_timeout_with_handle(
            move || ask(value),
            std::time::Duration::from_millis(rules::DEBOUNCE_MS),
        );
        timer.set_value(handle.ok());
    };
    let on_focus = move |_| {
        let (value, empty) =
            state.with_untracked(|s| (s.input_value.clone(), s.suggestions.is_empty()));
        state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Open));
        if empty {
            ask(value);
        }
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "ArrowDown" | "ArrowUp" => {
            ev.prevent_default();
            let step = if ev.key() == "ArrowDown" { 1 } else { -1 };
            state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Move(step)));
        }
        "Escape" => state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Close)),
        "Enter" => {
            if let Some(url) = state.with_untracked(|s| s.active_url()) {
                ev.prevent_default();
                go_to(&url);
            }
        }
        _ => {}
    };
    // Closing on blur waits a moment, so a click on an option lands first.
    let on_blur = move |_| {
        let _ = set_timeout_with_handle(
            move || state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Close)),
            std::time::Duration::from_millis(150),
        );
    };
    let active_id = move || {
        state
            .with(|s| s.active)
            .map(|i| format!("search-option-{i}"))
    };
    let t = |k: &str| RequestCtx::current().t(k);
    let options = move || {
        state.with(|s| {
            s.suggestions
                .iter()
                .enumerate()
                .map(|(i, sug)| {
                    let selected = s.active == Some(i);
                    let kind = format!("{:?}", sug.kind).to_lowercase();
                    let label = match sug.kind {
                        SuggestionKind::Generic => RequestCtx::current()
                            .t_with("search.suggestions.generic", &[("query", &sug.label)]),
                        _ => sug.label.clone(),
                    };
                    let badge = match sug.kind {
                        SuggestionKind::History => Some(t("search.kind.history")),
                        SuggestionKind::Salesbanner => Some(t("search.kind.salesbanner")),
                        _ => None,
                    };
                    view! {
                        <li id=format!("search-option-{i}") role="option" class="suggestions__option"
                            class:suggestions__option--active=selected aria-selected=selected.to_string()
                            data-kind=kind>
                            <a href=sug.url.clone() rel="external" tabindex="-1">
                                {badge.map(|b| view! { <span class="suggestions__badge">{b}</span> })}
                                {label}
                            </a>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <form class="search-box" action="/find" method="get" role="search">
            <label class="visually-hidden" for="search-input">{ctx.t("search.label")}</label>
            <div class="search-box__field">
                <input
                    id="search-input"
                    class="search-box__input"
                    name="q"
                    type="search"
                    maxlength=index::MAX_QUERY_CHARS.to_string()
                    value=initial
                    placeholder=ctx.t("search.placeholder")
                    autocomplete="off"
                    role="combobox"
                    aria-autocomplete="list"
                    aria-controls="search-suggestions"
                    aria-expanded=move || state.with(|s| s.visible()).to_string()
                    aria-activedescendant=active_id
                    data-testid="search-input"
                    on:input=on_input
                    on:focus=on_focus
                    on:keydown=on_keydown
                    on:blur=on_blur
                />
                <ul
                    id="search-suggestions"
                    class="suggestions"
                    role="listbox"
                    aria-label=ctx.t("search.suggestions.label")
                    aria-busy=move || state.with(|s| s.loading).to_string()
                    hidden=move || !state.with(|s| s.visible())
                    data-testid="search-suggestions"
                >
                    {options}
                    {move || state.with(|s| s.loading && s.suggestions.is_empty()).then(|| view! {
                        <li class="suggestions__status" role="presentation">{t("search.suggestions.loading")}</li>
                    })}
                    {move || state.with(|s| s.error.is_some()).then(|| view! {
                        <li class="suggestions__status suggestions__status--error" role="presentation">{t("search.suggestions.error")}</li>
                    })}
                </ul>
            </div>
            <button class="search-box__submit button" type="submit">{ctx.t("search.submit")}</button>
        </form>
    }
}

fn go_to(url: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(w) = web_sys::window() {
        let _ = w.location().assign(url);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = url;
}

/// The suggestions call with its device header (spec 000 §7 Search).
#[cfg(feature = "hydrate")]
async fn fetch_suggestions(url: &str) -> Result<Suggestions, CallError> {
    let width = web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .unwrap_or(1024.0);
    let response = gloo_net::http::Request::get(url)
        .header("x-vp-device", rules::device_for_width(width))
        .header("X-VP-Origin", "web")
        .header("Accept", "application/json")
        .send()
        .await
        .map_err(|_| CallError::Network)?;
    let status = response.status();
    let body = response.text().await.unwrap_or_default();
    client::outcome(status, body)?
        .json()
        .ok_or(CallError::Network)
}

#[cfg(not(feature = "hydrate"))]
async fn fetch_suggestions(url: &str) -> Result<Suggestions, CallError> {
    let _ = url;
    Err(CallError::Network)
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
                            <a href=href class="filter__option" class:filter__option--active=active aria-pressed=active.to_string()
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
                        {ctx.t_with("search.count", &[("count", &total.to_string()), ("query", &term)])}
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
/// scripts; hydrated, the REST call (DELETE by id) and the entry leaves the list.
#[component]
fn RecentQueries(recent: Vec<RecentQuery>) -> impl IntoView {
    let ctx = RequestCtx::current();
    if !ctx.is_member() {
        return view! { <p class="search__intro">{ctx.t("search.intro")}</p> }.into_any();
    }
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
