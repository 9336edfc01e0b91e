//! The search page's server function (GET). It records the member's query through the
//! service (a write), then reads results, filters and recent queries.
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;
use serde::{Deserialize, Serialize};

use crate::model::catalog_api::Filter;
use crate::model::search::{RecentQuery, SearchItems};
#[cfg(feature = "ssr")]
use crate::{
    cart::service::cart_service,
    context::RequestCtx,
    platform::state::{app_state, now, shared, WireResult},
    search::error::SearchError,
    search::rules::{records, MAX_QUERY_CHARS, PAGE_SIZE},
    search::{service, store},
};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchPageData {
    pub items: SearchItems,
    pub filters: Vec<Filter>,
    /// The member's recent queries (shown under an empty box).
    pub recent: Vec<RecentQuery>,
    /// Translation key when the query was refused (too long).
    pub refused: Option<String>,
}

/// A results page of `/find`: the query, the chosen filters, sort and page.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchPageQuery {
    pub site_id: u16,
    #[serde(default)]
    pub q: String,
    #[serde(default)]
    pub brands: Vec<String>,
    #[serde(default)]
    pub colors: Vec<String>,
    #[serde(default)]
    pub sizes: Vec<String>,
    #[serde(default)]
    pub sort: Option<String>,
    pub page: u32,
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "search/page")]
pub async fn fetch_search_page(query: SearchPageQuery) -> Result<SearchPageData, ServerFnError> {
    let mut query = query;
    crate::catalog::api::checked_lists([&mut query.brands, &mut query.colors, &mut query.sizes])?;
    let SearchPageQuery {
        site_id,
        q,
        brands,
        colors,
        sizes,
        sort,
        page,
    } = query;
    let state = app_state()?;
    let indexes = shared::<store::SearchIndexes>()?;
    let now = now();
    let member = RequestCtx::current().member_id;
    let mut data = SearchPageData {
        items: SearchItems::default(),
        filters: vec![],
        recent: vec![],
        refused: None,
    };
    if q.chars().count() > MAX_QUERY_CHARS {
        data.refused = Some("search.errors.too_long".into());
        return Ok(data);
    }
    let query = store::SearchQuery {
        q: q.clone(),
        offset: (i64::from(page.max(1)) - 1) * PAGE_SIZE,
        limit: PAGE_SIZE,
        sort: sort.filter(|s| !s.is_empty()),
        brands,
        colors,
        sizes,
        sale_id: None,
    };
    data.items = store::search_items(
        &state.db,
        &indexes,
        site_id,
        &query,
        cart_service()?.viewer(member),
        now,
    )
    .await
    .wire::<SearchError>()?;
    if !data.items.search_term.is_empty() {
        data.filters = store::search_filters(&state.db, &indexes, site_id, &q, query.ticked(), now)
            .await
            .wire::<SearchError>()?
            .filters;
    }
    // A member template's stand-in records nothing: each member's view of the template
    // records their own (`serve::member_pages`).
    if let Some(m) = member.filter(|m| *m != crate::ui::personal::TEMPLATE_MEMBER_ID) {
        if records(&q, page) {
            let record = service::SearchRecord {
                member_id: m,
                site_id,
                q: q.clone(),
                now,
            };
            service::record(&*shared::<service::SearchRecorder>()?, record)
                .await
                .wire::<SearchError>()?;
        }
        data.recent = store::recent(&state.db, m, site_id)
            .await
            .wire::<SearchError>()?;
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_query_round_trips_through_the_get_url() {
        let query = SearchPageQuery {
            site_id: 1,
            q: "robe d'été & co".into(),
            brands: vec!["lena".into()],
            colors: vec!["rouge".into(), "bleu".into()],
            sizes: vec![],
            sort: Some("price_asc".into()),
            page: 1,
        };
        let qs = serde_qs::to_string(&FetchSearchPage {
            query: query.clone(),
        })
        .unwrap();
        let back: FetchSearchPage = serde_qs::Config::new(5, false)
            .deserialize_str(&qs)
            .unwrap();
        assert_eq!(back.query, query, "{qs}");
    }
}
