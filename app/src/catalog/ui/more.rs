//! The two islands around the server-rendered items grid: the column switch and "load
//! more". Load more fetches the next page's HTML (the same URL the pager links to; a sale
//! catalog's or a brand's page) and appends its tiles, whose favourite buttons are islands of their own, so the browser
//! needs no tile rendering, no catalog model and no catalog call: that keeps the catalog's
//! first load small (see README "Page weight").
use leptos::prelude::*;

use serde::{Deserialize, Serialize};

use crate::catalog::rules::{
    brand_url, catalog_url, CatalogAction, CatalogItemsState, CatalogSelection,
};
use crate::context::RequestCtx;

/// The list "load more" reads the next pages of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MoreOf {
    /// A sale catalog at `base` with the member's filters and sort.
    Catalog {
        base: String,
        selection: CatalogSelection,
    },
    /// A brand's page across live sales (`/b/{id}`).
    Brand { brand_id: i64 },
}

impl MoreOf {
    /// The address of one page of the list: the pager's link to it.
    pub fn url(&self, page: u32) -> String {
        match self {
            MoreOf::Catalog { base, selection } => catalog_url(
                base,
                &CatalogSelection {
                    page,
                    ..selection.clone()
                },
            ),
            MoreOf::Brand { brand_id } => brand_url(*brand_id, page),
        }
    }
}

/// The grid both islands work on.
pub const GRID_ID: &str = "items-grid";

/// Why a page's tiles were not appended (only the browser appends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
pub enum Appended {
    /// The member is no longer signed in (401/403, or the page sent them to sign in).
    SignIn,
    /// No answer within the client's timeout, another error status, or no grid.
    Failed,
}

/// Whether an answer's final address is the sign-in page (a members-only page sends an
/// ended session there).
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
pub fn is_sign_in(url: &str) -> bool {
    let path = url
        .split_once("://")
        .map_or(url, |(_, rest)| rest.find('/').map_or("", |i| &rest[i..]));
    path.starts_with(&format!("{}/authentication", crate::routes::SITE_BASE))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_sign_in_page_is_told_from_a_catalog_page() {
        assert!(super::is_sign_in(
            "http://127.0.0.1:3000/gr/authentication?ReturnUrl=%2Fcatalog%2F1001%2F1"
        ));
        assert!(super::is_sign_in("/gr/authentication"));
        assert!(!super::is_sign_in(
            "https://rosace.test/catalog/1001/1?page=2"
        ));
        assert!(!super::is_sign_in("https://rosace.test/"));
    }

    #[test]
    fn load_more_asks_for_the_pagers_next_link() {
        use super::MoreOf;
        use crate::catalog::rules::CatalogSelection;
        let catalog = MoreOf::Catalog {
            base: "/catalog/1001/0".into(),
            selection: CatalogSelection {
                sort: Some("price_asc".into()),
                page: 1,
                ..Default::default()
            },
        };
        assert_eq!(catalog.url(2), "/catalog/1001/0?sort=price_asc&page=2");
        let brand = MoreOf::Brand { brand_id: 12 };
        assert_eq!(brand.url(1), "/b/12");
        assert_eq!(brand.url(3), "/b/12?page=3");
    }
}

/// 1 to 4 tiles per row: the grid's class and its images' `sizes` follow.
#[island(lazy)]
pub fn ColumnSwitch() -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let ctx = RequestCtx::current();
    let columns = RwSignal::new(2u8);
    let choose = move |n: u8| {
        columns.set(n);
        browser::set_columns(n);
    };
    view! {
        <div class="columns" role="group" aria-labelledby="columns-label">
            <span class="columns__label" id="columns-label">{ctx.t("catalog.layout")}</span>
            {(1u8..=4)
                .map(|n| {
                    let label = ctx.t_with("catalog.columns", &[("count", &n.to_string())]);
                    // A picture of the layout, not a number: numbered buttons read as pages.
                    let width = (16.0 - 2.0 * f32::from(n - 1)) / f32::from(n);
                    view! {
                        <button type="button" class="columns__option" aria-pressed=move || (columns.get() == n).to_string()
                            aria-label=label.clone() title=label data-testid=format!("columns-{n}") on:click=move |_| choose(n)>
                            <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
                                {(0..n).map(|i| view! {
                                    <rect x=format!("{:.2}", f32::from(i) * (width + 2.0)) y="0" width=format!("{width:.2}") height="16" rx="1" />
                                }).collect_view()}
                            </svg>
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// "Load more": appends the next page's tiles until all `total` show; `page` is the page
/// shown first, `shown` its tiles. Its state is spec 000 §4's catalog items state
/// (`CatalogItemsState`): the items are the ids of the tiles it appended, a loaded page
/// raises the offset and the request id, and an answer for another request id is dropped.
#[island(lazy)]
pub fn LoadMore(of: MoreOf, page: u32, shown: i64, total: i64) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    crate::site::i18n::shown_later(["errors.general_retry.notification", "common.loading"]);
    let first_page = page.max(1);
    let first_shown = u32::try_from(shown).unwrap_or(0);
    let total = u32::try_from(total).unwrap_or(0);
    // The first page is full whenever there is more: its size is the page size.
    let state = RwSignal::new(CatalogItemsState::<String>::new(first_shown.max(1)).apply(
        CatalogAction::Fulfilled {
            offset: 0,
            total,
            items: Vec::new(),
        },
    ));
    let shown = move || first_shown + state.with(|s| s.items.len() as u32);
    let more = move |_| {
        if state.with_untracked(|s| s.loading) {
            return;
        }
        state.update(|s| *s = std::mem::take(s).apply(CatalogAction::Pending));
        let (request, loaded_pages) = state.with_untracked(|s| (s.request_id, s.offset / s.limit));
        let url = of.url(first_page + loaded_pages + 1);
        leptos::task::spawn_local(async move {
            let reply = browser::append_page(&url).await;
            if state.with_untracked(|s| s.request_id) != request {
                return;
            }
            state.update(|s| {
                let st = std::mem::take(s);
                *s = match reply {
                    Ok(ids) if !ids.is_empty() => {
                        let st = st.apply(CatalogAction::NextPage);
                        let offset = st.offset;
                        st.apply(CatalogAction::Fulfilled {
                            offset,
                            total,
                            items: ids,
                        })
                    }
                    // An empty page: the catalog shrank meanwhile; nothing more to show.
                    Ok(_) => {
                        let now = first_shown + st.items.len() as u32;
                        let offset = st.offset;
                        st.apply(CatalogAction::Fulfilled {
                            offset,
                            total: now,
                            items: Vec::new(),
                        })
                    }
                    // The session ended: sign in, then back to this catalog (before, the
                    // sign-in page was read as a page without tiles and the button hid).
                    Err(Appended::SignIn) => {
                        crate::client::to_sign_in();
                        st.apply(CatalogAction::Rejected("sign_in".into()))
                    }
                    Err(Appended::Failed) => {
                        leptos::logging::warn!("[Error] cannot fetch search items");
                        st.apply(CatalogAction::Rejected(
                            "errors.general_retry.notification".into(),
                        ))
                    }
                };
            });
        });
    };
    let t = |k: &str| RequestCtx::current().t(k);
    view! {
        {move || state.with(|s| s.error.clone()).filter(|e| e != "sign_in").map(|key| view! { <p class="error" role="alert">{t(&key)}</p> })}
        {move || {
            let (count, busy, total) = (shown(), state.with(|s| s.loading), state.with(|s| s.total));
            (count < total).then(|| view! {
                <button type="button" class="load-more" data-testid="load-more" on:click=more.clone() disabled=busy aria-busy=busy.to_string()>
                    {if busy { t("common.loading") } else { RequestCtx::current().t_with("catalog.load_more", &[("shown", &count.to_string()), ("total", &total.to_string())]) }}
                </button>
            })
        }}
    }
}

#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
mod browser {
    use wasm_bindgen::{JsCast, JsValue};

    use super::{is_sign_in, Appended, GRID_ID};

    fn grid() -> Option<web_sys::Element> {
        web_sys::window()?.document()?.get_element_by_id(GRID_ID)
    }

    fn columns_of(grid: &web_sys::Element) -> u8 {
        (1u8..=4)
            .find(|n| grid.class_list().contains(&format!("items-grid--{n}")))
            .unwrap_or(2)
    }

    fn size_images(root: &web_sys::Element, columns: u8) {
        let sizes = crate::ui::item_tile::sizes_attr(columns);
        if let Ok(images) = root.query_selector_all("img[sizes]") {
            for i in 0..images.length() {
                if let Some(img) = images
                    .item(i)
                    .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                {
                    let _ = img.set_attribute("sizes", &sizes);
                }
            }
        }
    }

    pub fn set_columns(columns: u8) {
        if let Some(grid) = grid() {
            grid.set_class_name(&format!("items-grid items-grid--{columns}"));
            size_images(&grid, columns);
        }
    }

    /// Appends the tiles of the page at `url`; the ids of the items they show.
    pub async fn append_page(url: &str) -> Result<Vec<String>, Appended> {
        let signal = crate::client::timeout_signal();
        let reply = gloo_net::http::Request::get(url)
            .header("Accept", "text/html")
            .abort_signal(signal.as_ref())
            .send()
            .await
            .map_err(|_| Appended::Failed)?;
        if matches!(reply.status(), 401 | 403) || is_sign_in(&reply.url()) {
            return Err(Appended::SignIn);
        }
        if !reply.ok() {
            return Err(Appended::Failed);
        }
        tiles_of(&reply.text().await.map_err(|_| Appended::Failed)?).ok_or(Appended::Failed)
    }

    fn tiles_of(html: &str) -> Option<Vec<String>> {
        let parsed = web_sys::DomParser::new()
            .ok()?
            .parse_from_string(html, web_sys::SupportedType::TextHtml)
            .ok()?;
        let tiles = parsed
            .query_selector_all(&format!("#{GRID_ID} > li"))
            .ok()?;
        let grid = grid()?;
        let document = web_sys::window()?.document()?;
        let columns = columns_of(&grid);
        let hydrate = js_sys::Reflect::get(
            &web_sys::window()?.into(),
            &JsValue::from_str("__hydrateIsland"),
        )
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        let mut ids = Vec::with_capacity(tiles.length() as usize);
        for i in 0..tiles.length() {
            let Some(tile) = tiles.item(i) else { continue };
            let Ok(tile) = document.adopt_node(&tile) else {
                continue;
            };
            let Ok(tile) = tile.dyn_into::<web_sys::Element>() else {
                continue;
            };
            size_images(&tile, columns);
            ids.push(tile.get_attribute("data-item-id").unwrap_or_default());
            let _ = grid.append_child(&tile);
            // The new tiles' favourite buttons come as islands: hydrate them like the
            // loader does for the first page.
            if let (Some(hydrate), Ok(islands)) =
                (&hydrate, tile.query_selector_all("leptos-island"))
            {
                for j in 0..islands.length() {
                    let Some(island) = islands
                        .item(j)
                        .and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
                    else {
                        continue;
                    };
                    let id = island.dataset().get("component").unwrap_or_default();
                    let _ = hydrate.call2(&JsValue::NULL, &island, &JsValue::from_str(&id));
                }
            }
        }
        Some(ids)
    }
}

/// On the server the islands only render; these never run there.
#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
mod browser {
    pub fn set_columns(_columns: u8) {}

    pub async fn append_page(_url: &str) -> Result<Vec<String>, super::Appended> {
        Err(super::Appended::Failed)
    }
}
