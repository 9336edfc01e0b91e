//! The two bodies the browser posts (spec 000 §7 "Diagnostics"). Every field has a default
//! so that a missing one is refused by `rules` with its own field error, in the visitor's
//! language, rather than by the JSON reader with a generic one.
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One frontend log entry (`POST /api/frontend-logger/v1/log`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct FrontendLogEntry {
    /// `rosace-web` (1 to 64 characters).
    pub app_name: String,
    /// The shop's version the page was served with (1 to 32 characters).
    pub app_version: String,
    /// `Information`, `Error`, `Fatal`, `Debug` or `Warning`.
    pub level: String,
    /// 1 to 4,000 characters.
    pub message: String,
    /// When it happened in the browser, ISO 8601 (`2026-11-24T06:13:40.123Z`).
    pub timestamp: String,
    /// What the page adds (path, error source and stack, `breadcrumbs`: at most 50): any
    /// JSON object of at most 16 KiB.
    #[cfg_attr(feature = "ssr", schema(value_type = Option<Object>))]
    pub context: Option<serde_json::Value>,
}

/// One measure of a metrics batch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct FrontendMetric {
    /// 1 to 64 characters among letters, digits and `_ . : -` (`LCP`, `route_change_error`).
    pub name: String,
    /// A finite number (milliseconds for a timing; CLS has no unit).
    pub value: Option<f64>,
    /// `count`, `gauge`, `timing` or `histogram`.
    #[serde(rename = "type")]
    pub kind: String,
    /// At most 8 tags (`rating`: good, needs-improvement or poor for a vital).
    pub tags: BTreeMap<String, String>,
}

/// The tags of a whole batch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct FrontendBatchTags {
    /// `rosace-web` (1 to 64 characters).
    pub app_name: String,
    /// The shop's version (1 to 32 characters).
    pub version: String,
}

/// A metrics batch (`POST /api/frontend-logger/v1/metrics`): the browser sends one when 50
/// measures are queued or 1 s after the first, so at most 50.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct FrontendMetricsBatch {
    /// 1 to 50 measures.
    pub metrics: Vec<FrontendMetric>,
    pub tags: FrontendBatchTags,
}
