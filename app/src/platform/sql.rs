//! SQL fragments several stores share, written once. Every query uses `$N` placeholders
//! over `sqlx::Any` (one text for SQLite and PostgreSQL).
use crate::platform::db::Backend;

/// A sale `s` of site `$1` that is live at time `$2` (started, not ended) and an ordinary
/// (`DEFAULT`) campaign: what the catalog lists, search indexes and the sitemap shows.
pub const LIVE_SALE: &str =
    "s.site_id = $1 AND s.starts_at <= $2 AND s.ends_at > $2 AND s.campaign_kind = 'DEFAULT'";

/// [`shown`] for a product aliased `p`, as a literal for static (`concat!`) queries.
macro_rules! shown_p {
    () => {
        "p.moderation IN ('', 'restricted')"
    };
}
pub(crate) use shown_p;

/// A product `alias` members may see in its sale: not disabled or removed by a moderator
/// (`backoffice::moderation`); a restricted one stays in its sale.
pub fn shown(alias: &str) -> String {
    format!("{alias}.{}", shown_p!().trim_start_matches("p."))
}

/// A product `alias` search and the brand lists may propose: no moderation decision
/// touches it (a restricted product is demoted out of them).
pub fn proposed(alias: &str) -> String {
    format!("{alias}.moderation = ''")
}

/// The live window alone, for a sale `s` at the placeholder `now` (`"$4"`), for queries
/// whose parameters are numbered differently or that accept every campaign kind.
pub fn live_window(now: &str) -> String {
    format!("s.starts_at <= {now} AND s.ends_at > {now}")
}

/// `column IN` a list of ids bound as one parameter `$1` (see [`ids`]): a batch's ids in one
/// SQL text whatever their number, so the statement is prepared once per connection.
pub fn in_ids(backend: Backend, column: &str) -> String {
    match backend {
        Backend::Postgres => format!("{column} = ANY(CAST($1 AS BIGINT[]))"),
        Backend::Sqlite => format!("{column} IN (SELECT value FROM json_each($1))"),
    }
}

/// The parameter of [`in_ids`].
pub fn ids(backend: Backend, ids: &[i64]) -> String {
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    match backend {
        Backend::Postgres => format!("{{{list}}}"),
        Backend::Sqlite => format!("[{list}]"),
    }
}

/// `column IN` a list of hexadecimal keys (token hashes) bound as one parameter `$1` (see
/// [`hex_keys`]): [`in_ids`] for text keys.
pub fn in_hex_keys(backend: Backend, column: &str) -> String {
    match backend {
        Backend::Postgres => format!("{column} = ANY(CAST($1 AS TEXT[]))"),
        Backend::Sqlite => format!("{column} IN (SELECT value FROM json_each($1))"),
    }
}

/// The parameter of [`in_hex_keys`]. Keys that are not plain hexadecimal are left out: they
/// would need quoting in both list syntaxes, and no stored hash is anything else.
pub fn hex_keys<'a>(backend: Backend, keys: impl IntoIterator<Item = &'a str>) -> String {
    let keys: Vec<&str> = keys
        .into_iter()
        .filter(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_hexdigit()))
        .collect();
    match backend {
        Backend::Postgres => format!("{{{}}}", keys.join(",")),
        Backend::Sqlite => format!(
            "[{}]",
            keys.iter()
                .map(|k| format!("\"{k}\""))
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

/// Rows `x` with these columns (name, PostgreSQL type), from a JSON array of objects bound
/// as `$1` ([`to_json`]): a batch's row set as one parameter, `json_each` on SQLite and
/// `json_to_recordset` on PostgreSQL.
pub fn json_rows(backend: Backend, columns: &[(&str, &str)]) -> String {
    match backend {
        Backend::Postgres => {
            let cols: Vec<String> = columns.iter().map(|(c, t)| format!("{c} {t}")).collect();
            format!(
                "json_to_recordset(CAST($1 AS JSON)) AS x({})",
                cols.join(", ")
            )
        }
        Backend::Sqlite => {
            let cols: Vec<String> = columns
                .iter()
                .map(|(c, _)| format!("json_extract(value, '$.{c}') AS {c}"))
                .collect();
            format!("(SELECT {} FROM json_each($1)) AS x", cols.join(", "))
        }
    }
}

/// The parameter of [`json_rows`].
pub fn to_json<T: serde::Serialize>(rows: &T) -> Result<String, sqlx::Error> {
    serde_json::to_string(rows).map_err(|e| sqlx::Error::Encode(Box::new(e)))
}

/// What an option `o` of a product `p` costs: its own price where it has one, else its
/// product's. A macro so the cart's and the catalog's static queries share the one rule.
macro_rules! option_price {
    () => {
        "COALESCE(o.price_cents, p.price_cents)"
    };
}
pub(crate) use option_price;

#[cfg(test)]
mod tests {
    #[test]
    fn shown_is_one_rule() {
        assert_eq!(super::shown("p"), super::shown_p!());
        assert_eq!(super::shown("pr"), "pr.moderation IN ('', 'restricted')");
    }

    #[test]
    fn the_window_is_the_one_in_live_sale() {
        assert!(super::LIVE_SALE.contains(&super::live_window("$2")));
    }
}
