//! Catalog REST shapes (spec 000 §3 "Sale / campaign", "Catalog items state", §7 Catalog).
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Universe {
    pub id: i64,
    pub title: String,
    pub products: Vec<i64>,
    #[cfg_attr(feature = "ssr", schema(no_recursion))]
    pub sub_universes: Vec<Universe>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SaleFeatures {
    pub with_quotation_price: bool,
    pub with_map: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SaleLegal {
    pub merchant: String,
    pub terms_of_service: String,
    pub products_listing_cgu: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Sale {
    pub id: i64,
    pub name: String,
    pub offer_type: String,
    pub end_date: i64,
    pub banner: String,
    pub logo: String,
    pub description: String,
    pub features: SaleFeatures,
    pub legal: SaleLegal,
    pub universes: Vec<Universe>,
    /// The theme the sale asks for (spec 000 §9): `recycle`, `bw`, or empty for its site's.
    #[serde(default)]
    pub theme: String,
    /// Catalog sale type (spec 000 §3): classic 1, one page 2, filtered 3, filtered
    /// catalog 4, terminator 101; how the catalog page lays the sale out
    /// (`catalog::rules::CatalogLayout`).
    #[serde(default = "classic_catalog")]
    pub catalog_type: i64,
    /// The sale's marketing banner and insert (spec 000 §3 `marketing`).
    #[serde(default)]
    pub marketing: SaleMarketing,
    /// The signed-in member's answers to the sale's intermediate step (spec 000 §3 sale
    /// state); both false for a visitor.
    #[serde(default)]
    pub state: SaleState,
    /// What the operators set for search engines (empty: the page's generated title and
    /// description, no paragraph).
    #[serde(default)]
    pub seo_config: SeoConfig,
}

/// A page's SEO settings (spec 000 §3 seoConfig): landing pages and sale catalogs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SeoConfig {
    pub title: String,
    pub description: String,
    pub footer_paragraphs: Vec<String>,
}

impl SeoConfig {
    /// From the stored fields; the footer's paragraphs are separated by a blank line.
    pub fn of(title: String, description: String, footer: &str) -> SeoConfig {
        SeoConfig {
            title: title.trim().to_string(),
            description: description.trim().to_string(),
            footer_paragraphs: footer
                .replace("\r\n", "\n")
                .split("\n\n")
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect(),
        }
    }
}

/// A member's answers to a sale's intermediate step (its `legal.productsListingCgu`):
/// each becomes true once and stays true.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SaleState {
    /// They accepted the sale's listing conditions.
    pub has_accepted_intermediate: bool,
    /// They emptied a cart of another kind to shop in this sale.
    pub has_canceled_cart: bool,
}

/// What a sale says of itself besides its items: a banner across the top of its catalog
/// and an insert, a tile among its items (its first page only). Either may be absent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SaleMarketing {
    pub banner: Option<MarketingMessage>,
    pub insert: Option<MarketingMessage>,
}

/// A marketing message: a title and a line of text, in the sale's language.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MarketingMessage {
    pub title: String,
    pub text: String,
}

impl MarketingMessage {
    /// The message of two stored columns: none when both are empty.
    pub fn of(title: String, text: String) -> Option<MarketingMessage> {
        (!title.trim().is_empty() || !text.trim().is_empty())
            .then_some(MarketingMessage { title, text })
    }
}

fn classic_catalog() -> i64 {
    1
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Price {
    pub value: i64,
    pub retail_value: i64,
    pub unit: String,
}

/// Availability states (spec 000 §3): Available, MaxReached, OutOfStock, InBasket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub enum Availability {
    Available,
    MaxReached,
    OutOfStock,
    InBasket,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CatalogItem {
    pub id: i64,
    pub sale_id: i64,
    /// Item types in lists: Normal 1, Carrousel 7, Ad 10.
    #[serde(rename = "type")]
    pub item_type: i64,
    pub name: String,
    pub brand: String,
    pub brand_slug: String,
    pub color: String,
    pub image_url: String,
    pub price: Price,
    pub favorite: bool,
    pub availability: Availability,
    pub tier: String,
    pub delivery_mode: i64,
    pub seller_kind: String,
    /// For a Carrousel item (type 7): the products of its bundle, shown as a strip of
    /// pictures on its tile (`GET .../carousel/{itemId}` gives the same).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carousel: Vec<CarouselEntry>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CatalogContent {
    pub request_id: i64,
    pub total: i64,
    pub offset: i64,
    pub limit: i64,
    pub items: Vec<CatalogItem>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FilterOption {
    pub id: String,
    pub label: String,
    /// The value as the products carry it (a brand's name, a colour, a size); `label` is
    /// what the panel shows (a translation key for the stock and price options).
    #[serde(default)]
    pub name: String,
    pub slug: String,
    pub count: i64,
}

/// A section of a long filter (the brands by initial letter, `catalog::sections`): its
/// title and its options' ids, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FilterGroup {
    pub section: String,
    pub options: Vec<String>,
}

/// Filter types: checkbox, chip, category, radio, hidden, range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Filter {
    pub id: String,
    #[serde(rename = "type")]
    pub filter_type: String,
    pub label_key: String,
    pub options: Vec<FilterOption>,
    /// The options in sections, where the list is long (brands: `catalog::sections`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<FilterGroup>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ItemOption {
    pub id: i64,
    pub label: String,
    pub stock: i64,
    pub availability: Availability,
    /// What this option costs: its own price where the back office gave it one, else its
    /// product's (the product state's `selectedPricing` once chosen).
    pub price: Price,
    /// Its own picture (`variationPreview`), `None` when it shows its product's.
    pub preview: Option<String>,
}

/// `GET .../catalogTree`: the universes of a sale.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CatalogTree {
    pub sale_id: i64,
    pub universes: Vec<Universe>,
}

/// `GET .../filters/{catalogId}`: the filters of a catalog, in display order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Filters {
    pub filters: Vec<Filter>,
}

/// One filter of the catalog items search (`POST .../catalogContent/{catalogId}`, spec 000
/// §7): a filter's `id` from the filters call and the values chosen; `{}` stands for no
/// filter. Values as the GET call's query takes them: brand slugs, colours, sizes, `in` or
/// `all` for `stock`, `min-max` in whole units (or the two sides) for `price`, one universe
/// id for `category`, the path's sale for `sale`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SelectedFilter {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub selected_values: Vec<String>,
}

/// `GET .../item/{itemId}/options`: the sizes or variants of an item with their stock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ItemOptions {
    pub options: Vec<ItemOption>,
}

/// `GET .../item/{itemId}/sizeChart`: each of the item's sizes in the other sizing systems
/// (`app::product::size_chart`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SizeChart {
    /// `letters`, `clothing` or `shoes`.
    pub kind: String,
    /// The systems of the columns, the row's own size first: INT, FR, IT, UK, US, EU,
    /// US_W (women's), US_M (men's).
    pub systems: Vec<String>,
    pub rows: Vec<SizeChartRow>,
}

/// One size of a [`SizeChart`]: its label on the item, then its value in each system after
/// the first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SizeChartRow {
    pub size: String,
    pub conversions: Vec<String>,
}

/// `GET /api/catalog/v1/favorites`: the member's favourite items still on sale.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct FavouriteItems {
    pub items: Vec<CatalogItem>,
}

/// `GET /api/catalog/v1/brands/{brandId}/items`: a brand's items across live sales.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BrandItems {
    pub brand_id: i64,
    pub name: String,
    pub total: i64,
    pub offset: i64,
    pub limit: i64,
    pub items: Vec<CatalogItem>,
}

/// One product of a carousel: enough for its picture and its link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CarouselEntry {
    pub id: i64,
    pub name: String,
    pub brand: String,
    pub image_url: String,
    pub price: Price,
}

/// `GET .../carousel/{itemId}`: the products of the bundle a Carrousel item (type 7) leads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Carousel {
    pub item_id: i64,
    pub bundle_id: i64,
    pub items: Vec<CarouselEntry>,
}

/// Products of one sale sold together (`app::product::bundle`), each with its options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Bundle {
    pub id: i64,
    pub sale_id: i64,
    pub items: Vec<BundleItem>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BundleItem {
    pub product_id: i64,
    pub name: String,
    pub brand: String,
    pub image_url: String,
    /// The product's own price, for options without their own.
    pub price: Price,
    pub options: Vec<ItemOption>,
    /// Seller kinds: fs, marketplace, return, recycle, m2m (its cart type follows).
    pub seller_kind: String,
}

/// `GET .../bundle/{bundleId}/price`: what the bundle costs in the options asked for (each
/// product's first option in stock where none is asked), line by line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BundlePrice {
    pub bundle_id: i64,
    pub price: Price,
    pub lines: Vec<BundleLine>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BundleLine {
    pub product_id: i64,
    pub option_id: i64,
    pub price: Price,
}
