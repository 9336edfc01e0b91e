//! Search rules shared by the server and the browser: the results page URL (spec 000 §2
//! query names q, page), links of suggestions, and the search suggestions state of spec 000
//! §3-§4 (inputValue, suggestions, loading, error; a request sets loading, a failure stores
//! the error and ends loading). Pure and unit-tested.
use serde::{Deserialize, Serialize};

use crate::model::catalog_api::CatalogItem;
use crate::model::search::Suggestion;
use crate::routes::encode_query_value;

/// Queries longer than this are refused (400).
pub const MAX_QUERY_CHARS: usize = 200;
/// Results per page of `/find`.
pub const PAGE_SIZE: i64 = 48;
/// Wait after the last key stroke before asking for suggestions.
pub const DEBOUNCE_MS: u64 = 200;

/// Where a search call comes from (spec 000 §4, the search request's origin): a sale's
/// catalog (0), whose search stays within that sale, or the search (1, the default),
/// across the site's live sales.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOrigin {
    Catalog,
    Search,
}

impl SearchOrigin {
    /// `origin` and `saleId` of a call: the sale a catalog search stays in (`None` for the
    /// search), or the key of the refusal (an unknown origin, a catalog search without a
    /// sale, a sale named by the search).
    pub fn scope(origin: Option<&str>, sale: Option<&str>) -> Result<Option<i64>, &'static str> {
        fn blank(v: Option<&str>) -> Option<&str> {
            v.map(str::trim).filter(|v| !v.is_empty())
        }
        let origin = match blank(origin) {
            None | Some("1") => SearchOrigin::Search,
            Some("0") => SearchOrigin::Catalog,
            Some(_) => return Err("search.errors.unknown_origin"),
        };
        let sale = match blank(sale) {
            None => None,
            Some(v) => Some(
                v.parse::<i64>()
                    .ok()
                    .filter(|id| *id > 0)
                    .ok_or("search.errors.sale_required")?,
            ),
        };
        match (origin, sale) {
            (SearchOrigin::Catalog, None) => Err("search.errors.sale_required"),
            (SearchOrigin::Catalog, sale) => Ok(sale),
            (SearchOrigin::Search, None) => Ok(None),
            (SearchOrigin::Search, Some(_)) => Err("search.errors.sale_for_catalog"),
        }
    }
}

/// Whether `q` gets a results page: not refused and not blank (whitespace only is what
/// the index's normalised query, `index::normalize_query`, turns into nothing). Such a page
/// is the same for every member but for their tiles; a blank one shows the member's recent
/// queries.
pub fn has_results(q: &str) -> bool {
    q.chars().count() <= MAX_QUERY_CHARS && q.split_whitespace().next().is_some()
}

/// Whether a member's view of page `page` of `q`'s results records `q` among their recent
/// queries (the first page only: paging through results is one search).
pub fn records(q: &str, page: u32) -> bool {
    has_results(q) && page <= 1
}

/// What a results page shows, as its URL carries it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindSelection {
    pub q: String,
    pub brands: Vec<String>,
    pub colors: Vec<String>,
    pub sizes: Vec<String>,
    pub sort: Option<String>,
    /// 1-based.
    pub page: u32,
}

impl FindSelection {
    pub fn from_query(get: impl Fn(&str) -> Option<String>) -> FindSelection {
        let list = |k: &str| {
            get(k)
                .map(|v| crate::catalog::rules::comma_list(&v))
                .unwrap_or_default()
        };
        FindSelection {
            q: get("q").unwrap_or_default(),
            brands: list("brand"),
            colors: list("color"),
            sizes: list("size"),
            sort: get("sort").filter(|s| !s.is_empty()),
            page: get("page")
                .and_then(|p| p.parse().ok())
                .filter(|p| *p >= 1)
                .unwrap_or(1),
        }
    }

    pub fn has_filters(&self) -> bool {
        !(self.brands.is_empty() && self.colors.is_empty() && self.sizes.is_empty())
    }

    /// Where search engines should look for this page, and whether they may index it: a
    /// plain query is a landing page (`/find?q=robe`, case and spaces folded so variants
    /// share one URL); filtered, sorted or later pages are variants of it and stay out of
    /// the index, as does the empty search box.
    pub fn seo(&self) -> (String, bool) {
        let q = self
            .q
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        if q.is_empty() {
            return ("/find".to_string(), false);
        }
        let plain = !self.has_filters() && self.sort.is_none() && self.page == 1;
        (search_url(&q), plain)
    }

    /// The `/find` URL of this selection.
    pub fn url(&self) -> String {
        let mut parts = vec![format!("q={}", encode_query_value(&self.q))];
        for (k, v) in [
            ("brand", &self.brands),
            ("color", &self.colors),
            ("size", &self.sizes),
        ] {
            if !v.is_empty() {
                parts.push(format!("{k}={}", encode_query_value(&v.join(","))));
            }
        }
        if let Some(s) = &self.sort {
            parts.push(format!("sort={}", encode_query_value(s)));
        }
        if self.page > 1 {
            parts.push(format!("page={}", self.page));
        }
        format!("/find?{}", parts.join("&"))
    }

    /// The same search with one filter value switched on or off, back on page 1.
    pub fn toggled(&self, filter: &str, value: &str) -> FindSelection {
        let mut next = FindSelection {
            page: 1,
            ..self.clone()
        };
        let list = match filter {
            "brand" => &mut next.brands,
            "color" => &mut next.colors,
            _ => &mut next.sizes,
        };
        if let Some(i) = list.iter().position(|v| v == value) {
            list.remove(i);
        } else {
            list.push(value.to_string());
        }
        next
    }

    pub fn is_active(&self, filter: &str, value: &str) -> bool {
        let list = match filter {
            "brand" => &self.brands,
            "color" => &self.colors,
            _ => &self.sizes,
        };
        list.iter().any(|v| v == value)
    }
}

/// The results page of a query.
pub fn search_url(q: &str) -> String {
    format!("/find?q={}", encode_query_value(q))
}

/// A product page: the member route, or the open SEO route for visitors.
pub fn product_url(member: bool, item: &CatalogItem) -> String {
    if member {
        format!("/product/{}/{}", item.sale_id, item.id)
    } else {
        format!(
            "/seo-product/{}/{}/{}/{}",
            crate::text::slug::slug(&item.brand),
            item.sale_id,
            crate::text::slug::slug(&item.name),
            item.id
        )
    }
}

/// A sale's whole catalog: the member route, or the open SEO route for visitors.
pub fn sale_url(member: bool, sale_id: i64, slug: &str) -> String {
    if member {
        format!("/catalog/{sale_id}/0")
    } else {
        format!("/c/{slug}/{sale_id}/0")
    }
}

/// The suggestions call (spec 000 §7 Search: GET with query and siteId).
pub fn suggestions_url(query: &str, site_id: u16) -> String {
    format!(
        "/api/catalog/v1/search/suggestions?query={}&siteId={site_id}",
        encode_query_value(query)
    )
}

/// The device header value of the suggestions call (spec 001 §9: 10 web, 7 webapp): the
/// web app below tablet width.
pub fn device_for_width(width: f64) -> &'static str {
    if width < 641.0 {
        "7"
    } else {
        "10"
    }
}

// ------------------------------------------------------------------ suggestions state

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SuggestionsState {
    pub input_value: String,
    pub suggestions: Vec<Suggestion>,
    pub loading: bool,
    pub error: Option<String>,
    /// The option chosen with the arrow keys.
    pub active: Option<usize>,
    pub open: bool,
    /// Id of the latest request: older answers are dropped.
    pub request: u32,
}

pub enum SuggestAction {
    Input(String),
    /// A request went out; its id is the new `request`.
    Pending,
    Fulfilled(u32, Vec<Suggestion>),
    Rejected(u32, String),
    /// Arrow down (+1) or up (-1).
    Move(i32),
    Close,
    Open,
}

impl SuggestionsState {
    pub fn apply(mut self, action: SuggestAction) -> Self {
        match action {
            SuggestAction::Input(v) => {
                self.input_value = v;
                self.active = None;
                self.open = true;
            }
            SuggestAction::Pending => {
                self.loading = true;
                self.error = None;
                self.request += 1;
            }
            SuggestAction::Fulfilled(id, list) if id == self.request => {
                self.suggestions = list;
                self.loading = false;
                self.active = None;
            }
            SuggestAction::Rejected(id, e) if id == self.request => {
                self.error = Some(e);
                self.loading = false;
            }
            SuggestAction::Fulfilled(..) | SuggestAction::Rejected(..) => {}
            SuggestAction::Move(step) => {
                let n = self.suggestions.len();
                if n > 0 {
                    self.open = true;
                    self.active = Some(match (self.active, step >= 0) {
                        (None, true) => 0,
                        (None, false) => n - 1,
                        (Some(i), true) => (i + 1) % n,
                        (Some(i), false) => (i + n - 1) % n,
                    });
                }
            }
            SuggestAction::Close => {
                self.open = false;
                self.active = None;
            }
            SuggestAction::Open => self.open = true,
        }
        self
    }

    /// The dropdown shows while open with something to say.
    pub fn visible(&self) -> bool {
        self.open && (self.loading || self.error.is_some() || !self.suggestions.is_empty())
    }

    pub fn active_url(&self) -> Option<String> {
        self.active
            .and_then(|i| self.suggestions.get(i))
            .map(|s| s.url.clone())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_search_origin_names_its_scope() {
        use super::SearchOrigin;
        assert_eq!(SearchOrigin::scope(None, None), Ok(None));
        assert_eq!(SearchOrigin::scope(Some("1"), Some(" ")), Ok(None));
        assert_eq!(
            SearchOrigin::scope(Some(" 0 "), Some("1001")),
            Ok(Some(1001))
        );
        for (origin, sale, key) in [
            (Some("2"), None, "search.errors.unknown_origin"),
            (Some("search"), None, "search.errors.unknown_origin"),
            (Some("0"), None, "search.errors.sale_required"),
            (Some("0"), Some("0"), "search.errors.sale_required"),
            (Some("0"), Some("1e3"), "search.errors.sale_required"),
            (None, Some("1001"), "search.errors.sale_for_catalog"),
        ] {
            assert_eq!(
                SearchOrigin::scope(origin, sale),
                Err(key),
                "{origin:?} {sale:?}"
            );
        }
    }

    use super::*;
    use crate::model::search::SuggestionKind;

    #[test]
    fn a_results_page_needs_a_query_within_the_limit_and_records_only_its_first_page() {
        for (q, results) in [
            ("robe", true),
            ("  d'été\u{3000}платье ", true),
            ("", false),
            (" \t\u{3000}\n", false),
            (&"é".repeat(MAX_QUERY_CHARS), true),
            (&"é".repeat(MAX_QUERY_CHARS + 1), false),
        ] {
            assert_eq!(has_results(q), results, "{q:?}");
            #[cfg(feature = "ssr")]
            if q.chars().count() <= MAX_QUERY_CHARS {
                assert_eq!(
                    results,
                    !crate::search::index::normalize_query(q).is_empty()
                );
            }
            assert_eq!(records(q, 1), results);
            assert_eq!(records(q, 0), results);
            assert!(!records(q, 2));
        }
    }

    #[test]
    fn only_a_plain_query_is_indexed_under_its_folded_url() {
        let sel = |q: &str, rest: &[(&str, &str)]| {
            FindSelection::from_query(|k| {
                if k == "q" {
                    return Some(q.to_string());
                }
                rest.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            })
        };
        assert_eq!(
            sel("  Robe   Rouge ", &[]).seo(),
            ("/find?q=robe%20rouge".to_string(), true)
        );
        assert_eq!(sel("", &[]).seo(), ("/find".to_string(), false));
        for rest in [[("brand", "Zara")], [("sort", "price")], [("page", "2")]] {
            assert_eq!(
                sel("robe", &rest).seo(),
                ("/find?q=robe".to_string(), false)
            );
        }
    }

    fn s(label: &str) -> Suggestion {
        Suggestion {
            kind: SuggestionKind::Regular,
            label: label.into(),
            url: format!("/x/{label}"),
            id: None,
        }
    }

    #[test]
    fn find_urls_round_trip() {
        let sel = FindSelection {
            q: "robe rouge".into(),
            brands: vec!["noa".into(), "kira".into()],
            sort: Some("price_asc".into()),
            page: 2,
            ..Default::default()
        };
        let url = sel.url();
        assert_eq!(
            url,
            "/find?q=robe%20rouge&brand=noa%2Ckira&sort=price_asc&page=2"
        );
        let pairs: Vec<(String, String)> = vec![
            ("q".into(), "robe rouge".into()),
            ("brand".into(), "noa,kira".into()),
            ("sort".into(), "price_asc".into()),
            ("page".into(), "2".into()),
        ];
        let back = FindSelection::from_query(|k| {
            pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
        });
        assert_eq!(back, sel);
        let off = sel.toggled("brand", "noa");
        assert_eq!(off.brands, vec!["kira".to_string()]);
        assert_eq!(off.page, 1, "a filter change goes back to page 1");
        assert!(off.toggled("size", "M").is_active("size", "M"));
        assert!(FindSelection::from_query(|_| None).page == 1);
        assert_eq!(search_url("é&"), "/find?q=%C3%A9%26");
    }

    #[test]
    fn links_depend_on_membership() {
        assert_eq!(sale_url(true, 1001, "noa"), "/catalog/1001/0");
        assert_eq!(sale_url(false, 1001, "noa"), "/c/noa/1001/0");
        assert_eq!(
            suggestions_url("ro be", 3),
            "/api/catalog/v1/search/suggestions?query=ro%20be&siteId=3"
        );
        assert_eq!(device_for_width(400.0), "7");
        assert_eq!(device_for_width(1024.0), "10");
    }

    #[test]
    fn suggestions_state_follows_the_spec() {
        let st = SuggestionsState::default()
            .apply(SuggestAction::Input("ro".into()))
            .apply(SuggestAction::Pending);
        assert!(st.loading && st.visible());
        let first = st.request;
        // A newer request makes the older answer stale.
        let st = st.apply(SuggestAction::Pending);
        let st = st.apply(SuggestAction::Fulfilled(first, vec![s("old")]));
        assert!(st.suggestions.is_empty() && st.loading);
        let latest = st.request;
        let st = st.apply(SuggestAction::Fulfilled(latest, vec![s("a"), s("b")]));
        assert!(!st.loading && st.suggestions.len() == 2);
        // Failure stores the error and ends loading.
        let st = st
            .apply(SuggestAction::Pending)
            .apply(SuggestAction::Rejected(first + 2, "err".into()));
        assert_eq!((st.loading, st.error.as_deref()), (false, Some("err")));
        assert_eq!(st.suggestions.len(), 2, "the previous list stays");
    }

    #[test]
    fn arrow_keys_wrap_around() {
        let st = SuggestionsState::default()
            .apply(SuggestAction::Pending)
            .apply(SuggestAction::Fulfilled(1, vec![s("a"), s("b"), s("c")]));
        let st = st.apply(SuggestAction::Move(1));
        assert_eq!(st.active, Some(0));
        let st = st.apply(SuggestAction::Move(-1));
        assert_eq!(st.active, Some(2));
        assert_eq!(st.active_url().as_deref(), Some("/x/c"));
        let st = st.apply(SuggestAction::Move(1));
        assert_eq!(st.active, Some(0));
        let st = st.apply(SuggestAction::Close);
        assert!(!st.visible() && st.active.is_none());
        assert_eq!(
            SuggestionsState::default()
                .apply(SuggestAction::Move(1))
                .active,
            None
        );
    }
}
