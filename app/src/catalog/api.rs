//! Catalog server functions: thin GET reads over the store for the catalog, brand and
//! favourites pages. Each takes one struct argument, GET-encoded by serde_qs
//! (`query[site_id]=1&query[brands][0]=lena`), at the same `endpoint`s as before.
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::cart::service::cart_service;
use crate::catalog::rules::{price_range, CatalogSelection};
#[cfg(feature = "ssr")]
use crate::catalog::{error::CatalogError, store};
#[cfg(feature = "ssr")]
use crate::context::RequestCtx;
use crate::model::catalog_api::{CatalogContent, CatalogItem, Filter, Sale};
#[cfg(feature = "ssr")]
use crate::platform::state::{app_state, now, WireResult};

pub const PAGE_SIZE: i64 = 48;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatalogPageData {
    pub sale: Sale,
    pub content: CatalogContent,
    pub filters: Vec<Filter>,
    /// The sale's intermediate step, when the member must answer it first (then the
    /// content and filters are empty).
    #[serde(default)]
    pub gate: Option<crate::catalog::gate::SaleGate>,
}

/// One page of a sale's catalog (or of one universe) for a selection.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CatalogQuery {
    pub site_id: u16,
    pub sale_id: i64,
    pub universe_id: i64,
    #[serde(default)]
    pub brands: Vec<String>,
    #[serde(default)]
    pub colors: Vec<String>,
    #[serde(default)]
    pub sizes: Vec<String>,
    /// `10-50` in whole currency units.
    #[serde(default)]
    pub price: Option<String>,
    /// In-stock items only.
    #[serde(default)]
    pub in_stock: bool,
    #[serde(default)]
    pub sort: Option<String>,
    /// Words searched for within the sale (`searchTerm`).
    #[serde(default)]
    pub search_term: Option<String>,
    pub page: u32,
}

impl CatalogQuery {
    /// The query of a page's selection (as parsed from its URL).
    pub fn of(site_id: u16, sale_id: i64, universe_id: i64, sel: &CatalogSelection) -> Self {
        let first = |id: &str| sel.filters.get(id).and_then(|v| v.first().cloned());
        CatalogQuery {
            site_id,
            sale_id,
            universe_id,
            brands: sel.brands.clone(),
            colors: sel.colors.clone(),
            sizes: sel.filters.get("size").cloned().unwrap_or_default(),
            price: first("price").filter(|p| !p.is_empty()),
            in_stock: first("stock").as_deref() == Some("in"),
            sort: sel.sort.clone().filter(|s| !s.is_empty()),
            search_term: sel.search_term.clone(),
            page: sel.page,
        }
    }

    /// Price bounds in cents, from `price`.
    pub fn price_bounds(&self) -> (Option<i64>, Option<i64>) {
        price_range(self.price.as_deref())
    }
}

/// The filter lists of a server function call within the limits (review L10): more than
/// 20 distinct values, or one past 64 characters, answers 400 with the key and reads
/// nothing. (The pages never send such lists: their URL parsing keeps the first 20.)
#[cfg(feature = "ssr")]
pub(crate) fn checked_lists(lists: [&mut Vec<String>; 3]) -> Result<(), ServerFnError> {
    for list in lists {
        match crate::catalog::rules::checked(list) {
            Ok(values) => *list = values,
            Err(_) => {
                if let Some(res) = use_context::<leptos_axum::ResponseOptions>() {
                    res.set_status(axum::http::StatusCode::BAD_REQUEST);
                }
                return Err(ServerFnError::new(crate::catalog::rules::LIST_TOO_LONG_KEY));
            }
        }
    }
    Ok(())
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "catalog/page")]
pub async fn fetch_catalog_page(
    query: CatalogQuery,
) -> Result<Option<CatalogPageData>, ServerFnError> {
    let mut query = query;
    checked_lists([&mut query.brands, &mut query.colors, &mut query.sizes])?;
    let state = app_state()?;
    let ctx = RequestCtx::current();
    // An operator's preview renders the catalog as at its time.
    let now = ctx.now();
    let member = ctx.member_id;
    let db = &state.db;
    let (site_id, sale_id, universe_id) = (query.site_id, query.sale_id, query.universe_id);
    let Some(mut sale) = store::sale(db, site_id, sale_id, now)
        .await
        .wire::<CatalogError>()?
    else {
        return Ok(None);
    };
    if let Some(gate) = member_gate(&mut sale, member, now).await? {
        return Ok(Some(CatalogPageData {
            sale,
            content: CatalogContent::default(),
            filters: Vec::new(),
            gate: Some(gate),
        }));
    }
    let (price_min, price_max) = query.price_bounds();
    let layout = crate::catalog::rules::CatalogLayout::of(sale.catalog_type);
    let page_size = layout.page_size(PAGE_SIZE);
    let page = if layout.paged() { query.page.max(1) } else { 1 };
    let content_query = store::ContentQuery {
        limit: page_size,
        offset: (i64::from(page) - 1) * page_size,
        sort: query.sort,
        brands: query.brands,
        colors: query.colors,
        sizes: query.sizes,
        price_min,
        price_max,
        in_stock: query.in_stock,
        // A call may send any text: it is tidied as the page's URL is.
        search_term: query
            .search_term
            .as_deref()
            .and_then(crate::catalog::rules::search_term),
        ..Default::default()
    };
    let content = store::content(
        db,
        site_id,
        sale_id,
        universe_id,
        &content_query,
        cart_service()?.viewer(member),
        now,
    )
    .await
    .wire::<CatalogError>()?;
    let filters = store::filters(db, site_id, sale_id, universe_id, now)
        .await
        .wire::<CatalogError>()?;
    Ok(Some(CatalogPageData {
        sale,
        content,
        filters,
        gate: None,
    }))
}

/// The step the signed-in member must answer before the sale's pages (`catalog::gate`),
/// their answers put in `sale.state`; none for a visitor or a sale without the step. The
/// template's stand-in member never answered it: a page with the step is not shared.
#[cfg(feature = "ssr")]
pub(crate) async fn member_gate(
    sale: &mut Sale,
    member: Option<i64>,
    now: i64,
) -> Result<Option<crate::catalog::gate::SaleGate>, ServerFnError> {
    let Some(member_id) = member else {
        return Ok(None);
    };
    if sale.legal.products_listing_cgu.trim().is_empty() {
        return Ok(None);
    }
    let db = &app_state()?.db;
    let site_id = RequestCtx::current().site_id;
    let Some(g) = store::member_gate(db, site_id, sale.id, member_id, now)
        .await
        .wire::<CatalogError>()?
    else {
        return Ok(None);
    };
    sale.state = g.state.clone();
    Ok(crate::catalog::gate::gate(
        &g.conditions,
        &g.seller_kind,
        &g.state,
        g.live_cart_type.as_deref(),
    ))
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BrandPageData {
    pub name: String,
    pub total: i64,
    pub items: Vec<CatalogItem>,
}

/// One page of a brand's items across the site's live sales.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrandQuery {
    pub site_id: u16,
    pub brand_id: i64,
    pub page: u32,
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "catalog/brand")]
pub async fn fetch_brand_page(query: BrandQuery) -> Result<Option<BrandPageData>, ServerFnError> {
    let state = app_state()?;
    let member = RequestCtx::current().member_id;
    let offset = (i64::from(query.page.max(1)) - 1) * PAGE_SIZE;
    let found = store::brand_items(
        &state.db,
        query.site_id,
        query.brand_id,
        PAGE_SIZE,
        offset,
        cart_service()?.viewer(member),
        now(),
    )
    .await
    .wire::<CatalogError>()?;
    Ok(found.map(|(name, content)| BrandPageData {
        name,
        total: content.total,
        items: content.items,
    }))
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "catalog/favourites")]
pub async fn fetch_favourites(site_id: u16) -> Result<Vec<CatalogItem>, ServerFnError> {
    let state = app_state()?;
    let Some(member) = RequestCtx::current().member_id else {
        return Err(ServerFnError::new("errors.unauthorized"));
    };
    store::favourite_items(
        &state.db,
        site_id,
        member,
        cart_service()?.settings.max_per_member,
        now(),
    )
    .await
    .wire::<CatalogError>()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GetUrl encodes the argument struct with serde_qs (server_fn's config: depth 5,
    /// non-strict); lists, options and flags must come back unchanged.
    #[test]
    fn catalog_query_round_trips_through_the_get_url() {
        let query = CatalogQuery {
            site_id: 3,
            sale_id: 12,
            universe_id: 0,
            brands: vec!["lena-paris".into(), "a,b & c".into()],
            colors: vec![],
            sizes: vec!["38".into()],
            price: Some("10-50".into()),
            in_stock: true,
            sort: None,
            search_term: Some("robe & co".into()),
            page: 2,
        };
        let args = FetchCatalogPage {
            query: query.clone(),
        };
        let qs = serde_qs::to_string(&args).unwrap();
        let back: FetchCatalogPage = serde_qs::Config::new(5, false)
            .deserialize_str(&qs)
            .unwrap();
        assert_eq!(back.query, query, "{qs}");
        let empty = FetchCatalogPage {
            query: CatalogQuery::default(),
        };
        let qs = serde_qs::to_string(&empty).unwrap();
        let back: FetchCatalogPage = serde_qs::Config::new(5, false)
            .deserialize_str(&qs)
            .unwrap();
        assert_eq!(back.query, CatalogQuery::default(), "{qs}");
    }
}
