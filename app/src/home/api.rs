//! Home server functions: the live sales of a site and a home page (GET reads).
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::home::{error::HomeError, rules, store};
use crate::model::catalog::SaleCard;
use crate::model::home::Home;
#[cfg(feature = "ssr")]
use crate::platform::state::{app_state, now, shared, WireResult};

/// Which home to load: its name, the reduced variant, a preview day (`YYYY-MM-DD` or "").
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HomePageQuery {
    pub site_id: u16,
    pub name: String,
    #[serde(default)]
    pub reduced: bool,
    #[serde(default)]
    pub preview_date: String,
}

/// What the home page gets: the home (none: unknown), the server's clock for the first
/// countdown values, or a refused preview date.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HomeLoad {
    pub home: Option<Home>,
    pub now: i64,
    pub bad_date: bool,
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "home/sales")]
pub async fn home_sales(site_id: u16) -> Result<Vec<SaleCard>, ServerFnError> {
    let state = app_state()?;
    let cache = shared::<store::HomeCache>()?;
    store::live_sales_cached(&state.db, &cache, site_id, now())
        .await
        .wire::<HomeError>()
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "home/page")]
pub async fn fetch_home(query: HomePageQuery) -> Result<HomeLoad, ServerFnError> {
    let HomePageQuery {
        site_id,
        name,
        reduced,
        preview_date,
    } = query;
    let state = app_state()?;
    let preview_at = crate::context::RequestCtx::current().preview_at;
    let now = preview_at.unwrap_or_else(now);
    let cache = shared::<store::HomeCache>()?;
    // Ignored unless the server allows previews (review L6).
    let preview_date = cache
        .preview_date(Some(preview_date.as_str()))
        .map(str::to_string);
    let preview_day = match preview_date.as_deref().map(rules::parse_preview_date) {
        None => None,
        Some(Some(day)) => Some(day),
        Some(None) => {
            return Ok(HomeLoad {
                home: None,
                now,
                bad_date: true,
            })
        }
    };
    let q = store::HomeQuery {
        key: name,
        reduced,
        preview_day,
        preview_date: preview_day.and(preview_date),
        skip_mobile_check: false,
    };
    // An operator's preview is rendered for them alone: never from or into the cache.
    let home = match preview_at {
        Some(_) => store::home(&state.db, site_id, &q, now).await,
        None => store::home_cached(&state.db, &cache, site_id, &q, now).await,
    }
    .wire::<HomeError>()?;
    Ok(HomeLoad {
        home,
        now,
        bad_date: false,
    })
}
