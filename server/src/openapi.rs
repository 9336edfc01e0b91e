//! The OpenAPI document of the REST API as it exists so far. Written by hand next to the
//! handlers; a test checks that every listed path answers something other than 404.
use serde_json::{json, Value};

pub const PATHS: [&str; 4] = [
    "/api/content/v1/translations",
    "/api/postsale/v1/help/dsacontactform",
    "/api/openapi.json",
    "/health",
];

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
    json!({
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
    })
}
