//! Member page templates. A member's shop page (home, sale catalog) is the same
//! for every member of a site but for a few values of their own: their first name and id,
//! the XSRF token, the request context in `data-ctx`, the header's bell and cart link, and
//! each tile's heart and availability; the cart page is the same but for the delivery
//! step (the member's addresses), "my orders" but for its list. The server renders such a page once per page, site
//! and variant for a stand-in member, with a mark where each of those goes, and fills the
//! marks per request (`server/src/serve/member_pages.rs`). This module is how views mark
//! them; a normal render (no template) is unchanged.
//!
//! A mark is `{prefix}:{kind}[:{arg}:{state}];`, where the prefix is random per process: a
//! member cannot put one into a page's text (the server refuses to cache a page that holds
//! one where none was asked for). Marks are letters, digits, `:` and `;`, which neither
//! text nor attribute escaping touches.
#[cfg(feature = "ssr")]
use leptos::prelude::*;
use leptos::tachys::html::InertElement;

/// The stand-in member of a template: no row has this id, so every query for "the
/// member's" favourites, holds or messages finds none.
pub const TEMPLATE_MEMBER_ID: i64 = 0;

/// The response header by which a page says its body is this member's own (a sale's
/// intermediate step, shown until they answer it): neither the visitors' page cache nor a
/// member template keeps it, and the server takes the header off before the response
/// leaves (`server/src/serve/page_cache.rs`, `member_pages.rs`, `middleware/headers.rs`).
pub const NOT_SHARED_HEADER: &str = "x-rosace-not-shared";

/// Marks the page being rendered as the member's own (`NOT_SHARED_HEADER`).
#[cfg(feature = "ssr")]
pub fn mark_not_shared() {
    if let Some(res) = use_context::<leptos_axum::ResponseOptions>() {
        res.insert_header(
            axum::http::HeaderName::from_static(NOT_SHARED_HEADER),
            axum::http::HeaderValue::from_static("1"),
        );
    }
}

/// A region rendered per request for the member (see `render_hole` on the server side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hole {
    /// The header's message centre: the bell, its unread count and the newest messages.
    Bell,
    /// The header's cart link with the member's unit count (an island).
    CartLink,
    /// The cart's delivery address step: the member's addresses to choose from.
    Delivery,
    /// The body of "my orders": one page of the member's orders.
    Orders,
}

impl Hole {
    pub fn code(self) -> &'static str {
        match self {
            Hole::Bell => "b",
            Hole::CartLink => "c",
            Hole::Delivery => "d",
            Hole::Orders => "o",
        }
    }

    pub fn from_code(code: &str) -> Option<Hole> {
        match code {
            "b" => Some(Hole::Bell),
            "c" => Some(Hole::CartLink),
            "d" => Some(Hole::Delivery),
            "o" => Some(Hole::Orders),
            _ => None,
        }
    }
}

/// What a member's tile shows of their own: the heart, and whether they hold the item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileState {
    pub favourite: bool,
    /// 0: not held (the tile's shared availability), 1: in the basket, 2: max reached.
    pub held: u8,
}

impl TileState {
    pub const ALL: [TileState; 6] = [
        TileState::new(false, 0),
        TileState::new(false, 1),
        TileState::new(false, 2),
        TileState::new(true, 0),
        TileState::new(true, 1),
        TileState::new(true, 2),
    ];

    pub const fn new(favourite: bool, held: u8) -> TileState {
        TileState { favourite, held }
    }

    /// The state's number in a mark.
    pub fn code(self) -> u8 {
        u8::from(self.favourite) * 3 + self.held
    }

    /// The held state of an availability as `cart::rules::availability` decides it for the
    /// member (the one rule; the stock part of it is the template's).
    pub fn held_of(availability: crate::model::catalog_api::Availability) -> u8 {
        use crate::model::catalog_api::Availability;
        match availability {
            Availability::InBasket => 1,
            Availability::MaxReached => 2,
            Availability::Available | Availability::OutOfStock => 0,
        }
    }
}

/// The marks of a template render; absent in every other render.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    pub prefix: String,
}

impl Marks {
    /// The marks of the page being rendered, if it is a member template.
    pub fn current() -> Option<Marks> {
        #[cfg(feature = "ssr")]
        {
            use_context::<axum::http::request::Parts>()
                .and_then(|p| p.extensions.get::<Marks>().cloned())
        }
        #[cfg(not(feature = "ssr"))]
        {
            None
        }
    }

    /// The member's first name (HTML-escaped when filled).
    pub fn name(&self) -> String {
        format!("{}:n;", self.prefix)
    }

    /// The member's id.
    pub fn member(&self) -> String {
        format!("{}:m;", self.prefix)
    }

    /// The whole value of the `data-ctx` attribute: the member's request context as JSON.
    pub fn ctx(&self) -> String {
        format!("{}:x;", self.prefix)
    }

    /// A region filled per request.
    pub fn hole(&self, hole: Hole) -> InertElement {
        InertElement::new(format!("{}:h:{};", self.prefix, hole.code()))
    }

    /// Starts the variant of item `item_id`'s tile for `state`; the variants of one tile
    /// follow each other and end with [`Marks::choice_end`].
    pub fn choice(&self, item_id: i64, state: TileState) -> InertElement {
        InertElement::new(format!("{}:c:{item_id}:{};", self.prefix, state.code()))
    }

    pub fn choice_end(&self) -> InertElement {
        InertElement::new(format!("{}:e;", self.prefix))
    }

    /// The page shows item `item_id` as the stand-in sees it (no heart, nothing held): a
    /// member for whom either differs gets the page rendered in full instead.
    pub fn require(&self, item_id: i64) -> InertElement {
        InertElement::new(format!("{}:r:{item_id};", self.prefix))
    }
}

/// Renders `view` on its own, as it renders inside a page (islands keep their wrapper and
/// props), with `ctx` as the request context: the regions of a template filled per request.
#[cfg(feature = "ssr")]
pub fn render_fragment<V: IntoView + 'static>(
    ctx: crate::context::RequestCtx,
    view: impl FnOnce() -> V,
) -> String {
    use leptos::tachys::view::RenderHtml;
    let owner = Owner::new_root(None);
    owner.with(|| {
        provide_context(ctx);
        view().into_view().to_html()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_states_have_distinct_codes_and_holes_round_trip() {
        let mut codes: Vec<u8> = TileState::ALL.iter().map(|s| s.code()).collect();
        codes.sort_unstable();
        assert_eq!(codes, vec![0, 1, 2, 3, 4, 5]);
        for hole in [Hole::Bell, Hole::CartLink, Hole::Delivery, Hole::Orders] {
            assert_eq!(Hole::from_code(hole.code()), Some(hole));
        }
        assert_eq!(Hole::from_code("z"), None);
    }
}
