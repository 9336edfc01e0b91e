//! The address service (spec 001 §7: `/api/address/v1` GET list, GET `{id}`, POST, PUT,
//! DELETE `{id}`, GET favourite) and the post-sales configuration call that gives a site's
//! `addressFieldSpecificities`. Every id is looked up among the signed-in member's own
//! addresses: another member's id is a 404 like an id that never existed.
use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::address::error::AddressError;
use app::address::model::*;
use app::address::rules::specificities;
use app::address::service::{self, Owner};
use app::model::error::{ErrorBody, WireError};
use app::platform::session::SessionMember;

use super::extract::{Path, SignedIn, SiteId};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(list_addresses, create_address, update_address))
        .routes(routes!(favourite_address))
        .routes(routes!(get_address, delete_address))
        .routes(routes!(postsales_features))
}

/// A refused address call: the address service's body, in the member's language too.
pub struct AddressRefusal {
    status: StatusCode,
    body: AddressErrorBody,
}

impl AddressRefusal {
    fn new(e: AddressError, lang: &str, what: &'static str) -> AddressRefusal {
        if let Some(cause) = e.cause() {
            // The cause only: the address itself stays out of the logs.
            tracing::error!(error = %cause, "{what}");
        }
        AddressRefusal {
            status: StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            body: e.address_body(lang),
        }
    }
}

impl IntoResponse for AddressRefusal {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

type Answer<T> = Result<T, AddressRefusal>;

/// The member's language: their site's, whichever site's page made the call.
fn lang(m: &SessionMember) -> &'static str {
    app::site::by_id(m.site_id).map_or(app::site::i18n::FALLBACK_LANG, |s| s.lang)
}

fn owner(m: &SessionMember) -> Owner {
    Owner {
        member_id: m.member_id,
        site_id: m.site_id,
    }
}

/// Ids we hand out are positive integers; anything else is no address of the member's.
fn parse_id(raw: &str) -> Result<i64, AddressError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or(AddressError::NotFound)
}

/// The body must be a JSON object; fields it lacks count as empty (and are named).
fn parse_body(body: &str) -> Result<AddressRequest, AddressError> {
    let value: serde_json::Value =
        serde_json::from_str(body).map_err(|_| AddressError::Unreadable)?;
    if !value.is_object() {
        return Err(AddressError::Unreadable);
    }
    serde_json::from_value(value).map_err(|_| AddressError::Unreadable)
}

/// The member's addresses, oldest first; the favourite has `isFavorite`.
#[utoipa::path(get, path = "/api/address/v1", tag = "address",
    responses((status = 200, body = AddressList), (status = 401, body = ErrorBody),
        (status = 500, body = AddressErrorBody)))]
async fn list_addresses(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Answer<Json<AddressList>> {
    service::list(&app.state.db, owner(&m))
        .await
        .map(|addresses| Json(AddressList { addresses }))
        .map_err(|e| AddressRefusal::new(e, lang(&m), "address list failed"))
}

/// The address checkout takes by default: the favourite, else the first (404 when the
/// member has none).
#[utoipa::path(get, path = "/api/address/v1/favorite", tag = "address",
    responses((status = 200, body = Address), (status = 404, body = AddressErrorBody),
        (status = 401, body = ErrorBody)))]
async fn favourite_address(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Answer<Json<Address>> {
    service::favourite(&app.state.db, owner(&m))
        .await
        .map(Json)
        .map_err(|e| AddressRefusal::new(e, lang(&m), "favourite address failed"))
}

/// One of the member's addresses.
#[utoipa::path(get, path = "/api/address/v1/{id}", tag = "address",
    params(("id" = String, Path, description = "the address id")),
    responses((status = 200, body = Address), (status = 404, body = AddressErrorBody),
        (status = 401, body = ErrorBody)))]
async fn get_address(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(id): Path<String>,
) -> Answer<Json<Address>> {
    let what = "address lookup failed";
    let id = parse_id(&id).map_err(|e| AddressRefusal::new(e, lang(&m), what))?;
    service::get(&app.state.db, owner(&m), id)
        .await
        .map(Json)
        .map_err(|e| AddressRefusal::new(e, lang(&m), what))
}

/// Adds an address (the member's first becomes their favourite). Refused input answers 400
/// with the faulty fields (`errors`: `field_type`, `error_type`) and the message the spec's
/// rule picks (`error_description`), and stores nothing.
#[utoipa::path(post, path = "/api/address/v1", tag = "address",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = AddressRequest,
    responses((status = 201, body = Address), (status = 400, body = AddressErrorBody),
        (status = 401, body = ErrorBody), (status = 500, body = AddressErrorBody)))]
async fn create_address(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    body: String,
) -> Answer<(StatusCode, Json<Address>)> {
    let what = "address save failed";
    let req = parse_body(&body).map_err(|e| AddressRefusal::new(e, lang(&m), what))?;
    service::create(&app.state.db, owner(&m), &req, app::platform::state::now())
        .await
        .map(|a| (StatusCode::CREATED, Json(a)))
        .map_err(|e| AddressRefusal::new(e, lang(&m), what))
}

/// Changes one of the member's addresses, named by `id` in the body. `isFavorite: true`
/// makes it the favourite, `false` leaves the member without one, absent keeps it as is.
#[utoipa::path(put, path = "/api/address/v1", tag = "address",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = AddressRequest,
    responses((status = 200, body = Address), (status = 400, body = AddressErrorBody),
        (status = 404, body = AddressErrorBody), (status = 401, body = ErrorBody)))]
async fn update_address(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    body: String,
) -> Answer<Json<Address>> {
    let what = "address save failed";
    let req = parse_body(&body).map_err(|e| AddressRefusal::new(e, lang(&m), what))?;
    let Some(id) = req.id else {
        return Err(AddressRefusal::new(
            AddressError::Unreadable,
            lang(&m),
            what,
        ));
    };
    service::update(
        &app.state.db,
        owner(&m),
        id,
        &req,
        app::platform::state::now(),
    )
    .await
    .map(Json)
    .map_err(|e| AddressRefusal::new(e, lang(&m), what))
}

/// Deletes one of the member's addresses for good; orders keep their own copy.
#[utoipa::path(delete, path = "/api/address/v1/{id}", tag = "address",
    params(("id" = String, Path, description = "the address id"), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 204, description = "deleted"), (status = 404, body = AddressErrorBody),
        (status = 401, body = ErrorBody)))]
async fn delete_address(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(id): Path<String>,
) -> Answer<StatusCode> {
    let what = "address delete failed";
    let id = parse_id(&id).map_err(|e| AddressRefusal::new(e, lang(&m), what))?;
    service::delete(&app.state.db, owner(&m), id)
        .await
        .map(|_| StatusCode::NO_CONTENT)
        .map_err(|e| AddressRefusal::new(e, lang(&m), what))
}

#[derive(Deserialize, Default, utoipa::IntoParams)]
#[serde(default)]
struct FeaturesQuery {
    /// `postsales-web` (the only target served).
    target: Option<String>,
    /// `address-specificities` (the only feature served).
    feature: Option<String>,
}

/// The post-sales web features of a site (`siteId` query or header, else the request's
/// site): `configurationDetails.addressFieldSpecificities` (its delivery countries with
/// their zip code formats and excluded codes, the phone grouping, required fields, lengths).
#[utoipa::path(get, path = "/api/postsales/config/v1/features", tag = "address",
    params(FeaturesQuery, ("siteId" = Option<u16>, Query)),
    responses((status = 200, body = PostsalesFeatures), (status = 404, body = ErrorBody)))]
async fn postsales_features(
    SiteId(site_id): SiteId,
    RawQuery(query): RawQuery,
) -> Result<Json<PostsalesFeatures>, super::error::ApiError> {
    // An unreadable query is no feature we serve, not a plain-text rejection.
    let q: FeaturesQuery = serde_urlencoded::from_str(query.as_deref().unwrap_or(""))
        .map_err(|_| super::error::ApiError::NotFound)?;
    let target = q.target.unwrap_or_else(|| "postsales-web".into());
    let feature_ok = q
        .feature
        .as_deref()
        .is_none_or(|f| f == "address-specificities");
    if target != "postsales-web" || !feature_ok {
        return Err(super::error::ApiError::NotFound);
    }
    Ok(Json(PostsalesFeatures {
        site_id,
        target,
        configuration_details: ConfigurationDetails {
            address_field_specificities: specificities(site_id),
        },
    }))
}
