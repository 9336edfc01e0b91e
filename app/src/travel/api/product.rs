//! Server functions of the travel product page and its checkout: the product with its
//! starting configuration and calendar, and the calendar of another duration.
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;
use serde::{Deserialize, Serialize};

use crate::model::travel::{CalendarDays, TravelProduct};
use crate::travel::rules::{AgeChange, Configuration};
#[cfg(feature = "ssr")]
use crate::{
    cart::service::cart_service,
    context::RequestCtx,
    platform::state::{app_state, now, WireResult},
    travel::{error::TravelError, service::TravelService, store},
};

/// The product page's data: the product, the configuration it opens with (spec 001 §4 "On
/// load") and the calendar of that configuration's duration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TravelProductLoad {
    pub product: TravelProduct,
    pub config: Configuration,
    pub days: CalendarDays,
    /// Travellers this load moved to another type (or removed) by their age on the travel
    /// date: the configurator says it.
    pub age_changes: Vec<AgeChange>,
}

/// Opens with the product's default configuration when it names one (cheapest mode off),
/// else with cheapest mode on; `query` (the page's, as the configurator form sends it)
/// then changes it (`travel::rules::form::configure`). The calendar is the one of the
/// resolved duration, and the party's ages follow its check-in.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "travel/product")]
pub async fn fetch_travel_product(
    campaign_id: i64,
    product_id: i64,
    query: String,
) -> Result<Option<TravelProductLoad>, ServerFnError> {
    use crate::travel::rules::{
        active_checkin,
        form::{configure, field},
        query_pairs,
    };
    let ctx = RequestCtx::current();
    let service = TravelService::new(cart_service()?);
    let pairs: Vec<_> = query_pairs(&query).into_iter().take(64).collect();
    // A change sent by the configurator form (it carries what the page showed) is the same
    // visit: it does not record the product as viewed again.
    let same_visit = pairs.iter().any(|(k, _)| k.starts_with(field::SHOWN));
    let found = if same_visit {
        service
            .product(ctx.site_id, campaign_id, product_id, ctx.member_id, now())
            .await
    } else {
        service
            .view_product(ctx.site_id, campaign_id, product_id, ctx.member_id, now())
            .await
    };
    let product = match found {
        Ok(p) => p,
        Err(TravelError::NotFound) => return Ok(None),
        Err(e) => return Err(e).wire::<TravelError>(),
    };
    let with_defaults = product.default_configuration.package_id.is_some();
    let start = Configuration::initial(&product, with_defaults);
    let mut config = configure(
        &product,
        start,
        |k| {
            pairs
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
        },
        |k| {
            pairs
                .iter()
                .filter(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
                .collect()
        },
    );
    let days = match initial_duration(&product, &config) {
        Some(id) => store::duration_calendar(&app_state()?.db, id, now())
            .await
            .wire::<TravelError>()?
            .unwrap_or_default(),
        None => CalendarDays::new(),
    };
    let mut age_changes = Vec::new();
    if let (Some(day), Some(package)) = (
        active_checkin(&config, &days).map(str::to_string),
        config.package(&product),
    ) {
        let profiles = package.configurator.participants.profiles.clone();
        age_changes = config.adjust_ages(&day, &profiles);
    }
    Ok(Some(TravelProductLoad {
        product,
        config,
        days,
        age_changes,
    }))
}

#[cfg(feature = "ssr")]
fn initial_duration(product: &TravelProduct, config: &Configuration) -> Option<i64> {
    let package = config.package(product)?;
    crate::travel::rules::active_duration(package, config).map(|d| d.id)
}

/// What the checkout shows and sends: the configuration read from the URL, resolved
/// against the product, priced, and what (if anything) blocks it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckoutLoad {
    pub campaign_id: i64,
    pub product_id: i64,
    pub title: String,
    pub destination: String,
    pub image: String,
    pub package_id: i64,
    pub package_title: String,
    pub city_id: i64,
    pub city: String,
    pub days: u32,
    pub nights: u32,
    pub checkin: String,
    pub checkout: String,
    pub participants: Vec<crate::model::travel::Participant>,
    pub profiles: Vec<crate::model::travel::ParticipantProfile>,
    pub benefits: Vec<(i64, String, i64)>,
    pub per_person: i64,
    pub total: i64,
    /// What blocks the booking: the field it is about and the message (an empty address
    /// book is `addressId`, see [`crate::travel::rules::checkout_blocks`]).
    pub blocks: Vec<(String, String)>,
}

/// The checkout of a configuration given as the product page's checkout query
/// (`travel::rules::checkout_query`). `None` for an unknown product or package.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "travel/checkout")]
pub async fn fetch_travel_checkout(
    campaign_id: i64,
    product_id: i64,
    query: String,
) -> Result<Option<CheckoutLoad>, ServerFnError> {
    use crate::travel::rules::{
        active_checkin, active_city, active_duration, booking_total, checkout_blocks,
        checkout_date, parse_checkout_query, quotation_price,
    };
    let ctx = RequestCtx::current();
    let service = TravelService::new(cart_service()?);
    let product = match service
        .product(ctx.site_id, campaign_id, product_id, ctx.member_id, now())
        .await
    {
        Ok(p) => p,
        Err(TravelError::NotFound) => return Ok(None),
        Err(e) => return Err(e).wire::<TravelError>(),
    };
    let pairs: Vec<(String, String)> = query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let config = parse_checkout_query(|k| {
        pairs
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    });
    let Some(package) = config.package(&product) else {
        return Ok(None);
    };
    let city = active_city(package, &config);
    let duration = active_duration(package, &config);
    let days = match duration {
        Some(d) => store::duration_calendar(&app_state()?.db, d.id, now())
            .await
            .wire::<TravelError>()?
            .unwrap_or_default(),
        None => CalendarDays::new(),
    };
    let has_address = match ctx.member_id {
        Some(member_id) => {
            let mut conn = app_state()?.db.pool.acquire().await.wire::<TravelError>()?;
            crate::address::store::count(&mut conn, member_id)
                .await
                .wire::<TravelError>()?
                > 0
        }
        None => false,
    };
    let blocks = checkout_blocks(&product, &config, &days, has_address)
        .into_iter()
        .map(|b| {
            let (key, args) = b.message(&config.participants);
            let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            (b.field(), ctx.t_with(key, &args))
        })
        .collect();
    let per_person = quotation_price(&product, &config, &days);
    let chosen: Vec<_> = package
        .configurator
        .benefits
        .iter()
        .filter(|b| config.benefits.contains(&b.id))
        .collect();
    let total = booking_total(
        per_person,
        config.counts(),
        &package.configurator.participants.profiles,
        &chosen,
    );
    let checkin = active_checkin(&config, &days)
        .unwrap_or_default()
        .to_string();
    let checkout = duration
        .and_then(|d| checkout_date(&checkin, d.day))
        .unwrap_or_default();
    Ok(Some(CheckoutLoad {
        campaign_id,
        product_id,
        title: product.title.clone(),
        destination: product.destination.clone(),
        image: product.image.clone(),
        package_id: package.id,
        package_title: package.title.clone(),
        city_id: city.map(|c| c.id).unwrap_or_default(),
        city: city.map(|c| c.value.clone()).unwrap_or_default(),
        days: duration.map(|d| d.day).unwrap_or_default(),
        nights: duration.map(|d| d.night).unwrap_or_default(),
        checkin,
        checkout,
        participants: config.participants.clone(),
        profiles: package.configurator.participants.profiles.clone(),
        benefits: chosen
            .iter()
            .map(|b| (b.id, b.label.clone(), b.price))
            .collect(),
        per_person,
        total,
        blocks,
    }))
}
