//! Catalog REST calls at the spec's paths (spec 000 §7 Catalog): sales, their tree, content
//! and filters, items and their options, favourites, brand pages.
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::catalog::store::{self, ContentQuery};
use app::model::catalog_api::*;
use app::model::error::ErrorBody;

use super::error::{ApiError, LogAs, OrNotFound};
use super::extract::{MaybeMember, Params, Path, ShownAt, SignedIn, SiteId};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(sale))
        .routes(routes!(catalog_tree))
        .routes(routes!(catalog_content, catalog_search))
        .routes(routes!(filters))
        .routes(routes!(item))
        .routes(routes!(item_options))
        .routes(routes!(size_chart))
        .routes(routes!(carousel))
        .routes(routes!(bundle_price))
        .routes(routes!(favourite_add, favourite_remove))
        .routes(routes!(brand_items))
        .routes(routes!(favourites))
}

/// Query of catalog content and brand pages. Values are read leniently: an unreadable
/// number falls back to its default, as the spec's clients expect.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ContentParams {
    /// Only items in stock (`true`/`1`).
    in_stock: Option<String>,
    /// `in`: only items in stock.
    stock: Option<String>,
    #[param(value_type = Option<i64>)]
    limit: Option<String>,
    #[param(value_type = Option<i64>)]
    offset: Option<String>,
    /// `price_asc`, `price_desc`, `discount`, `new`.
    sort: Option<String>,
    search_term: Option<String>,
    /// Comma-separated brand slugs (at most 20 distinct, 64 characters each).
    brand: Option<String>,
    /// Comma-separated colours (at most 20 distinct, 64 characters each).
    color: Option<String>,
    /// Comma-separated sizes (at most 20 distinct, 64 characters each).
    size: Option<String>,
    /// `min-max` in euros (either side may be empty).
    price: Option<String>,
    #[param(value_type = Option<i64>)]
    request_id: Option<String>,
}

/// A comma-separated list; more than 20 distinct values, or one past 64 characters, is a
/// 400 (review L10).
fn list(v: &Option<String>) -> Result<Vec<String>, ApiError> {
    v.as_deref()
        .map(app::catalog::rules::checked_comma_list)
        .transpose()
        .map(Option::unwrap_or_default)
        .map_err(|_| too_many_values())
}

fn too_many_values() -> ApiError {
    ApiError::bad_request("too_many_values", app::catalog::rules::LIST_TOO_LONG_KEY)
}

fn num(v: &Option<String>, default: i64) -> i64 {
    v.as_deref()
        .and_then(|v| v.parse::<i64>().ok())
        .unwrap_or(default)
}

impl ContentParams {
    /// These parameters with the search body's filters in place of the query's, and the
    /// catalog to search (`category` chooses a universe). A filter given twice, one the
    /// filters call does not offer, or a value it cannot take is refused.
    fn with_selected(
        mut self,
        selected: &[SelectedFilter],
        sale_id: i64,
        catalog_id: i64,
    ) -> Result<(Self, i64), ApiError> {
        const MAX_FILTERS: usize = 16;
        if selected.len() > MAX_FILTERS {
            return Err(unknown_filter());
        }
        let mut catalog = catalog_id;
        let mut seen: Vec<&str> = Vec::new();
        for f in selected {
            let id = f.id.as_deref().unwrap_or("");
            if id.is_empty() {
                if f.selected_values.is_empty() {
                    continue;
                }
                return Err(unknown_filter());
            }
            if seen.contains(&id) {
                return Err(unknown_filter());
            }
            seen.push(id);
            let values = &f.selected_values;
            let one = || match values.as_slice() {
                [v] => Ok(v.as_str()),
                _ => Err(unknown_filter()),
            };
            match id {
                "brand" | "color" | "size" => {
                    // The GET call's comma lists: a value holding a comma would split.
                    if values.iter().any(|v| v.contains(',')) {
                        return Err(unknown_filter());
                    }
                    let list = Some(values.join(",")).filter(|l| !l.is_empty());
                    match id {
                        "brand" => self.brand = list,
                        "color" => self.color = list,
                        _ => self.size = list,
                    }
                }
                "stock" => match one()? {
                    v @ ("in" | "all") => {
                        self.stock = Some(v.to_string());
                        self.in_stock = None;
                    }
                    _ => return Err(unknown_filter()),
                },
                "price" => {
                    let range = match values.as_slice() {
                        [range] if range.contains('-') => range.clone(),
                        [lo, hi] => format!("{lo}-{hi}"),
                        _ => return Err(unknown_filter()),
                    };
                    self.price = Some(range);
                }
                "category" => {
                    catalog = one()?
                        .trim()
                        .parse::<i64>()
                        .ok()
                        .filter(|c| *c >= 0)
                        .ok_or_else(unknown_filter)?;
                }
                "sale" => {
                    if one()?.trim() != sale_id.to_string() {
                        return Err(unknown_filter());
                    }
                }
                _ => return Err(unknown_filter()),
            }
        }
        Ok((self, catalog))
    }

    pub fn query(&self) -> Result<ContentQuery, ApiError> {
        let (price_min, price_max) = app::catalog::rules::price_range(self.price.as_deref());
        Ok(ContentQuery {
            in_stock: self
                .in_stock
                .as_deref()
                .is_some_and(|v| v == "true" || v == "1")
                || self.stock.as_deref() == Some("in"),
            limit: num(&self.limit, 48),
            offset: num(&self.offset, 0),
            sort: self.sort.clone().filter(|s| !s.is_empty()),
            search_term: self
                .search_term
                .as_deref()
                .and_then(app::catalog::rules::search_term),
            matching_ids: None,
            brands: list(&self.brand)?,
            colors: list(&self.color)?,
            sizes: list(&self.size)?,
            price_min,
            price_max,
            request_id: num(&self.request_id, 0),
        })
    }
}

/// A live sale of the site, with its tree, features and legal texts, and the signed-in
/// member's answers to its intermediate step (`state`; both false for a visitor).
#[utoipa::path(get, path = "/api/catalog/v2/sale/{saleId}", tag = "catalog",
    params(("saleId" = i64, Path), ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = Sale), (status = 404, body = ErrorBody)))]
async fn sale(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    member: MaybeMember,
    Path(sale_id): Path<i64>,
    ShownAt(now): ShownAt,
) -> Result<Json<Sale>, ApiError> {
    const WHAT: &str = "Unavailable Sale Content";
    let mut sale = store::sale(&app.state.db, site, sale_id, now)
        .await
        .log_as(WHAT)?
        .or_not_found()?;
    if let Some(member_id) = member.id() {
        sale.state =
            app::catalog::service::sale_state(&app.state.db, site, sale_id, member_id, now)
                .await
                .log_as(WHAT)?;
    }
    Ok(Json(sale))
}

/// The universes of a live sale.
#[utoipa::path(get, path = "/api/catalog/v1/sale/{saleId}/catalogTree", tag = "catalog",
    params(("saleId" = i64, Path), ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = CatalogTree), (status = 404, body = ErrorBody)))]
async fn catalog_tree(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    Path(sale_id): Path<i64>,
    ShownAt(now): ShownAt,
) -> Result<Json<CatalogTree>, ApiError> {
    let sale = store::sale(&app.state.db, site, sale_id, now)
        .await
        .log_as("Unavailable Sale Content")?
        .or_not_found()?;
    Ok(Json(CatalogTree {
        sale_id,
        universes: sale.universes,
    }))
}

/// One page of a catalog (a universe, or 0 for the whole sale), filtered and sorted.
#[utoipa::path(get, path = "/api/catalog/v2/sale/{saleId}/catalogContent/{catalogId}",
    tag = "catalog",
    params(("saleId" = i64, Path), ("catalogId" = i64, Path), ContentParams,
        ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = CatalogContent), (status = 400, body = ErrorBody,
        description = "a path or query parameter that does not parse, or a filter list past 20 values or 64 characters a value (too_many_values)"),
        (status = 404, body = ErrorBody)))]
async fn catalog_content(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    member: MaybeMember,
    Path((sale_id, catalog_id)): Path<(i64, i64)>,
    Params(q): Params<ContentParams>,
    ShownAt(now): ShownAt,
) -> Result<Json<CatalogContent>, ApiError> {
    content_answer(&app, site, member, sale_id, catalog_id, &q.query()?, now).await
}

/// One page of a live sale's catalog for `query` (the GET call's and the search's answer).
async fn content_answer(
    app: &AppCtx,
    site: u16,
    member: MaybeMember,
    sale_id: i64,
    catalog_id: i64,
    query: &ContentQuery,
    now: i64,
) -> Result<Json<CatalogContent>, ApiError> {
    const WHAT: &str = "[Error] cannot fetch search items";
    // Only the existence of the sale matters here, not its tree.
    if !store::sale_is_live(&app.state.db, site, sale_id, now)
        .await
        .log_as(WHAT)?
    {
        return Err(ApiError::NotFound);
    }
    let content = store::content(
        &app.state.db,
        site,
        sale_id,
        catalog_id,
        query,
        app.cart.viewer(member.id()),
        now,
    )
    .await
    .log_as(WHAT)?;
    Ok(Json(content))
}

/// The catalog items search (spec 000 §7): the content call with its filters in the body,
/// `[{id, selectedValues}]`, or `[{}]` for none; paging and sort stay in the query.
#[utoipa::path(post, path = "/api/catalog/v2/sale/{saleId}/catalogContent/{catalogId}",
    tag = "catalog",
    params(("saleId" = i64, Path), ("catalogId" = i64, Path), ContentParams,
        ("x-vp-siteid" = Option<u16>, Header), ("X-XSRF-TOKEN" = String, Header)),
    request_body = Vec<SelectedFilter>,
    responses((status = 200, body = CatalogContent), (status = 400, body = ErrorBody,
        description = "a body that is not a list of filters, a filter the catalog does not have or a value it cannot take (unknown_filter), a filter past 20 values or 64 characters a value (too_many_values)"),
        (status = 404, body = ErrorBody)))]
async fn catalog_search(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    member: MaybeMember,
    Path((sale_id, catalog_id)): Path<(i64, i64)>,
    Params(q): Params<ContentParams>,
    ShownAt(now): ShownAt,
    body: axum::body::Bytes,
) -> Result<Json<CatalogContent>, ApiError> {
    let refused = |e: ApiError| e.in_language(site);
    let selected: Vec<SelectedFilter> = if body.iter().all(u8::is_ascii_whitespace) {
        Vec::new()
    } else {
        serde_json::from_slice(&body).map_err(|_| refused(unknown_filter()))?
    };
    let (q, catalog_id) = q
        .with_selected(&selected, sale_id, catalog_id)
        .map_err(refused)?;
    let query = q.query().map_err(refused)?;
    content_answer(&app, site, member, sale_id, catalog_id, &query, now).await
}

fn unknown_filter() -> ApiError {
    ApiError::bad_request("unknown_filter", "errors.unknown_filter")
}

/// The filters of a catalog.
#[utoipa::path(get, path = "/api/catalog/v4/sale/{saleId}/filters/{catalogId}", tag = "catalog",
    params(("saleId" = i64, Path), ("catalogId" = i64, Path), ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = Filters), (status = 404, body = ErrorBody)))]
async fn filters(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    Path((sale_id, catalog_id)): Path<(i64, i64)>,
    ShownAt(now): ShownAt,
) -> Result<Json<Filters>, ApiError> {
    const WHAT: &str = "cannot fetch filters";
    if !store::sale_is_live(&app.state.db, site, sale_id, now)
        .await
        .log_as(WHAT)?
    {
        return Err(ApiError::NotFound);
    }
    let filters = store::filters(&app.state.db, site, sale_id, catalog_id, now)
        .await
        .log_as(WHAT)?;
    Ok(Json(Filters { filters }))
}

/// One item of a live sale.
#[utoipa::path(get, path = "/api/catalog/v2/sale/{saleId}/item/{itemId}", tag = "catalog",
    params(("saleId" = i64, Path), ("itemId" = i64, Path), ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = CatalogItem), (status = 404, body = ErrorBody)))]
async fn item(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    member: MaybeMember,
    Path((sale_id, item_id)): Path<(i64, i64)>,
    ShownAt(now): ShownAt,
) -> Result<Json<CatalogItem>, ApiError> {
    store::item_by_id(
        &app.state.db,
        site,
        sale_id,
        item_id,
        app.cart.viewer(member.id()),
        now,
    )
    .await
    .log_as("cannot fetch item")?
    .or_not_found()
    .map(Json)
}

/// The options (sizes, variants) of an item, with what is left to hold.
#[utoipa::path(get, path = "/api/catalog/v1/sale/{saleId}/item/{itemId}/options", tag = "catalog",
    params(("saleId" = i64, Path), ("itemId" = i64, Path), ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = ItemOptions), (status = 404, body = ErrorBody)))]
async fn item_options(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    member: MaybeMember,
    Path((sale_id, item_id)): Path<(i64, i64)>,
    ShownAt(now): ShownAt,
) -> Result<Json<ItemOptions>, ApiError> {
    let options = options_of(&app, site, &member, (sale_id, item_id), now).await?;
    Ok(Json(ItemOptions { options }))
}

/// The options of an item on sale, as `member` may hold them; 404 for no such item.
async fn options_of(
    app: &AppCtx,
    site: u16,
    member: &MaybeMember,
    (sale_id, item_id): (i64, i64),
    now: i64,
) -> Result<Vec<ItemOption>, ApiError> {
    store::item_options(
        &app.state.db,
        site,
        sale_id,
        item_id,
        app.cart.viewer(member.id()),
        now,
    )
    .await
    .log_as("Cannot fetch options")?
    .or_not_found()
}

/// The item's size guide: each of its sizes in the other sizing systems. 404 when the item
/// is not on sale, or when its sizes make no table (one size, labels of mixed kinds).
#[utoipa::path(get, path = "/api/catalog/v1/sale/{saleId}/item/{itemId}/sizeChart", tag = "catalog",
    params(("saleId" = i64, Path), ("itemId" = i64, Path), ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = SizeChart), (status = 404, body = ErrorBody)))]
async fn size_chart(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    member: MaybeMember,
    Path((sale_id, item_id)): Path<(i64, i64)>,
    ShownAt(now): ShownAt,
) -> Result<Json<SizeChart>, ApiError> {
    let options = options_of(&app, site, &member, (sale_id, item_id), now).await?;
    let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
    app::product::size_chart::size_chart(&labels)
        .or_not_found()
        .map(Json)
}

/// The carousel of an item: the products of the bundle it is in (its first), itself
/// included, as a Carrousel item's tile (type 7) shows them. 404 when the item is in no
/// bundle of a live sale, or not on show.
#[utoipa::path(get, path = "/api/catalog/v1/sale/{saleId}/carousel/{itemId}", tag = "catalog",
    params(("saleId" = i64, Path), ("itemId" = i64, Path), ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = Carousel), (status = 404, body = ErrorBody)))]
async fn carousel(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    member: MaybeMember,
    Path((sale_id, item_id)): Path<(i64, i64)>,
    ShownAt(now): ShownAt,
) -> Result<Json<Carousel>, ApiError> {
    let viewer = app.cart.viewer(member.id());
    let bundle = app::product::store::bundle_of(&app.state.db, site, sale_id, item_id, viewer, now)
        .await
        .log_as("Cannot fetch carousel")?
        .filter(|b| b.items.iter().any(|i| i.product_id == item_id))
        .or_not_found()?;
    Ok(Json(Carousel {
        item_id,
        bundle_id: bundle.id,
        items: bundle
            .items
            .into_iter()
            .map(|i| CarouselEntry {
                id: i.product_id,
                name: i.name,
                brand: i.brand,
                image_url: i.image_url,
                price: i.price,
            })
            .collect(),
    }))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BundlePriceParams {
    /// Comma-separated option ids, at most one per product of the bundle (at most 20);
    /// each product without one counts in its first option in stock.
    options: Option<String>,
}

/// What a bundle costs in the options asked for, line by line. 400 for an option that is
/// none of the bundle's (or two of one product), 409 when a product has nothing left in
/// the option asked or in any, 404 for no such bundle on show.
#[utoipa::path(get, path = "/api/catalog/v1/sale/{saleId}/bundle/{bundleId}/price", tag = "catalog",
    params(("saleId" = i64, Path), ("bundleId" = i64, Path), BundlePriceParams,
        ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = BundlePrice), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn bundle_price(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    member: MaybeMember,
    Path((sale_id, bundle_id)): Path<(i64, i64)>,
    Params(params): Params<BundlePriceParams>,
    ShownAt(now): ShownAt,
) -> Result<Json<BundlePrice>, ApiError> {
    use app::product::bundle::{parse_choices, BundleRefusal};
    let chosen = parse_choices(params.options.as_deref().unwrap_or(""))
        .ok_or_else(|| ApiError::wire(&BundleRefusal::NotInBundle))?;
    let viewer = app.cart.viewer(member.id());
    let bundle = app::product::store::bundle(&app.state.db, site, sale_id, bundle_id, viewer, now)
        .await
        .log_as("Cannot fetch bundle")?
        .or_not_found()?;
    app::product::bundle::bundle_price(&bundle, &chosen)
        .map(Json)
        .map_err(|r| ApiError::wire(&r))
}

async fn set_favourite(
    app: &AppCtx,
    site: u16,
    member_id: i64,
    (sale_id, item_id): (i64, i64),
    on: bool,
) -> Result<StatusCode, ApiError> {
    let what = if on {
        "Cannot add to favorite"
    } else {
        "Cannot remove from favorite"
    };
    let found = app::catalog::service::set_favourite(
        &app.state.db,
        site,
        member_id,
        sale_id,
        item_id,
        on,
        app::platform::state::now(),
    )
    .await
    .log_as(what)?;
    found.then_some(StatusCode::NO_CONTENT).or_not_found()
}

/// Adds an item to the member's favourites.
#[utoipa::path(put, path = "/api/catalog/v2/sale/{saleId}/item/{itemId}/favorite", tag = "catalog",
    params(("saleId" = i64, Path), ("itemId" = i64, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 204, description = "added"), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn favourite_add(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    SignedIn(m): SignedIn,
    Path(ids): Path<(i64, i64)>,
) -> Result<StatusCode, ApiError> {
    set_favourite(&app, site, m.member_id, ids, true).await
}

/// Removes an item from the member's favourites.
#[utoipa::path(delete, path = "/api/catalog/v2/sale/{saleId}/item/{itemId}/favorite",
    tag = "catalog",
    params(("saleId" = i64, Path), ("itemId" = i64, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 204, description = "removed"), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn favourite_remove(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    SignedIn(m): SignedIn,
    Path(ids): Path<(i64, i64)>,
) -> Result<StatusCode, ApiError> {
    set_favourite(&app, site, m.member_id, ids, false).await
}

/// A brand's items across the site's live sales.
#[utoipa::path(get, path = "/api/catalog/v1/brands/{brandId}/items", tag = "catalog",
    params(("brandId" = i64, Path), ContentParams, ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = BrandItems), (status = 400, body = ErrorBody,
        description = "a path or query parameter that does not parse, or a filter list past 20 values or 64 characters a value (too_many_values)"),
        (status = 404, body = ErrorBody)))]
async fn brand_items(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    member: MaybeMember,
    Path(brand_id): Path<i64>,
    Params(q): Params<ContentParams>,
    ShownAt(now): ShownAt,
) -> Result<Json<BrandItems>, ApiError> {
    let query = q.query()?;
    let (name, content) = store::brand_items(
        &app.state.db,
        site,
        brand_id,
        query.limit,
        query.offset,
        app.cart.viewer(member.id()),
        now,
    )
    .await
    .log_as("Unavailable Sale Content")?
    .or_not_found()?;
    Ok(Json(BrandItems {
        brand_id,
        name,
        total: content.total,
        offset: content.offset,
        limit: content.limit,
        items: content.items,
    }))
}

/// The member's favourite items that are still on sale.
#[utoipa::path(get, path = "/api/catalog/v1/favorites", tag = "catalog",
    params(("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = FavouriteItems), (status = 401, body = ErrorBody)))]
async fn favourites(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    SignedIn(m): SignedIn,
    ShownAt(now): ShownAt,
) -> Result<Json<FavouriteItems>, ApiError> {
    let items = store::favourite_items(
        &app.state.db,
        site,
        m.member_id,
        app.cart.settings.max_per_member,
        now,
    )
    .await
    .log_as("Cannot fetch favourites")?;
    Ok(Json(FavouriteItems { items }))
}
