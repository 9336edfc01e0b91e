//! Travel catalogue addresses (spec 001 §2): the catalogue's query string, its default
//! state and page, and the link to a travel catalog.
use crate::routes::encode_query_value;

/// Query keys the catalogue path already carries (or that belong to a product page).
const PATH_KEYS: [&str; 3] = ["campaignId", "universeId", "productId"];

/// A value of the catalogue's filter state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryValue {
    One(String),
    /// Written comma-joined (`board=ai,hb`), each element encoded on its own so a comma
    /// inside one stays `%2C`; the catalogue reads it back by splitting on commas.
    Many(Vec<String>),
}

/// The query string of a catalogue state, `?`-prefixed (empty when nothing is left):
/// `campaignId`, `universeId` and `productId` are dropped, empty strings, empty lists and
/// empty list items too; other values keep their order.
pub fn catalogue_query(params: &[(&str, QueryValue)]) -> String {
    let pairs: Vec<String> = params
        .iter()
        .filter(|(key, _)| !key.is_empty() && !PATH_KEYS.contains(key))
        .filter_map(|(key, value)| {
            let value = match value {
                QueryValue::One(v) => encode_query_value(v),
                QueryValue::Many(vs) => vs
                    .iter()
                    .filter(|v| !v.is_empty())
                    .map(|v| encode_query_value(v))
                    .collect::<Vec<_>>()
                    .join(","),
            };
            (!value.is_empty()).then(|| format!("{}={value}", encode_query_value(key)))
        })
        .collect();
    if pairs.is_empty() {
        String::new()
    } else {
        format!("?{}", pairs.join("&"))
    }
}

/// `/t/c/{campaignId}[/{universeId}]` with the [`catalogue_query`] of the state.
pub fn catalogue_url(
    campaign_id: i64,
    universe_id: Option<i64>,
    params: &[(&str, QueryValue)],
) -> String {
    let universe = universe_id.map(|u| format!("/{u}")).unwrap_or_default();
    format!("/t/c/{campaign_id}{universe}{}", catalogue_query(params))
}

/// `dc=0` marks the default catalogue state.
pub fn is_default_catalogue(get: impl Fn(&str) -> Option<String>) -> bool {
    get("dc").as_deref() == Some("0")
}

/// The `page` query parameter, 1-based (1 when absent or not a positive number).
pub fn catalogue_page(get: impl Fn(&str) -> Option<String>) -> u32 {
    get("page")
        .and_then(|p| p.parse().ok())
        .filter(|p| *p >= 1)
        .unwrap_or(1)
}

/// The link of a travel catalog: the given url as is, else `/catalog/{slug}`, else
/// `/t/c/{id}` (blank url or slug count as absent, and so does a slug the routes do not
/// take, such as one with capitals or spaces: its link would lead nowhere).
pub fn catalog_link(url: Option<&str>, slug: Option<&str>, id: i64) -> String {
    fn present(s: Option<&str>) -> Option<&str> {
        s.map(str::trim).filter(|s| !s.is_empty())
    }
    match (
        present(url),
        present(slug).filter(|s| crate::routes::is_slug(s)),
    ) {
        (Some(url), _) => url.to_string(),
        (None, Some(slug)) => format!("/catalog/{slug}"),
        (None, None) => format!("/t/c/{id}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(v: &str) -> QueryValue {
        QueryValue::One(v.into())
    }

    fn many(vs: &[&str]) -> QueryValue {
        QueryValue::Many(vs.iter().map(|v| v.to_string()).collect())
    }

    #[test]
    fn the_query_drops_path_keys_and_keeps_strings_and_lists() {
        let params = [
            ("campaignId", one("300")),
            ("checkin", one("060327")),
            ("universeId", one("2")),
            ("board", many(&["ai", "hb"])),
            ("productId", one("9")),
            ("location", one("Côte d'Azur")),
            ("thematics", many(&["a,b", "", "c"])),
            ("dc", one("0")),
            ("page", one("2")),
        ];
        assert_eq!(
            catalogue_query(&params),
            "?checkin=060327&board=ai,hb&location=C%C3%B4te%20d%27Azur&thematics=a%2Cb,c&dc=0&page=2"
        );
        assert_eq!(
            catalogue_url(300, Some(2), &params[..2]),
            "/t/c/300/2?checkin=060327"
        );
        assert_eq!(catalogue_url(300, None, &[]), "/t/c/300");
    }

    #[test]
    fn empty_values_leave_no_query() {
        let params = [
            ("campaignId", one("300")),
            ("board", many(&[])),
            ("flex", one("")),
            ("thematics", many(&["", ""])),
        ];
        assert_eq!(catalogue_query(&params), "");
    }

    #[test]
    fn default_state_and_page_come_from_the_query() {
        let q = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(is_default_catalogue(q(&[("dc", "0")])));
        assert!(!is_default_catalogue(q(&[("dc", "1")])));
        assert!(!is_default_catalogue(q(&[])));
        assert_eq!(catalogue_page(q(&[("page", "3")])), 3);
        assert_eq!(catalogue_page(q(&[("page", "0")])), 1);
        assert_eq!(catalogue_page(q(&[("page", "x")])), 1);
        assert_eq!(catalogue_page(q(&[])), 1);
    }

    #[test]
    fn catalog_link_prefers_url_then_slug_then_id() {
        assert_eq!(
            catalog_link(Some("/t/c/300/2"), Some("sun"), 300),
            "/t/c/300/2"
        );
        assert_eq!(
            catalog_link(None, Some("sun-and-sea"), 300),
            "/catalog/sun-and-sea"
        );
        assert_eq!(catalog_link(Some(" "), Some("sun"), 300), "/catalog/sun");
        assert_eq!(catalog_link(None, None, 300), "/t/c/300");
        assert_eq!(catalog_link(Some(""), Some(""), 300), "/t/c/300");
        assert_eq!(catalog_link(None, Some("Sun and sea"), 300), "/t/c/300");
        assert_eq!(catalog_link(None, Some("2024"), 300), "/t/c/300");
    }
}
