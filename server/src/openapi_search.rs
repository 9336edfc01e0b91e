//! OpenAPI paths of the search calls (spec 000 §7 Search, issue #4).
use serde_json::{json, Value};

fn query(name: &str, ty: &str, description: &str) -> Value {
    json!({ "name": name, "in": "query", "schema": { "type": ty }, "description": description })
}

pub fn paths() -> Value {
    let too_long = json!({ "description": "query longer than 200 characters: {error_code: query_too_long, error_description: search.errors.too_long}" });
    let not_signed_in =
        json!({ "description": "not signed in: {error_code: unauthorized, error_description}" });
    let site = query(
        "siteId",
        "integer",
        "site; defaults to the x-vp-siteid header, then the request's site",
    );
    json!({
        "/api/catalog/v8/search/items": { "get": {
            "summary": "Products of the site's live sales matching q (typo-tolerant full text in the site's language), filtered, sorted (relevance unless sort) and paged. Records q in the member's recent queries at offset 0.",
            "parameters": [
                query("q", "string", "search text, at most 200 characters"), site,
                query("offset", "integer", "clamped to 0..1000000"), query("limit", "integer", "clamped to 1..96, default 48"),
                query("sort", "string", "price_asc, price_desc or discount"),
                query("brand", "string", "comma-separated brand slugs"), query("color", "string", "comma-separated colours"),
                query("size", "string", "comma-separated sizes in stock")
            ],
            "responses": {
                "200": { "description": "{searchTerm, products: [CatalogItem], totalProductsCount, currentPage, offset, limit, sales: [{id, name, url}]}" },
                "400": too_long
            }
        } },
        "/api/catalog/v4/search/filters": { "get": {
            "summary": "Filters of the products matching q, with counts (the catalog filters' shape)",
            "parameters": [query("q", "string", "search text"), site],
            "responses": {
                "200": { "description": "{searchTerm, filters: [{id, type, labelKey, options: [{id, label, slug, count}]}]}" },
                "400": too_long
            }
        } },
        "/api/catalog/v1/search/suggestions": { "get": {
            "summary": "Suggestions while typing: history (the member's matching recent queries; all of them for an empty query), autocompletion, salesbanner (matching live sales), regular (matching products), generic (search for the query)",
            "parameters": [
                query("query", "string", "what is typed"), site,
                { "name": "x-vp-device", "in": "header", "schema": { "type": "string", "enum": ["web", "webapp"] }, "description": "webapp gets fewer products" }
            ],
            "responses": {
                "200": { "description": "{query, suggestions: [{kind: regular|autocompletion|history|generic|salesbanner, label, url, id?}]}" },
                "400": { "description": "query too long or unknown device" }
            }
        } },
        "/api/catalog/v1/search/recent": { "get": {
            "summary": "The member's last 10 distinct queries on the site, newest first",
            "parameters": [site],
            "responses": { "200": { "description": "{recentQueries: [{id, query, createdAt}]}" }, "401": not_signed_in }
        } },
        "/api/catalog/v1/search/recent/{id}": { "delete": {
            "summary": "Delete one of the member's recent queries (X-XSRF-TOKEN header required)",
            "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
            "responses": {
                "204": { "description": "deleted" }, "401": not_signed_in,
                "403": { "description": "missing or wrong XSRF token" },
                "404": { "description": "not one of the member's recent queries" }
            }
        } }
    })
}
