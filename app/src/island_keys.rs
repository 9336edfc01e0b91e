//! The keys a page's islands read, found the way the browser finds them: each
//! island rendered again on its own from what the page carries for it, its
//! `data-component` and `data-props`, under the page's request context (`data-ctx`), with
//! a collector of its own. A test compares a page's table with the keys of the islands and
//! widgets actually on it (`server/tests/api/page_table.rs`): a key shipped that none of
//! them reads, or one they read that the page lacks, fails it, whatever recorded it.
use std::sync::Arc;

use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

use crate::context::RequestCtx;
use crate::site::i18n::page::{PageKeys, Widget};

/// What an island's `children` render in the browser: nothing (they are server HTML).
fn no_children() -> Children {
    Box::new(|| ().into_any())
}

/// Renders island `name` (its `data-component` without the hash) from `props`.
macro_rules! island {
    ($props:expr, $island:ident) => {{
        let _ = $props;
        $island().into_view().to_html()
    }};
    ($props:expr, $island:ident, $with:ident, $serialized:ident { $($field:ident),* } $(, $children:ident)?) => {{
        let json = $props.ok_or(concat!(stringify!($island), " without data-props"))?;
        let $serialized { $($field),* } = serde_json::from_str(json)
            .map_err(|e| format!("{}'s props: {e}", stringify!($island)))?;
        $island($with { $($field,)* $($children: no_children())? }).into_view().to_html()
    }};
}

fn render(name: &str, props: Option<&str>) -> Result<String, String> {
    use crate::cart::ui::cart_page::{CartView, CartViewProps};
    use crate::catalog::ui::more::{
        ColumnSwitch, LoadMore, LoadMoreProps, LoadMorePropsSerialized,
    };
    use crate::home::ui::pedagogical::{Pedagogical, PedagogicalProps, PedagogicalPropsSerialized};
    use crate::home::ui::scroll::{ScrollKeeper, ScrollKeeperProps, ScrollKeeperPropsSerialized};
    use crate::home::ui::tiles::{Countdown, CountdownProps, CountdownPropsSerialized};
    use crate::home::ui::toast::{InfoToast, InfoToastProps, InfoToastPropsSerialized};
    use crate::product::ui::page::{ProductBuy, ProductBuyProps, ProductBuyPropsSerialized};
    use crate::rosedeals::ui::add::{AddDeal, AddDealProps, AddDealPropsSerialized};
    use crate::search::ui::page::{
        RecentQueries, RecentQueriesProps, RecentQueriesPropsSerialized,
    };
    use crate::search::ui::search_box::{SearchBox, SearchBoxProps, SearchBoxPropsSerialized};
    use crate::shell::header::CartLink;
    use crate::travel::ui::checkout::form::{
        CheckoutForm, CheckoutFormProps, CheckoutFormPropsSerialized,
    };
    use crate::travel::ui::search::search_box::{
        TravelSearchBox, TravelSearchBoxProps, TravelSearchBoxPropsSerialized,
    };
    use crate::ui::favourite::{
        FavouriteButton, FavouriteButtonProps, FavouriteButtonPropsSerialized,
    };
    Ok(match name {
        "CartLink" => island!(props, CartLink),
        "ColumnSwitch" => island!(props, ColumnSwitch),
        "CartView" => CartView(CartViewProps {
            children: no_children(),
        })
        .into_view()
        .to_html(),
        "LoadMore" => island!(
            props,
            LoadMore,
            LoadMoreProps,
            LoadMorePropsSerialized {
                of,
                page,
                shown,
                total
            }
        ),
        "FavouriteButton" => island!(
            props,
            FavouriteButton,
            FavouriteButtonProps,
            FavouriteButtonPropsSerialized {
                sale_id,
                item_id,
                initial,
                compact
            }
        ),
        "RecentQueries" => island!(
            props,
            RecentQueries,
            RecentQueriesProps,
            RecentQueriesPropsSerialized { recent }
        ),
        "SearchBox" => island!(
            props,
            SearchBox,
            SearchBoxProps,
            SearchBoxPropsSerialized { initial }
        ),
        "Countdown" => island!(
            props,
            Countdown,
            CountdownProps,
            CountdownPropsSerialized { end, now }
        ),
        "Pedagogical" => island!(
            props,
            Pedagogical,
            PedagogicalProps,
            PedagogicalPropsSerialized { module, now }
        ),
        "ScrollKeeper" => island!(
            props,
            ScrollKeeper,
            ScrollKeeperProps,
            ScrollKeeperPropsSerialized { home, report }
        ),
        "InfoToast" => island!(
            props,
            InfoToast,
            InfoToastProps,
            InfoToastPropsSerialized { key },
            children
        ),
        "ProductBuy" => island!(
            props,
            ProductBuy,
            ProductBuyProps,
            ProductBuyPropsSerialized {
                sale_id,
                product_id,
                options,
                price,
                image_url,
                cart_type
            }
        ),
        "AddDeal" => island!(
            props,
            AddDeal,
            AddDealProps,
            AddDealPropsSerialized { sale_id, option_id }
        ),
        "TravelSearchBox" => island!(
            props,
            TravelSearchBox,
            TravelSearchBoxProps,
            TravelSearchBoxPropsSerialized { form }
        ),
        "CheckoutForm" => island!(
            props,
            CheckoutForm,
            CheckoutFormProps,
            CheckoutFormPropsSerialized { load },
            children
        ),
        _ => return Err(format!("island {name}: unknown to site::i18n::replay")),
    })
}

/// The keys island `component` (a `data-component`: `Name_hash`) reads in the browser,
/// hydrated from `props` (its `data-props`, unescaped) under `ctx`: its lookups and the
/// keys it shows later. An error for an island this does not know (add it to `render`)
/// or props it cannot read.
pub fn island_keys(
    component: &str,
    props: Option<&str>,
    ctx: &RequestCtx,
) -> Result<Vec<&'static str>, String> {
    let name = component
        .rsplit_once('_')
        .map_or(component, |(name, _)| name);
    let keys = PageKeys::new();
    // A root of its own (as a page's render has), then the thread's owner as it was.
    let before = Owner::current();
    let owner = Owner::new_root(Some(Arc::new(hydration_context::SsrSharedContext::new())));
    let rendered = owner.with(|| {
        provide_context(ctx.clone());
        provide_context(keys.clone());
        render(name, props)
    });
    match before {
        Some(before) => before.set(),
        None => owner.unset(),
    }
    rendered?;
    Ok(keys.keys())
}

/// The React widgets whose elements `html` holds, by tag.
pub fn widgets_in(html: &str) -> Vec<Widget> {
    [
        ("<rosace-dsa-form", Widget::DsaForm),
        ("<travel-calendar", Widget::TravelCalendar),
        ("<travel-map", Widget::TravelMap),
    ]
    .into_iter()
    .filter(|(tag, _)| html.contains(tag))
    .map(|(_, widget)| widget)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `#[island]` of the app's source, by name.
    fn islands_in_source() -> Vec<String> {
        fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for after in text.split("\n#[island").skip(1) {
                        let name = after
                            .split("fn ")
                            .nth(1)
                            .and_then(|rest| rest.split('(').next())
                            .unwrap_or_default();
                        out.push(name.trim().to_string());
                    }
                }
            }
        }
        let mut out = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut out,
        );
        out.sort();
        out
    }

    #[test]
    fn every_island_of_the_app_can_be_hydrated_again() {
        let islands = islands_in_source();
        assert!(islands.len() >= 14, "{islands:?}");
        for name in islands {
            // Without props: those that take some say so; none is unknown.
            if let Err(e) = island_keys(&format!("{name}_1"), None, &RequestCtx::default()) {
                assert!(!e.contains("unknown"), "{e}");
            }
        }
        let err = island_keys("NoSuchIsland_1", None, &RequestCtx::default()).unwrap_err();
        assert!(err.contains("unknown"), "{err}");
    }

    #[test]
    fn an_island_gives_what_it_looks_up_and_shows_later() {
        let ctx = RequestCtx {
            site_id: 1,
            member_id: Some(1),
            ..RequestCtx::default()
        };
        let props = r#"{"sale_id":1,"item_id":2,"initial":false,"compact":true}"#;
        let keys = island_keys("FavouriteButton_1", Some(props), &ctx).unwrap();
        assert_eq!(
            keys,
            ["favourite.add", "favourite.error", "favourite.remove"]
        );
        // "Load more": its label, and what it shows after a click (`shown_later`).
        let more = serde_json::json!({
            "of": crate::catalog::ui::more::MoreOf::Catalog {
                base: "/catalog/1/0".into(),
                selection: crate::catalog::rules::CatalogSelection::default(),
            },
            "page": 1,
            "shown": 48,
            "total": 96,
        })
        .to_string();
        let keys = island_keys("LoadMore_1", Some(&more), &ctx).unwrap();
        assert_eq!(
            keys,
            [
                "catalog.load_more",
                "common.loading",
                "errors.general_retry.notification"
            ]
        );
        assert_eq!(
            widgets_in("<p><travel-map id=x></travel-map>"),
            [Widget::TravelMap]
        );
    }
}
