//! The feed's JSON Schema, made from the feed's Rust types by `utoipa` (OpenAPI 3.1 schemas
//! are JSON Schema 2020-12): served at `/backoffice/feed.schema.json` and checked in as
//! `docs/feed.schema.json` (a test fails when they drift; `UPDATE_GENERATED=1` rewrites it).
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use super::Feed;

pub fn json_schema() -> serde_json::Value {
    let mut defs = Vec::new();
    Feed::schemas(&mut defs);
    let mut root = serde_json::to_value(Feed::schema()).unwrap_or_default();
    let mut map = serde_json::Map::new();
    for (name, schema) in defs {
        let value = match schema {
            RefOr::T(s) => serde_json::to_value(s).unwrap_or_default(),
            RefOr::Ref(r) => serde_json::to_value(r).unwrap_or_default(),
        };
        map.insert(name, value);
    }
    if let Some(obj) = root.as_object_mut() {
        obj.insert(
            "$schema".into(),
            "https://json-schema.org/draft/2020-12/schema".into(),
        );
        obj.insert("title".into(), "Rosace catalogue feed".into());
        obj.insert("$defs".into(), serde_json::Value::Object(map));
    }
    let text = serde_json::to_string_pretty(&root)
        .unwrap_or_default()
        .replace("#/components/schemas/", "#/$defs/");
    serde_json::from_str(&text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_published_schema_is_the_feed_types() {
        let expected = serde_json::to_string_pretty(&super::json_schema()).unwrap() + "\n";
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/feed.schema.json");
        if std::env::var("UPDATE_GENERATED").is_ok_and(|v| v == "1") {
            std::fs::write(&path, &expected).unwrap();
            return;
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(actual == expected, "docs/feed.schema.json is stale: regenerate with UPDATE_GENERATED=1 cargo test -p server schema");
        for field in [
            "\"withQuotationPrice\"",
            "\"retail_price\"",
            "\"stock\"",
            "\"$defs\"",
        ] {
            assert!(expected.contains(field), "{field}");
        }
    }
}
