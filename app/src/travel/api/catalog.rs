//! Server functions of the travel catalogs (offers, filters, count): thin GET reads over
//! the offers store. The site is the request's, never the query's; the member is the
//! session's.
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::model::travel::TravelOffer;
use crate::model::travel_catalog::{OfferPage, OfferQuery};
#[cfg(feature = "ssr")]
use crate::{
    context::RequestCtx,
    platform::state::{app_state, now, WireResult},
    travel::{error::TravelError, store::offers},
};

/// The facets' labels in the language of `lang` (`fr`, `de`, ...).
pub fn localize(page: &mut OfferPage, lang: &str) {
    crate::travel::rules::label_facets(
        &mut page.facets,
        |k| crate::site::i18n::lookup(lang, k).map(String::from),
        |k, args| crate::site::i18n::t_with(lang, k, args),
    );
}

/// One page of offers of a travel catalog (`campaignId`) or of a search (none), with the
/// facets labelled in the member's language.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "travel/offers")]
pub async fn fetch_offers(query: OfferQuery) -> Result<OfferPage, ServerFnError> {
    let ctx = RequestCtx::current();
    let query = OfferQuery {
        site_id: ctx.site_id,
        ..query
    };
    let mut page = offers::offers(&app_state()?.db, &query, ctx.member_id, now())
        .await
        .wire::<TravelError>()?;
    localize(&mut page, ctx.lang());
    Ok(page)
}

/// The offers of the pages before `query.page`: a page reached by the no-script "more"
/// link shows them above its own.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "travel/offers-before")]
pub async fn fetch_offers_before(query: OfferQuery) -> Result<Vec<TravelOffer>, ServerFnError> {
    let ctx = RequestCtx::current();
    let query = OfferQuery {
        site_id: ctx.site_id,
        ..query
    };
    offers::offers_before(&app_state()?.db, &query, ctx.member_id, now())
        .await
        .wire::<TravelError>()
}
