//! Shopping-core rules of spec 000 §2-§4 and §9: catalog filter URLs, catalog state
//! transitions, banner filtering, the pedagogical module, favourites, media sizes.
//! Pure: shared by the server and the browser, unit-tested.
// Over 400 lines: 200 of them are tests.
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

// ------------------------------------------------------------------ catalog filter URLs

/// What a catalog page shows, as its URL carries it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogSelection {
    pub catalog_id: Option<i64>,
    /// Brand slugs and colour slugs chosen in the filters.
    pub brands: Vec<String>,
    pub colors: Vec<String>,
    /// Other filters: filter id → selected values.
    pub filters: BTreeMap<String, Vec<String>>,
    pub sort: Option<String>,
    /// Words searched for within the sale (`searchTerm`, spec 000 §2), trimmed; at most
    /// [`MAX_LIST_VALUE_CHARS`] characters.
    #[serde(default)]
    pub search_term: Option<String>,
    /// 1-based page.
    pub page: u32,
}

impl CatalogSelection {
    fn single_slug(&self) -> Option<&str> {
        match (self.brands.as_slice(), self.colors.as_slice()) {
            ([one], []) | ([], [one]) => Some(one.as_str()),
            _ => None,
        }
    }

    /// Nothing chosen: the default catalog state (`dc=0`).
    pub fn is_default(&self) -> bool {
        self.brands.is_empty()
            && self.colors.is_empty()
            && self.filters.values().all(Vec::is_empty)
            && self.sort.is_none()
            && self.search_term.is_none()
    }
}

/// A `searchTerm` as pages and calls take it: trimmed, inner runs of white space made one
/// space, empty as none, and cut at [`MAX_LIST_VALUE_CHARS`] characters (a longer one names
/// nothing a product name holds).
pub fn search_term(value: &str) -> Option<String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let joined = words.join(" ");
    let cut: String = joined.chars().take(MAX_LIST_VALUE_CHARS).collect();
    let cut = cut.trim_end().to_string();
    (!cut.is_empty()).then_some(cut)
}

fn q(value: &str) -> String {
    crate::routes::encode_query_value(value)
}

/// Builds a catalog URL (spec 000 §2): exactly one brand or colour moves from the query
/// into the path as a slug, after the catalogId segment; with several or none they stay in
/// the query and the catalogId segment leaves the path for the query. `dc=0` marks the
/// default state; `page` paginates.
/// A filter list takes at most this many distinct values (review L10: each value is a
/// bound parameter of an `IN (...)`)...
/// How a sale's catalog page is laid out, from its catalog sale type (spec 000 §3; the
/// spec names the types only, so their layouts are the shop's reading of the names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatalogLayout {
    /// 1 (and the terminator, 101, which the spec does not describe): universes as
    /// navigation, pages of [`crate::catalog::api::PAGE_SIZE`] with "load more".
    Classic,
    /// 2: every item on one page, no universes, no paging (a small sale).
    OnePage,
    /// 3: as classic, with the filters open before the items.
    Filtered,
    /// 4: the filters are the way in: open, the universes offered among them only.
    FilteredCatalog,
}

/// The most items a one-page catalog shows: the store's largest page (`MAX_LIMIT`); a
/// larger sale should not be one page.
pub const ONE_PAGE_MAX: i64 = 96;

impl CatalogLayout {
    pub fn of(catalog_type: i64) -> Self {
        match catalog_type {
            2 => CatalogLayout::OnePage,
            3 => CatalogLayout::Filtered,
            4 => CatalogLayout::FilteredCatalog,
            _ => CatalogLayout::Classic,
        }
    }

    /// Items per page; one page shows them all (up to [`ONE_PAGE_MAX`]).
    pub fn page_size(self, classic: i64) -> i64 {
        if self == CatalogLayout::OnePage {
            ONE_PAGE_MAX
        } else {
            classic
        }
    }

    pub fn paged(self) -> bool {
        self != CatalogLayout::OnePage
    }

    /// The universes as a navigation bar above the items.
    pub fn universe_bar(self) -> bool {
        matches!(self, CatalogLayout::Classic | CatalogLayout::Filtered)
    }

    /// The filter panel open (before the items on a phone) even with nothing chosen.
    pub fn filters_open(self) -> bool {
        matches!(
            self,
            CatalogLayout::Filtered | CatalogLayout::FilteredCatalog
        )
    }

    /// The modifier class of the catalog section.
    pub fn class(self) -> &'static str {
        match self {
            CatalogLayout::Classic => "catalog--classic",
            CatalogLayout::OnePage => "catalog--one-page",
            CatalogLayout::Filtered => "catalog--filtered",
            CatalogLayout::FilteredCatalog => "catalog--filtered-catalog",
        }
    }
}

pub const MAX_LIST_VALUES: usize = 20;
/// ...of at most this many characters each.
pub const MAX_LIST_VALUE_CHARS: usize = 64;

/// A comma-separated filter value as a list, as pages read it: empty items and repeats
/// dropped (`brand=a,,b,a`), a value past [`MAX_LIST_VALUE_CHARS`] ignored, and the values
/// past the first [`MAX_LIST_VALUES`] ignored.
pub fn comma_list(v: &str) -> Vec<String> {
    capped(v.split(',').map(str::to_string))
}

/// The values of a list within the limits, in their order (see [`comma_list`]).
pub fn capped(values: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        if out.len() == MAX_LIST_VALUES {
            break;
        }
        if !v.is_empty() && v.chars().count() <= MAX_LIST_VALUE_CHARS && !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// A list past the limits: JSON calls answer it with 400 rather than guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListTooLong;

/// Translation key of [`ListTooLong`].
pub const LIST_TOO_LONG_KEY: &str = "errors.too_many_filters";

/// A list as JSON calls take it: more than [`MAX_LIST_VALUES`] distinct values, or one
/// longer than [`MAX_LIST_VALUE_CHARS`], is refused; repeats and empty items are dropped.
pub fn checked(values: &[String]) -> Result<Vec<String>, ListTooLong> {
    let mut out: Vec<String> = Vec::new();
    for v in values.iter().filter(|v| !v.is_empty()) {
        if v.chars().count() > MAX_LIST_VALUE_CHARS {
            return Err(ListTooLong);
        }
        if !out.contains(v) {
            if out.len() == MAX_LIST_VALUES {
                return Err(ListTooLong);
            }
            out.push(v.clone());
        }
    }
    Ok(out)
}

/// [`checked`] of a comma-separated value.
pub fn checked_comma_list(v: &str) -> Result<Vec<String>, ListTooLong> {
    let values: Vec<String> = v.split(',').map(str::to_string).collect();
    checked(&values)
}

/// A brand's page across live sales (`/b/{id}`), page `page` (the first has no number).
pub fn brand_url(brand_id: i64, page: u32) -> String {
    if page <= 1 {
        format!("/b/{brand_id}")
    } else {
        format!("/b/{brand_id}?page={page}")
    }
}

pub fn catalog_url(base: &str, sel: &CatalogSelection) -> String {
    let mut path = base.trim_end_matches('/').to_string();
    let mut query: Vec<String> = Vec::new();
    match sel.single_slug() {
        Some(slug) => {
            if let Some(id) = sel.catalog_id {
                path.push_str(&format!("/{id}"));
            }
            path.push_str(&format!("/{}", crate::text::slug::slug(slug)));
        }
        None => {
            if let Some(id) = sel.catalog_id {
                query.push(format!("catalogId={id}"));
            }
            if !sel.brands.is_empty() {
                query.push(format!("brand={}", q(&sel.brands.join(","))));
            }
            if !sel.colors.is_empty() {
                query.push(format!("color={}", q(&sel.colors.join(","))));
            }
        }
    }
    for (id, values) in &sel.filters {
        if !values.is_empty() {
            query.push(format!("{}={}", q(id), q(&values.join(","))));
        }
    }
    if let Some(sort) = &sel.sort {
        query.push(format!("sort={}", q(sort)));
    }
    if let Some(term) = &sel.search_term {
        query.push(format!("searchTerm={}", q(term)));
    }
    if sel.is_default() {
        query.push("dc=0".into());
    }
    if sel.page > 1 {
        query.push(format!("page={}", sel.page));
    }
    if query.is_empty() {
        path
    } else {
        format!("{path}?{}", query.join("&"))
    }
}

/// Reads a catalog URL back. `path_slug` is the `[BrandOrColor]` segment; `is_color` tells
/// whether that slug names a colour (the catalog's colour options decide).
pub fn parse_catalog_url(
    path_catalog_id: Option<i64>,
    path_slug: Option<&str>,
    is_color: impl Fn(&str) -> bool,
    query: &[(String, String)],
) -> CatalogSelection {
    let mut sel = CatalogSelection {
        catalog_id: path_catalog_id,
        page: 1,
        ..Default::default()
    };
    if let Some(slug) = path_slug {
        if is_color(slug) {
            sel.colors.push(slug.to_string());
        } else {
            sel.brands.push(slug.to_string());
        }
    }
    for (k, v) in query {
        match k.as_str() {
            "catalogId" => sel.catalog_id = sel.catalog_id.or(v.parse().ok()),
            "brand" => sel.brands.extend(comma_list(v)),
            "color" => sel.colors.extend(comma_list(v)),
            "sort" if !v.is_empty() => sel.sort = Some(v.clone()),
            "page" => sel.page = v.parse().ok().filter(|p| *p >= 1).unwrap_or(1),
            "searchTerm" => sel.search_term = search_term(v),
            "dc" | "q" | "site" | "saleId" | "seo" => {}
            // The price form without scripts sends both ends apart; the URL keeps one range.
            "pmin" | "pmax" => {
                let v = v.trim();
                if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
                    let range = sel
                        .filters
                        .entry("price".into())
                        .or_insert_with(|| vec!["-".into()]);
                    let (lo, hi) = range[0]
                        .split_once('-')
                        .map(|(a, b)| (a.to_string(), b.to_string()))
                        .unwrap_or_default();
                    range[0] = if k == "pmin" {
                        format!("{v}-{hi}")
                    } else {
                        format!("{lo}-{v}")
                    };
                }
            }
            // Other filters: a bounded number of them (each is a list of its own).
            other if sel.filters.len() < MAX_LIST_VALUES || sel.filters.contains_key(other) => {
                let values = comma_list(v);
                if !values.is_empty() {
                    sel.filters.insert(other.to_string(), values);
                }
            }
            _ => {}
        }
    }
    // Repeated `brand=` and `color=` parameters add up: the cap holds for the whole list.
    sel.brands = capped(std::mem::take(&mut sel.brands));
    sel.colors = capped(std::mem::take(&mut sel.colors));
    sel
}

/// `price=10-50` (whole currency units; either end may be left out) → cents.
pub fn price_range(value: Option<&str>) -> (Option<i64>, Option<i64>) {
    let Some((lo, hi)) = value.and_then(|v| v.split_once('-')) else {
        return (None, None);
    };
    let cents = |s: &str| {
        s.trim()
            .parse::<i64>()
            .ok()
            .filter(|v| *v >= 0)
            .map(|v| v.saturating_mul(100))
    };
    (cents(lo), cents(hi).map(|c| c + 99))
}

// ------------------------------------------------------------------ catalog items state

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CatalogItemsState<T> {
    pub loading: bool,
    pub items: Vec<T>,
    pub total: u32,
    pub error: Option<String>,
    pub offset: u32,
    pub limit: u32,
    pub request_id: u32,
    pub search_term: String,
}

pub enum CatalogAction<T> {
    Pending,
    Fulfilled {
        offset: u32,
        total: u32,
        items: Vec<T>,
    },
    Rejected(String),
    NextPage,
    SetSearch(String),
    FiltersChanged,
}

impl<T> CatalogItemsState<T> {
    pub fn new(limit: u32) -> Self {
        CatalogItemsState {
            loading: true,
            items: Vec::new(),
            total: 0,
            error: None,
            offset: 0,
            limit,
            request_id: 0,
            search_term: String::new(),
        }
    }

    /// The transitions of spec 000 §4 "Catalog items".
    pub fn apply(mut self, action: CatalogAction<T>) -> Self {
        match action {
            CatalogAction::Pending => self.loading = true,
            CatalogAction::Fulfilled {
                offset,
                total,
                items,
            } => {
                if offset > 0 {
                    self.items.extend(items);
                } else {
                    self.items = items;
                }
                self.total = total;
                self.loading = false;
                self.error = None;
            }
            CatalogAction::Rejected(e) => {
                self.error = Some(e);
                self.loading = false;
            }
            CatalogAction::NextPage => {
                self.offset += self.limit;
                self.request_id += 1;
            }
            CatalogAction::SetSearch(term) => {
                self.search_term = term;
                self.offset = 0;
            }
            CatalogAction::FiltersChanged => self.offset = 0,
        }
        self
    }
}

// ------------------------------------------------------------------ homes and banners

/// Banner kinds that need a mobile image to be shown.
pub const NEEDS_MOBILE_IMAGE: [&str; 3] = ["SaleBanner", "CampaignBanner", "SplittedBanner"];

/// Sale, campaign and split banners without a mobile image are dropped, unless the filter
/// is told to skip that check (spec 000 §2).
/// A product's picture: the one uploaded in the back office (served in the page's widths
/// by `?w=`), else the drawn demo picture.
pub fn product_image_url(product_id: i64, image_id: Option<i64>) -> String {
    match image_id {
        Some(image) => format!("/img/p/{image}"),
        None => format!("/img/product/{product_id}.svg"),
    }
}

/// A sale's banner or logo: the picture uploaded in the back office (`sales.banner_image_id`,
/// `logo_image_id`) at the width the page shows, else the shop's drawing of the sale.
pub fn sale_picture_url(sale_id: i64, kind: SalePicture, picture_id: Option<i64>) -> String {
    match (picture_id, kind) {
        (Some(id), SalePicture::Banner) => format!("/img/s/{id}?w=960"),
        (Some(id), SalePicture::Logo) => format!("/img/s/{id}?w=179"),
        (None, SalePicture::Banner) => format!("/img/sale/{sale_id}/banner.svg"),
        (None, SalePicture::Logo) => format!("/img/sale/{sale_id}/logo.svg"),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SalePicture {
    Banner,
    Logo,
}

impl SalePicture {
    /// The `sales` column naming the uploaded picture.
    pub fn column(self) -> &'static str {
        match self {
            SalePicture::Banner => "banner_image_id",
            SalePicture::Logo => "logo_image_id",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SalePicture::Banner => "banner",
            SalePicture::Logo => "logo",
        }
    }
}

pub fn keep_banner(kind: &str, mobile_image_url: &str, skip_mobile_check: bool) -> bool {
    skip_mobile_check || !NEEDS_MOBILE_IMAGE.contains(&kind) || !mobile_image_url.trim().is_empty()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ButtonVariant {
    Primary,
    Transparent,
    Tertiary,
}

/// Pedagogical module button variant: primary for the secondary button when there is
/// one; otherwise transparent on white web text, else tertiary.
pub fn pedagogical_button_variant(
    has_secondary_button: bool,
    web_text_color: &str,
) -> ButtonVariant {
    if has_secondary_button {
        ButtonVariant::Primary
    } else if web_text_color.trim().eq_ignore_ascii_case("#FFFFFF") {
        ButtonVariant::Transparent
    } else {
        ButtonVariant::Tertiary
    }
}

/// Highlights per page in the pedagogical module: one (as a grid) when exactly one banner
/// exists, otherwise two when the flag is set, else four.
pub fn pedagogical_items_per_page(banner_count: usize, two_per_page: bool) -> usize {
    if banner_count == 1 {
        1
    } else if two_per_page {
        2
    } else {
        4
    }
}

/// Links of the pedagogical module carry home identifier 1.
pub const PEDAGOGICAL_HOME_ID: i64 = 1;

/// A module is found by name (case-insensitive) or by id.
pub fn module_matches(key: &str, name: &str, id: i64) -> bool {
    name.eq_ignore_ascii_case(key.trim()) || key.trim().parse::<i64>().is_ok_and(|k| k == id)
}

/// Two-column grid of six units each for the pedagogical module (left: texts, right: banner).
pub const PEDAGOGICAL_COLUMNS: [u8; 2] = [6, 6];

// ------------------------------------------------------------------ colours and media

/// Colour slugs a catalog path segment may be (`/c/{seo}/{sale}/{universe}/{brandOrColor}`):
/// a segment that is one of them filters by colour, any other by brand.
pub const COLOUR_SLUGS: [&str; 6] = ["rouge", "bleu", "noir", "blanc", "vert", "rose"];

pub fn is_colour_slug(slug: &str) -> bool {
    COLOUR_SLUGS.contains(&slug)
}

#[cfg(test)]
mod price_tests {
    use super::price_range;

    #[test]
    fn the_price_form_becomes_one_range_in_the_url() {
        let q = |pairs: &[(&str, &str)]| {
            let pairs: Vec<(String, String)> = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            super::parse_catalog_url(None, None, |_| false, &pairs)
        };
        let sel = q(&[("pmin", "10"), ("pmax", "50")]);
        assert_eq!(sel.filters["price"], vec!["10-50"]);
        assert_eq!(
            super::catalog_url("/catalog/1/0", &sel),
            "/catalog/1/0?price=10-50"
        );
        assert_eq!(q(&[("pmax", "50")]).filters["price"], vec!["-50"]);
        assert!(!q(&[("pmin", ""), ("pmax", "x")])
            .filters
            .contains_key("price"));
        assert_eq!(q(&[("price", "5-9")]).filters["price"], vec!["5-9"]);
    }

    #[test]
    fn price_range_reads_whole_units_into_cents() {
        assert_eq!(price_range(Some("10-50")), (Some(1000), Some(5099)));
        assert_eq!(price_range(Some("-50")), (None, Some(5099)));
        assert_eq!(price_range(Some("10-")), (Some(1000), None));
        assert_eq!(price_range(Some("abc")), (None, None));
        assert_eq!(price_range(Some("x-y")), (None, None));
        assert_eq!(price_range(None), (None, None));
    }
}

#[cfg(test)]
mod list_tests {
    use super::*;

    #[test]
    fn pages_keep_at_most_twenty_short_distinct_values() {
        assert_eq!(comma_list("a,,b,a"), vec!["a", "b"]);
        let many: Vec<String> = (0..5000).map(|n| format!("b{n}")).collect();
        let list = comma_list(&many.join(","));
        assert_eq!(list.len(), MAX_LIST_VALUES);
        assert_eq!(list[19], "b19");
        let long = "x".repeat(MAX_LIST_VALUE_CHARS + 1);
        assert_eq!(comma_list(&format!("{long},ok")), vec!["ok"]);
        // Repeated parameters add up to one capped list; other filters are bounded too.
        let mut pairs: Vec<(String, String)> = many
            .iter()
            .map(|b| ("brand".to_string(), b.clone()))
            .collect();
        pairs.extend((0..100).map(|n| (format!("f{n}"), many.join(","))));
        let sel = parse_catalog_url(None, None, |_| false, &pairs);
        assert_eq!(sel.brands.len(), MAX_LIST_VALUES);
        assert!(sel.filters.len() <= MAX_LIST_VALUES);
        assert!(sel.filters.values().all(|v| v.len() <= MAX_LIST_VALUES));
    }

    #[test]
    fn json_calls_refuse_lists_past_the_limits() {
        let twenty: Vec<String> = (0..20).map(|n| format!("v{n}")).collect();
        assert_eq!(checked(&twenty), Ok(twenty.clone()));
        let mut repeated = twenty.clone();
        repeated.extend(twenty.clone());
        assert_eq!(checked(&repeated), Ok(twenty.clone()));
        let mut more = twenty.clone();
        more.push("v20".into());
        assert_eq!(checked(&more), Err(ListTooLong));
        assert_eq!(checked(&["x".repeat(65)]), Err(ListTooLong));
        assert_eq!(checked(&["é".repeat(64)]).map(|v| v.len()), Ok(1));
        assert_eq!(checked_comma_list("a,,b"), Ok(vec!["a".into(), "b".into()]));
        assert_eq!(checked_comma_list(&more.join(",")), Err(ListTooLong));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel() -> CatalogSelection {
        CatalogSelection {
            page: 1,
            ..Default::default()
        }
    }

    #[test]
    fn one_brand_moves_into_the_path_with_the_catalog_segment() {
        let s = CatalogSelection {
            catalog_id: Some(12),
            brands: vec!["Léna Paris".into()],
            ..sel()
        };
        assert_eq!(
            catalog_url("/catalog/1001/10010", &s),
            "/catalog/1001/10010/12/lena-paris"
        );
        let s = CatalogSelection {
            colors: vec!["rouge".into()],
            ..sel()
        };
        assert_eq!(
            catalog_url("/c/robes/1001/10010/", &s),
            "/c/robes/1001/10010/rouge"
        );
    }

    #[test]
    fn several_or_none_stay_in_the_query_and_catalog_leaves_the_path() {
        let s = CatalogSelection {
            catalog_id: Some(12),
            brands: vec!["nike".into(), "puma".into()],
            ..sel()
        };
        assert_eq!(
            catalog_url("/catalog/1/2", &s),
            "/catalog/1/2?catalogId=12&brand=nike%2Cpuma"
        );
        let s = CatalogSelection {
            brands: vec!["nike".into()],
            colors: vec!["rouge".into()],
            ..sel()
        };
        assert_eq!(
            catalog_url("/catalog/1/2", &s),
            "/catalog/1/2?brand=nike&color=rouge"
        );
        assert_eq!(catalog_url("/catalog/1/2", &sel()), "/catalog/1/2?dc=0");
        let s = CatalogSelection {
            catalog_id: Some(3),
            page: 2,
            ..sel()
        };
        assert_eq!(
            catalog_url("/catalog/1/2", &s),
            "/catalog/1/2?catalogId=3&dc=0&page=2"
        );
    }

    #[test]
    fn urls_round_trip() {
        let mut filters = BTreeMap::new();
        filters.insert("size".to_string(), vec!["M".to_string(), "L".to_string()]);
        let s = CatalogSelection {
            catalog_id: Some(12),
            brands: vec!["nike".into()],
            filters,
            sort: Some("price_asc".into()),
            page: 3,
            ..sel()
        };
        let url = catalog_url("/catalog/1/2", &s);
        assert_eq!(url, "/catalog/1/2/12/nike?size=M%2CL&sort=price_asc&page=3");
        let query: Vec<(String, String)> = vec![
            ("size".into(), "M,L".into()),
            ("sort".into(), "price_asc".into()),
            ("page".into(), "3".into()),
        ];
        let back = parse_catalog_url(Some(12), Some("nike"), |_| false, &query);
        assert_eq!(back, s);
        let colour = parse_catalog_url(
            None,
            Some("rouge"),
            |s| s == "rouge",
            &[("page".into(), "0".into())],
        );
        assert_eq!(colour.colors, ["rouge"]);
        assert_eq!(colour.page, 1, "bad page numbers fall back to 1");
    }

    #[test]
    fn a_search_term_rides_in_the_query_and_reads_back_tidied() {
        let s = CatalogSelection {
            brands: vec!["nike".into()],
            search_term: Some("robe d'été".into()),
            ..sel()
        };
        let url = catalog_url("/catalog/1/2", &s);
        assert_eq!(url, "/catalog/1/2/nike?searchTerm=robe%20d%27%C3%A9t%C3%A9");
        let query = vec![("searchTerm".to_string(), "  robe \t d'été ".to_string())];
        assert_eq!(parse_catalog_url(None, Some("nike"), |_| false, &query), s);
        assert!(!s.is_default(), "a search is not the default catalog state");
        assert_eq!(search_term("   "), None);
        assert_eq!(search_term(&"é".repeat(80)), Some("é".repeat(64)));
        assert_eq!(
            search_term(&format!("{} b", "a".repeat(63))),
            Some("a".repeat(63))
        );
    }

    #[test]
    fn catalog_state_appends_after_the_first_page_and_resets_on_new_search() {
        let st: CatalogItemsState<u32> = CatalogItemsState::new(2);
        assert!(st.loading);
        let st = st.apply(CatalogAction::Fulfilled {
            offset: 0,
            total: 5,
            items: vec![1, 2],
        });
        assert_eq!((st.items.clone(), st.loading), (vec![1, 2], false));
        let st = st.apply(CatalogAction::NextPage);
        assert_eq!((st.offset, st.request_id), (2, 1));
        let st = st
            .apply(CatalogAction::Pending)
            .apply(CatalogAction::Fulfilled {
                offset: 2,
                total: 5,
                items: vec![3, 4],
            });
        assert_eq!(st.items, vec![1, 2, 3, 4]);
        let st = st.apply(CatalogAction::SetSearch("robe".into()));
        assert_eq!(st.offset, 0);
        let st = st.apply(CatalogAction::Fulfilled {
            offset: 0,
            total: 1,
            items: vec![9],
        });
        assert_eq!(st.items, vec![9], "offset 0 replaces");
        let st = st
            .apply(CatalogAction::Pending)
            .apply(CatalogAction::Rejected("boom".into()));
        assert_eq!(
            (st.error.as_deref(), st.loading, st.items.len()),
            (Some("boom"), false, 1)
        );
        let st = st
            .apply(CatalogAction::NextPage)
            .apply(CatalogAction::FiltersChanged);
        assert_eq!(st.offset, 0);
    }

    #[test]
    fn banners_without_mobile_image_are_dropped_unless_told_otherwise() {
        assert!(!keep_banner("SaleBanner", "", false));
        assert!(!keep_banner("SplittedBanner", "  ", false));
        assert!(keep_banner("SaleBanner", "", true));
        assert!(keep_banner("CampaignBanner", "/m.svg", false));
        assert!(keep_banner("HighlightBanner", "", false));
    }

    #[test]
    fn pedagogical_module_rules() {
        assert_eq!(
            pedagogical_button_variant(true, "#FFFFFF"),
            ButtonVariant::Primary
        );
        assert_eq!(
            pedagogical_button_variant(false, "#ffffff"),
            ButtonVariant::Transparent
        );
        assert_eq!(
            pedagogical_button_variant(false, "#000000"),
            ButtonVariant::Tertiary
        );
        assert_eq!(pedagogical_items_per_page(1, true), 1);
        assert_eq!(pedagogical_items_per_page(3, true), 2);
        assert_eq!(pedagogical_items_per_page(3, false), 4);
        assert!(module_matches("PEDAGOGY", "pedagogy", 7));
        assert!(module_matches("7", "other", 7));
        assert!(!module_matches("8", "other", 7));
        assert_eq!(
            PEDAGOGICAL_COLUMNS.iter().map(|c| *c as u32).sum::<u32>(),
            12
        );
    }
}

#[cfg(test)]
mod picture_tests {
    use super::*;

    #[test]
    fn a_sale_shows_its_uploaded_banner_and_logo_else_its_drawing() {
        assert_eq!(
            sale_picture_url(7, SalePicture::Banner, Some(3)),
            "/img/s/3?w=960"
        );
        assert_eq!(
            sale_picture_url(7, SalePicture::Logo, Some(4)),
            "/img/s/4?w=179"
        );
        assert_eq!(
            sale_picture_url(7, SalePicture::Banner, None),
            "/img/sale/7/banner.svg"
        );
        assert_eq!(
            sale_picture_url(7, SalePicture::Logo, None),
            "/img/sale/7/logo.svg"
        );
        assert_eq!(product_image_url(5, None), "/img/product/5.svg");
    }
}

/// A sale's marketing insert (spec 000 §3 `marketing.insert`) comes after this many items
/// of its first page: the first row on a desktop, two on a phone.
pub const MARKETING_INSERT_AFTER: usize = 4;
