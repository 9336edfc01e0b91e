//! Analytics events (spec 000 §7 "Diagnostics": a tracking library with batch 50, flush
//! every 5 s, request timeout 90 s, retry ceiling 10 min, cookie 365 days; §8 the analytics
//! error names; §9 tracking properties capped at 30 keys, search-engine referrers mark
//! organic traffic). The browser's library is `frontend-react/src/diagnostics/tracking.ts`
//! (in the performance-consent bundle); it posts batches to `POST /api/tracking/v1/events`
//! (our path: the spec names none). This file holds the wire body, the limits the server
//! checks it against (both targets) and, on the server, the structured log lines.
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::diagnostics::model::FrontendBatchTags;
use crate::diagnostics::rules::{
    is_timestamp, name_chars, Problem, Refusal, Refusals, APP_NAME_MAX, APP_VERSION_MAX,
};

/// The tracking call (ours; spec 000 names no path for it).
pub const EVENTS_PATH: &str = "/api/tracking/v1/events";
/// The browser sends a batch when this many events wait (spec 000 §7: 50); the server
/// takes no more in one body.
pub const BATCH_MAX: usize = 50;
/// ...or every 5 s.
pub const FLUSH_MS: u32 = 5_000;
/// One request gives up after 90 s.
pub const REQUEST_TIMEOUT_MS: u32 = 90_000;
/// Retries back off exponentially up to 10 min.
pub const RETRY_CEILING_MS: u32 = 600_000;
/// Property keys per event (spec 000 §9: 30).
pub const PROPERTIES_MAX: usize = 30;
/// The tracking device id cookie (first party, set by the browser's library only with the
/// performance consent C0002, kept 365 days; removed when that consent is withdrawn).
pub const DEVICE_COOKIE: &str = "rosace_tid";
pub const DEVICE_COOKIE_DAYS: u32 = 365;

pub const EVENT_NAME_MAX: usize = 64;
pub const DEVICE_ID_MAX: usize = 64;
pub const PROPERTY_KEY_MAX: usize = 64;
/// Characters of a text property value.
pub const PROPERTY_TEXT_MAX: usize = 256;
/// A body larger than this is refused before it is read (413).
pub const BODY_MAX: usize = 64 * 1024;

/// The page view the library sends on each page (first load and in-app navigation).
pub const PAGE_VIEW: &str = "page_view";
/// The analytics error names of spec 000 §8, tracked where those failures happen.
pub const ERROR_NAMES: [&str; 4] = [
    "Unavailable Order Pipe",
    "Unavailable Search Results",
    "Static ressources are not available",
    "Unavailable Sale Content",
];

/// One event: its name, when it happened in the browser and up to 30 properties.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct TrackingEvent {
    /// 1 to 64 characters, no control characters (`page_view`, `Unavailable Order Pipe`).
    pub name: String,
    /// ISO 8601 with a zone (`2026-11-24T06:13:40.123Z`).
    pub timestamp: String,
    /// At most 30 keys (letters, digits, `_ . : -`; 1 to 64 characters), each a text of
    /// at most 256 characters, a finite number, a boolean or null.
    #[cfg_attr(feature = "ssr", schema(value_type = Object))]
    pub properties: BTreeMap<String, serde_json::Value>,
    /// Keys the browser dropped past the 30 it keeps (the first 30 in insertion order).
    pub dropped_properties: u32,
}

/// A batch of events (`POST /api/tracking/v1/events`): at most 50, with the device id the
/// tracking cookie holds and the app's tags.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct TrackingBatch {
    /// 1 to 50 events.
    pub events: Vec<TrackingEvent>,
    /// The tracking cookie's id: 1 to 64 characters among letters, digits and `_ . : -`.
    pub device_id: String,
    pub tags: FrontendBatchTags,
}

/// The event name as a Prometheus label: the known names as they are, any other `other`.
pub fn label_name(name: &str) -> &'static str {
    if name == PAGE_VIEW {
        return PAGE_VIEW;
    }
    ERROR_NAMES
        .into_iter()
        .find(|n| *n == name)
        .unwrap_or("other")
}

fn property_ok(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    match v {
        Value::Null | Value::Bool(_) => true,
        Value::Number(n) => n.as_f64().is_some_and(f64::is_finite),
        Value::String(s) => s.chars().count() <= PROPERTY_TEXT_MAX,
        Value::Array(_) | Value::Object(_) => false,
    }
}

/// Checks a batch: 1 to 50 events, each named, stamped, with at most 30 short properties;
/// the device id and the app's tags.
pub fn check_batch(batch: &TrackingBatch) -> Result<(), Vec<Refusal>> {
    let mut r = Refusals(Vec::new());
    r.text("tags.appName", &batch.tags.app_name, APP_NAME_MAX);
    r.text("tags.version", &batch.tags.version, APP_VERSION_MAX);
    if batch.device_id.is_empty() {
        r.add("deviceId", Problem::Missing);
    } else if batch.device_id.len() > DEVICE_ID_MAX {
        r.add("deviceId", Problem::TooLong);
    } else if !name_chars(&batch.device_id) {
        r.add("deviceId", Problem::BadName);
    }
    if batch.events.is_empty() {
        r.add("events", Problem::Missing);
    } else if batch.events.len() > BATCH_MAX {
        r.add("events", Problem::TooManyEvents);
    }
    for (i, e) in batch.events.iter().enumerate().take(BATCH_MAX) {
        let field = |f: &str| format!("events[{i}].{f}");
        if e.name.trim().is_empty() {
            r.add(field("name"), Problem::Missing);
        } else if e.name.chars().count() > EVENT_NAME_MAX {
            r.add(field("name"), Problem::TooLong);
        } else if e.name.chars().any(char::is_control) {
            r.add(field("name"), Problem::BadEventName);
        }
        if e.timestamp.trim().is_empty() {
            r.add(field("timestamp"), Problem::Missing);
        } else if !is_timestamp(&e.timestamp) {
            r.add(field("timestamp"), Problem::BadTimestamp);
        }
        if e.properties.len() > PROPERTIES_MAX {
            r.add(field("properties"), Problem::TooManyProperties);
        }
        for (k, v) in e.properties.iter().take(PROPERTIES_MAX + 1) {
            if k.is_empty() || k.len() > PROPERTY_KEY_MAX || !name_chars(k) {
                r.add(field("properties"), Problem::BadName);
            } else if !property_ok(v) {
                r.add(format!("events[{i}].properties.{k}"), Problem::BadProperty);
            }
        }
    }
    r.done()
}

/// Checks a batch and writes one INFO line per event (target `rosace::tracking`): name,
/// browser time, device id, site and the properties as JSON.
#[cfg(feature = "ssr")]
pub fn record(
    batch: &TrackingBatch,
    site_id: u16,
) -> Result<(), crate::diagnostics::error::DiagnosticsError> {
    use crate::text::line::one_line;
    check_batch(batch).map_err(crate::diagnostics::error::DiagnosticsError::Invalid)?;
    let app_name = one_line(&batch.tags.app_name);
    let version = one_line(&batch.tags.version);
    for e in &batch.events {
        // Serialised JSON: a visitor's new lines are escapes already.
        let properties = serde_json::to_string(&e.properties).unwrap_or_default();
        tracing::info!(
            target: "rosace::tracking",
            app_name = %app_name,
            version = %version,
            device_id = %batch.device_id,
            site_id,
            name = %one_line(&e.name),
            timestamp = %one_line(&e.timestamp),
            properties = %properties,
            dropped_properties = e.dropped_properties,
            "tracking event"
        );
    }
    Ok(())
}

#[cfg(test)]
#[path = "tracking_tests.rs"]
mod tests;
