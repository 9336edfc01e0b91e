//! Travel offers of the catalogs and the search: filters, paging, count, facets.
//!
//! A site has a few travel sales of a few dozen offers each, so the offers of the live
//! travel sales in scope (one sale, or all for a search) are read in four plain queries and
//! filtered here: the date rules (a season's weekdays inside a window) and the facet counts
//! ("how many if this value were added", each facet counted without its own filter) are
//! rules over seasons that SQL would only make unportable.
mod load;
mod select;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use sqlx::Row;

use crate::model::travel::TravelOffer;
use crate::model::travel_catalog::{OfferPage, OfferQuery, OFFERS_PAGE_SIZE};
use crate::platform::db::Db;
use crate::platform::sql::live_window;
use crate::travel::rules::known_filters;

use load::{candidates, destinations};
use select::{facets, passes, search_days_ok, Candidate, Search};

/// A live travel sale of the site: what its catalog's heading and features need.
#[derive(Clone, Debug, PartialEq)]
pub struct Campaign {
    pub id: i64,
    pub name: String,
    pub with_map: bool,
    pub with_quotation_price: bool,
}

/// The live travel sale `campaign_id` of the site, or `None`.
pub async fn campaign(
    db: &Db,
    site_id: u16,
    campaign_id: i64,
    now: i64,
) -> Result<Option<Campaign>, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT s.id, s.name, s.with_map, s.with_quotation_price FROM sales s
          WHERE s.id = $1 AND s.site_id = $2 AND s.campaign_kind = 'TRAVEL' AND {}",
        live_window("$3")
    ))
    .bind(campaign_id)
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok(Campaign {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            with_map: r.try_get::<i64, _>("with_map")? != 0,
            with_quotation_price: r.try_get::<i64, _>("with_quotation_price")? != 0,
        })
    })
    .transpose()
}

async fn favourites(db: &Db, member_id: Option<i64>) -> Result<HashSet<i64>, sqlx::Error> {
    Ok(crate::catalog::store::all_favourite_ids(db, member_id)
        .await?
        .into_iter()
        .collect())
}

/// One page of offers (`query.page`, 0-based, [`OFFERS_PAGE_SIZE`] per page) of the live
/// travel sales of the site in scope, with the total, the facets of the whole selection
/// and the member's favourites. For a campaign that is not a live travel sale of the site
/// the page is empty and `campaign_name` is `None`.
pub async fn offers(
    db: &Db,
    query: &OfferQuery,
    member_id: Option<i64>,
    now: i64,
) -> Result<OfferPage, sqlx::Error> {
    let size = OFFERS_PAGE_SIZE as usize;
    offers_range(db, query, member_id, now, query.page as usize * size, size).await
}

/// The offers of pages `0..query.page`: what a page reached without scripts shows above
/// its own offers. The page fields are those of the query's page.
pub async fn offers_before(
    db: &Db,
    query: &OfferQuery,
    member_id: Option<i64>,
    now: i64,
) -> Result<Vec<TravelOffer>, sqlx::Error> {
    let size = OFFERS_PAGE_SIZE as usize;
    Ok(
        offers_range(db, query, member_id, now, 0, query.page as usize * size)
            .await?
            .offers,
    )
}

async fn offers_range(
    db: &Db,
    query: &OfferQuery,
    member_id: Option<i64>,
    now: i64,
    offset: usize,
    limit: usize,
) -> Result<OfferPage, sqlx::Error> {
    let campaign = match query.campaign_id {
        Some(id) => campaign(db, query.site_id, id, now).await?,
        None => None,
    };
    let mut page = OfferPage {
        offers: vec![],
        total: 0,
        page: query.page,
        page_size: OFFERS_PAGE_SIZE,
        facets: vec![],
        campaign_name: campaign.as_ref().map(|c| c.name.clone()),
        with_map: campaign.as_ref().is_some_and(|c| c.with_map),
    };
    if query.campaign_id.is_some() && campaign.is_none() {
        return Ok(page);
    }
    // Facets count over the search (destination, city, dates) but not over themselves.
    let search = Search::of(query, now);
    let places = destinations(db, query.site_id).await?;
    let all = candidates(db, query, now).await?;
    let undated = Search {
        days: None,
        ..Search::of(query, now)
    };
    let in_scope: Vec<Candidate> = all
        .into_iter()
        .filter(|c| undated.matches(c, &places))
        .collect();
    page.facets = facets(&in_scope, query, &search);
    let filters = known_filters(query);
    let matching: Vec<&Candidate> = in_scope
        .iter()
        .filter(|c| search_days_ok(&search, c) && passes(c, &filters, None))
        .collect();
    if query.campaign_id.is_none() {
        page.with_map = matching.iter().any(|c| c.with_map);
    }
    page.total = matching.len() as u32;
    let favourites = favourites(db, member_id).await?;
    page.offers = matching
        .into_iter()
        .skip(offset)
        .take(limit)
        .map(|c| TravelOffer {
            favorite: favourites.contains(&c.offer.id),
            ..c.offer.clone()
        })
        .collect();
    Ok(page)
}

/// How many offers match the query (0 for a campaign that is not a live travel sale).
pub async fn count(db: &Db, query: &OfferQuery, now: i64) -> Result<u32, sqlx::Error> {
    Ok(offers_range(db, query, None, now, 0, 0).await?.total)
}
