//! The OpenAPI document of the REST API as it exists so far. Written by hand next to the
//! handlers; a test checks that every listed path answers something other than 404.
use serde_json::{json, Value};

pub const PATHS: &[&str] = &[
    "/api/catalog/v2/sale/{saleId}",
    "/api/catalog/v1/sale/{saleId}/catalogTree",
    "/api/catalog/v2/sale/{saleId}/catalogContent/{catalogId}",
    "/api/catalog/v4/sale/{saleId}/filters/{catalogId}",
    "/api/catalog/v2/sale/{saleId}/item/{itemId}",
    "/api/catalog/v1/sale/{saleId}/item/{itemId}/options",
    "/api/catalog/v1/brands/{brandId}/items",
    "/api/catalog/v1/favorites",
    "/api/catalog/v8/search/items",
    "/api/catalog/v4/search/filters",
    "/api/catalog/v1/search/suggestions",
    "/api/catalog/v1/search/recent",
    "/api/catalog/v1/search/recent/{id}",
    "/api/content/v1/translations",
    "/api/content/v1/homes/{idOrName}",
    "/api/postsale/v1/help/dsacontactform",
    "/api/authentication/v1/members/{email}/sites/{siteId}/exists",
    "/api/authentication/v1/login",
    "/api/authentication/v1/webvalidate",
    "/api/authentication/v1/subscribe",
    "/api/authentication/v1/activate",
    "/api/authentication/v1/password/recover",
    "/api/authentication/v1/password/update",
    "/api/authentication/v1/autologin",
    "/api/authentication/v1/logout",
    "/api/openapi.json",
    "/api/cartproxy/v1",
    "/api/cartproxy/v1/items",
    "/api/cartproxy/v1/item",
    "/api/cartproxy/v1/suspend",
    "/api/cartproxy/v1/vouchers",
    "/api/cartproxy/v1/vouchers/print",
    "/api/cartproxy/v1/vouchers/{voucherId}",
    "/api/cartproxy/orderpiper/cart/v3",
    "/api/cartproxy/orderpiper/cart/v3/pay",
    "/api/cartproxy/orderpiper/cart/v3/cancel-order",
    "/api/cartproxy/orderpiper/cart/v3/recover",
    "/api/cartproxy/orderpiper/cart/v3/cancel-recovery",
    "/api/cartproxy/orderpiper/cart/v3/item",
    "/api/cartproxy/v3/loyalty-item",
    "/api/catalog/v1/waiting-line/{ticket}",
    "/api/orders/v1/orders",
    "/api/orders/v1/orders/{id}",
    "/health",
];

fn post(summary: &str, body: serde_json::Value, responses: serde_json::Value) -> serde_json::Value {
    json!({ "post": {
        "summary": summary,
        "requestBody": { "content": { "application/json": { "schema": body } } },
        "responses": responses
    } })
}

fn obj(props: &[(&str, &str)]) -> serde_json::Value {
    let mut p = serde_json::Map::new();
    for (name, ty) in props {
        p.insert(name.to_string(), json!({ "type": ty }));
    }
    json!({ "type": "object", "properties": p })
}

fn get(summary: &str, params: &[&str], ok: &str) -> serde_json::Value {
    let parameters: Vec<serde_json::Value> = params
        .iter()
        .map(|p| json!({ "name": p, "in": "path", "required": true, "schema": { "type": "integer" } }))
        .chain(std::iter::once(json!({ "name": "x-vp-siteid", "in": "header", "schema": { "type": "integer" }, "description": "site; defaults to the request's site" })))
        .collect();
    json!({ "get": { "summary": summary, "parameters": parameters, "responses": {
        "200": { "description": ok }, "404": { "description": "not a live sale of the site" } } } })
}

/// Catalog calls (spec 000 §7 Catalog).
fn catalog_paths() -> serde_json::Value {
    let mut content = get("Catalog content: a page of items of a universe (0: all)", &["saleId", "catalogId"], "{requestId, total, offset, limit, items: [{id, type, name, brand, price {value, retailValue, unit}, favorite, availability, tier, deliveryMode, sellerKind}]}");
    if let Some(params) = content["get"]["parameters"].as_array_mut() {
        for (name, ty) in [
            ("inStock", "boolean"),
            ("limit", "integer"),
            ("offset", "integer"),
            ("sort", "string"),
            ("requestId", "integer"),
            ("searchTerm", "string"),
            ("brand", "string"),
            ("color", "string"),
            ("size", "string"),
        ] {
            params.push(json!({ "name": name, "in": "query", "schema": { "type": ty } }));
        }
    }
    let favourite = json!({
        "put": { "summary": "Add a favourite (no body)", "responses": { "204": { "description": "added" }, "401": { "description": "not signed in" } } },
        "delete": { "summary": "Remove a favourite (no body)", "responses": { "204": { "description": "removed" }, "401": { "description": "not signed in" } } }
    });
    json!({
        "/api/catalog/v2/sale/{saleId}": get("Sale: name, endDate, banner, logo, description, features, legal, universes", &["saleId"], "Sale"),
        "/api/catalog/v1/sale/{saleId}/catalogTree": get("Universes and sub-universes with product ids", &["saleId"], "{saleId, universes}"),
        "/api/catalog/v2/sale/{saleId}/catalogContent/{catalogId}": content,
        "/api/catalog/v4/sale/{saleId}/filters/{catalogId}": get("Filters with counts (brand checkbox, color chip, size checkbox)", &["saleId", "catalogId"], "{filters: [{id, type, labelKey, options: [{id, label, slug, count}]}]}"),
        "/api/catalog/v2/sale/{saleId}/item/{itemId}": get("Item", &["saleId", "itemId"], "CatalogItem"),
        "/api/catalog/v1/sale/{saleId}/item/{itemId}/options": get("Item options with stock", &["saleId", "itemId"], "{options: [{id, label, stock, availability}]}"),
        "/api/catalog/v2/sale/{saleId}/item/{itemId}/favorite": favourite,
        "/api/catalog/v1/brands/{brandId}/items": get("A brand's items across the site's live sales (query limit, offset)", &["brandId"], "{brandId, name, total, offset, limit, items}"),
        "/api/catalog/v1/favorites": { "get": { "summary": "The member's favourites still in a live sale of the site", "responses": {
            "200": { "description": "{items: [CatalogItem]}" }, "401": { "description": "not signed in" } } } }
    })
}

/// Sign-in endpoints (spec 000 §7 "Authentication and registration").
fn auth_paths() -> serde_json::Value {
    let result = "result: login result code 1 success, 2 invalid identifier, 3 invalid password, 4 locked, 5 not activated, 6 deactivated, 7 blacklisted";
    json!({
        "/api/authentication/v1/members/{email}/sites/{siteId}/exists": { "get": {
            "summary": "Member-exists check (email first)",
            "parameters": [
                { "name": "email", "in": "path", "required": true, "schema": { "type": "string" } },
                { "name": "siteId", "in": "path", "required": true, "schema": { "type": "integer" } }
            ],
            "responses": {
                "200": { "description": "{result: 1, msgKey}: unknown email, go to registration" },
                "400": { "description": "{result: 2}: known email, go to the password step" },
                "422": { "description": "{result: 3, msgKey}: not an email" }
            }
        } },
        "/api/authentication/v1/login": post("Login; sets the session cookie and a new XSRF token on success",
            obj(&[("email", "string"), ("password", "string"), ("rememberMe", "boolean"), ("returnUrl", "string"), ("siteId", "integer")]),
            json!({ "200": { "description": format!("{{{result}, msgKey, redirectUrl (same-site path only), lockedUntil}}") }, "429": { "description": "too many attempts from this client" } })),
        "/api/authentication/v1/webvalidate": post("Web validate: the member of the session", json!({ "type": "object" }),
            json!({ "200": { "description": "{member: {memberId, firstName, siteId} | null, result: 1 or 2}" } })),
        "/api/authentication/v1/subscribe": post("Subscribe member (registration); sends the activation email",
            obj(&[("siteId", "integer"), ("email", "string"), ("password", "string"), ("civility", "integer"), ("firstName", "string"), ("lastName", "string"), ("birthDate", "string"), ("zipCode", "string"), ("city", "string"), ("cgv", "boolean"), ("privacyPolicy", "boolean"), ("optinPartner", "boolean"), ("sponsorshipCode", "string")]),
            json!({ "201": { "description": "{memberId, msgKey}" }, "400": { "description": "{messageKey, fieldErrors: [{field, messageKey}]}" } })),
        "/api/authentication/v1/activate": post("Activate an account with the emailed cypher (single use)",
            obj(&[("siteId", "integer"), ("cypher", "string")]),
            json!({ "200": { "description": "activated" }, "400": { "description": "cypher invalid, used or expired" } })),
        "/api/authentication/v1/password/recover": post("Recover password: emails a link when the address is a member's (same answer either way)",
            obj(&[("email", "string"), ("siteId", "integer")]),
            json!({ "200": { "description": "{msgKey}" }, "429": { "description": "too many requests" } })),
        "/api/authentication/v1/password/update": post("Update password with the recovery cypher (single use, 1 hour)",
            obj(&[("siteId", "integer"), ("cypher", "string"), ("memberId", "integer"), ("newPassword", "string")]),
            json!({ "200": { "description": "updated; other sessions ended" }, "400": { "description": "weak password or cypher invalid" } })),
        "/api/authentication/v1/autologin": post("Autologin with a cypher; sets the session cookie",
            obj(&[("siteId", "integer"), ("cypher", "string"), ("returnUrl", "string")]),
            json!({ "200": { "description": "{result: 1, redirectUrl}" }, "400": { "description": "{result: 2}" } })),
        "/api/authentication/v1/logout": post("Logout: deletes the session row", json!({ "type": "object" }),
            json!({ "204": { "description": "signed out" } }))
    })
}

pub fn document() -> Value {
    let error = json!({
        "type": "object",
        "properties": {
            "error_code": { "type": "string" },
            "error_description": { "type": "string" }
        }
    });
    let dsa_request = json!({
        "type": "object",
        "required": ["siteId", "selectedMadeAs", "selectedConcerns", "description", "email", "isNotificationSubmitChecked"],
        "properties": {
            "siteId": { "type": "integer", "enum": [1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76] },
            "saleId": { "type": "integer" },
            "productId": { "type": "integer" },
            "selectedMadeAs": { "type": "integer", "enum": [1, 2, 3], "description": "1 particular, 2 flagger, 3 legal person" },
            "selectedConcerns": { "type": "array", "minItems": 1, "items": { "$ref": "#/components/schemas/DsaReason" } },
            "description": { "type": "string", "minLength": 20, "maxLength": 5000 },
            "lastName": { "type": "string", "description": "required when selectedMadeAs = 1" },
            "denomination": { "type": "string", "description": "required when selectedMadeAs = 2 or 3" },
            "selectedRegOffice": { "type": "string", "description": "required when selectedMadeAs = 3" },
            "copyrightRegNumber": { "type": "string", "description": "required for COPYRIGHT_TRADEMARK, COPYRIGHT_DESIGN, COPYRIGHT_PATENT" },
            "copyrightReportNumber": { "type": "string" },
            "email": { "type": "string", "pattern": "^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$" },
            "agreementSellerPartner": { "type": "boolean" },
            "isNotificationSubmitChecked": { "type": "boolean", "const": true }
        }
    });
    let reasons: Vec<&str> = app::model::dsa::DsaReason::ALL
        .iter()
        .map(|r| r.as_str())
        .collect();
    let mut doc = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Rosace REST API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Paths, methods and field names follow section 7 of the specification. State-changing calls need the X-XSRF-TOKEN header equal to the XSRF-TOKEN cookie (403 otherwise)."
        },
        "paths": {
            "/api/content/v1/translations": {
                "get": {
                    "summary": "Translations of a locale merged over its fallback; cacheable 5 minutes",
                    "parameters": [
                        { "name": "locale", "in": "query", "required": true, "schema": { "type": "string", "example": "de-de" } },
                        { "name": "fallbackLocale", "in": "query", "schema": { "type": "string", "default": "fr-fr" } },
                        { "name": "device", "in": "query", "schema": { "type": "string", "enum": ["web", "webapp"] } }
                    ],
                    "responses": {
                        "200": { "description": "{locale, fallbackLocale, translations: {key: text}}" },
                        "400": { "description": "locale missing", "content": { "application/json": { "schema": error } } }
                    }
                }
            },
            "/api/postsale/v1/help/dsacontactform": {
                "post": {
                    "summary": "Report illegal content (DSA). Up to 3 files of 5 MB: PDF, PNG or JPEG.",
                    "requestBody": {
                        "content": {
                            "application/json": { "schema": { "$ref": "#/components/schemas/DsaFormRequest" } },
                            "multipart/form-data": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "payload": { "type": "string", "description": "DsaFormRequest as JSON" },
                                        "files": { "type": "array", "maxItems": 3, "items": { "type": "string", "format": "binary" } }
                                    }
                                }
                            }
                        }
                    },
                    "responses": {
                        "201": { "description": "stored: {id, isSubmitted}" },
                        "400": { "description": "field errors: {errorCode, messageKey, fieldErrors: [{field, messageKey}]}" },
                        "403": { "description": "missing or wrong XSRF token" },
                        "429": { "description": "rate limit per client; messageKey dsaform.message.security" }
                    }
                }
            },
            "/api/openapi.json": { "get": { "summary": "This document", "responses": { "200": { "description": "OpenAPI 3.1" } } } },
            "/health": { "get": { "summary": "Liveness and database check", "responses": { "200": { "description": "ok" }, "503": { "description": "database down" } } } }
        },
        "components": {
            "schemas": {
                "DsaReason": { "type": "string", "enum": reasons },
                "DsaFormRequest": dsa_request,
                "Error": error
            }
        }
    });
    doc["components"]["schemas"]["Cart"] = crate::openapi_cart::cart_schema();
    for extra in [
        auth_paths(),
        catalog_paths(),
        crate::openapi_cart::paths(),
        crate::home_api::openapi_paths(),
        crate::openapi_search::paths(),
    ] {
        if let (Some(paths), serde_json::Value::Object(more)) =
            (doc["paths"].as_object_mut(), extra)
        {
            paths.extend(more);
        }
    }
    doc
}
