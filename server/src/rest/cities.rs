//! Cities by zip code (spec 000 §7, without shape): the places a zip code of
//! the site's country names, from tables bundled with the server (GeoNames, CC BY 4.0;
//! `scripts/postcodes.py` builds them), so no outside service is asked. The registration
//! and address forms offer them (`frontend-react/src/pages/zip-city.ts`).
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use axum::Json;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::model::address::CitiesByZipCode;
use app::model::error::ErrorBody;

use super::error::ApiError;
use super::extract::{Params, SiteId};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new().routes(routes!(cities_call))
}

/// The longest zip code any of the sites' countries writes, with its spaces.
const MAX_ZIP_CHARS: usize = 10;

/// A country's table as bundled: `code<TAB>place|place` per line.
fn table_text(country: &str) -> Option<&'static str> {
    Some(match country {
        "FR" => include_str!("../../data/postcodes/fr.tsv"),
        "DE" => include_str!("../../data/postcodes/de.tsv"),
        "ES" => include_str!("../../data/postcodes/es.tsv"),
        "IT" => include_str!("../../data/postcodes/it.tsv"),
        "AT" => include_str!("../../data/postcodes/at.tsv"),
        "BE" => include_str!("../../data/postcodes/be.tsv"),
        "LU" => include_str!("../../data/postcodes/lu.tsv"),
        "NL" => include_str!("../../data/postcodes/nl.tsv"),
        _ => return None,
    })
}

type Table = HashMap<&'static str, Vec<&'static str>>;

/// A country's table, parsed on first use (the French one is 20,000 codes).
fn table(country: &str) -> Option<&'static Table> {
    static TABLES: OnceLock<HashMap<&'static str, OnceLock<Table>>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        ["FR", "DE", "ES", "IT", "AT", "BE", "LU", "NL"]
            .into_iter()
            .map(|c| (c, OnceLock::new()))
            .collect()
    });
    let (key, cell) = tables.get_key_value(country)?;
    let text = table_text(key)?;
    Some(cell.get_or_init(|| {
        text.lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(code, places)| (code, places.split('|').collect()))
            .collect()
    }))
}

/// The key a code is looked up by in a country's table: spaces gone, upper case, a
/// Luxembourg `L-` dropped, and only the four digits of a Dutch "1234 AB" (the table has
/// the four-digit areas).
pub fn lookup_key(country: &str, zip: &str) -> String {
    let compact: String = zip
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_uppercase)
        .collect();
    match country {
        "LU" => compact.trim_start_matches("L-").to_string(),
        "NL" => compact.chars().take(4).collect(),
        _ => compact,
    }
}

/// The places of a zip code in a country, in the table's order.
pub fn cities(country: &str, zip: &str) -> Vec<String> {
    let key = lookup_key(country, zip);
    table(country)
        .and_then(|t| t.get(key.as_str()))
        .map(|places| places.iter().map(|p| p.to_string()).collect())
        .unwrap_or_default()
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct CitiesParams {
    /// The zip code as typed (at most 10 characters).
    zip_code: Option<String>,
    /// The country (ISO 3166 alpha-2) when the form lets the member choose one; else the
    /// site's.
    country: Option<String>,
    /// Site; defaults to the `x-vp-siteid` header, then the request's site.
    #[param(value_type = Option<u16>)]
    #[allow(dead_code)]
    site_id: Option<String>,
}

/// The places a zip code of the site's country names (empty when unknown).
#[utoipa::path(get, path = "/api/members/v1/cities", tag = "members",
    params(CitiesParams),
    responses((status = 200, body = CitiesByZipCode), (status = 400, body = ErrorBody)))]
async fn cities_call(
    SiteId(site_id): SiteId,
    Params(q): Params<CitiesParams>,
) -> Result<Json<CitiesByZipCode>, ApiError> {
    let zip = q.zip_code.unwrap_or_default();
    let zip = zip.trim();
    if zip.is_empty() || zip.chars().count() > MAX_ZIP_CHARS {
        return Err(ApiError::bad_request(
            "bad_zip_code",
            "auth.zipcode.invalid",
        ));
    }
    let site_country = app::site::by_id_or_default(site_id).country_code;
    let asked = q.country.unwrap_or_default().trim().to_ascii_uppercase();
    let country = if asked.is_empty() {
        site_country
    } else {
        asked.as_str()
    };
    if table_text(country).is_none() && !asked.is_empty() {
        // A country the shop has no table for: nothing to offer, the member types the city.
        return Ok(Json(CitiesByZipCode {
            zip_code: lookup_key(country, zip),
            cities: Vec::new(),
        }));
    }
    Ok(Json(CitiesByZipCode {
        zip_code: lookup_key(country, zip),
        cities: cities(country, zip),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_name_their_places_in_each_country() {
        assert!(cities("FR", "75001").contains(&"Paris".to_string()));
        assert_eq!(cities("DE", " 10115 "), vec!["Berlin"]);
        assert_eq!(cities("BE", "1000"), vec!["Bruxelles"]);
        assert_eq!(cities("NL", "1011 ab"), vec!["Amsterdam"]);
        assert_eq!(cities("LU", "L-1111"), vec!["Luxembourg"]);
        assert_eq!(lookup_key("LU", "l-1111"), "1111");
        assert!(cities("IT", "00184").contains(&"Roma".to_string()));
        assert!(!cities("ES", "28001").is_empty());
        assert!(!cities("AT", "1010").is_empty());
        assert!(cities("FR", "00000").is_empty());
        assert!(cities("XX", "75001").is_empty());
        // No French business-mail (CEDEX) place is offered.
        assert!(cities("FR", "75001")
            .iter()
            .all(|c| !c.to_uppercase().contains("CEDEX")));
    }
}
