//! The diagnostics rules of spec 000 §7 and §9, pure and compiled for both targets: log
//! levels, metric kinds, the Core Web Vitals thresholds and their rating, the client's queue
//! and breadcrumb limits, and the limits the server checks a posted body against. The
//! browser repeats the rating and the limits in `frontend-react/src/diagnostics/rules.ts`;
//! `tests/vectors/diagnostics.json` holds the cases both are tested with.
use crate::diagnostics::model::{FrontendLogEntry, FrontendMetricsBatch};

/// The name the browser reports under.
pub const APP_NAME: &str = "rosace-web";
/// The version pages report with: the shop's own.
pub const APP_VERSION: &str = env!("CARGO_PKG_VERSION");
/// The browser sends its queue when this many measures wait (spec 000 §7: 50)...
pub const QUEUE_MAX: usize = 50;
/// ...or this long after the first one was queued (1 s).
pub const QUEUE_FLUSH_MS: u32 = 1000;
/// Error reports carry the last 50 breadcrumbs (spec 000 §9).
pub const BREADCRUMBS_MAX: usize = 50;

/// Limits of a posted body (the server refuses past them, 400).
pub const APP_NAME_MAX: usize = 64;
pub const APP_VERSION_MAX: usize = 32;
pub const MESSAGE_MAX: usize = 4000;
/// Serialised size of a log entry's `context`, in bytes.
pub const CONTEXT_MAX_BYTES: usize = 16 * 1024;
pub const METRIC_NAME_MAX: usize = 64;
pub const METRIC_TAGS_MAX: usize = 8;
pub const TAG_KEY_MAX: usize = 32;
pub const TAG_VALUE_MAX: usize = 64;
/// Largest magnitude of a metric's value.
pub const VALUE_MAX: f64 = 1e12;

/// Log levels (spec 000 §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Information,
    Error,
    Fatal,
    Debug,
    Warning,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Information,
        Level::Error,
        Level::Fatal,
        Level::Debug,
        Level::Warning,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Information => "Information",
            Level::Error => "Error",
            Level::Fatal => "Fatal",
            Level::Debug => "Debug",
            Level::Warning => "Warning",
        }
    }

    /// Exactly as the spec writes it (case matters: `error` is refused).
    pub fn parse(s: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.as_str() == s)
    }
}

/// Metric kinds (spec 000 §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricKind {
    Count,
    Gauge,
    Timing,
    Histogram,
}

impl MetricKind {
    pub const ALL: [MetricKind; 4] = [
        MetricKind::Count,
        MetricKind::Gauge,
        MetricKind::Timing,
        MetricKind::Histogram,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MetricKind::Count => "count",
            MetricKind::Gauge => "gauge",
            MetricKind::Timing => "timing",
            MetricKind::Histogram => "histogram",
        }
    }

    pub fn parse(s: &str) -> Option<MetricKind> {
        MetricKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// The measures of spec 000 §9's performance thresholds (FID is kept for the table: the
/// maintained library measures INP instead since 2024).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vital {
    Fcp,
    Lcp,
    Cls,
    Inp,
    Ttfb,
    Fid,
}

impl Vital {
    pub const ALL: [Vital; 6] = [
        Vital::Fcp,
        Vital::Lcp,
        Vital::Cls,
        Vital::Inp,
        Vital::Ttfb,
        Vital::Fid,
    ];

    /// The name on the wire (the `web-vitals` library's).
    pub fn name(self) -> &'static str {
        match self {
            Vital::Fcp => "FCP",
            Vital::Lcp => "LCP",
            Vital::Cls => "CLS",
            Vital::Inp => "INP",
            Vital::Ttfb => "TTFB",
            Vital::Fid => "FID",
        }
    }

    pub fn parse(name: &str) -> Option<Vital> {
        Vital::ALL.into_iter().find(|v| v.name() == name)
    }

    /// (good up to, poor above): milliseconds, CLS without unit (spec 000 §9).
    pub fn thresholds(self) -> (f64, f64) {
        match self {
            Vital::Fcp => (1800.0, 3000.0),
            Vital::Lcp => (2500.0, 4000.0),
            Vital::Cls => (0.1, 0.25),
            Vital::Inp => (200.0, 500.0),
            Vital::Ttfb => (800.0, 1800.0),
            Vital::Fid => (100.0, 300.0),
        }
    }

    /// Whether the value is a time in milliseconds (all but CLS).
    pub fn is_time(self) -> bool {
        self != Vital::Cls
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rating {
    Good,
    NeedsImprovement,
    Poor,
}

impl Rating {
    pub fn as_str(self) -> &'static str {
        match self {
            Rating::Good => "good",
            Rating::NeedsImprovement => "needs-improvement",
            Rating::Poor => "poor",
        }
    }
}

/// Good up to and including the first threshold, needs improvement up to and including the
/// second, poor above (the thresholds' own convention, as the `web-vitals` library rates).
pub fn rate(vital: Vital, value: f64) -> Rating {
    let (good, poor) = vital.thresholds();
    if value <= good {
        Rating::Good
    } else if value <= poor {
        Rating::NeedsImprovement
    } else {
        Rating::Poor
    }
}

/// Metric names the Prometheus scrape shows under their own label; any other is counted
/// as `other` (a visitor cannot make the scrape grow by inventing names).
pub fn label_name(name: &str) -> &'static str {
    if let Some(v) = Vital::parse(name) {
        return v.name();
    }
    match name {
        "route_change_error" => "route_change_error",
        _ => "other",
    }
}

/// Why a posted body is refused; each has its wire code and translation key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The body is not JSON of the documented shape.
    Unreadable,
    Missing,
    TooLong,
    UnknownLevel,
    UnknownType,
    BadValue,
    BadName,
    BadTimestamp,
    TooMany,
    TooLarge,
    /// Tracking (`tracking.rs`): more than 50 events in a batch.
    TooManyEvents,
    /// Tracking: more than 30 property keys on an event.
    TooManyProperties,
    /// Tracking: an event name with control characters.
    BadEventName,
    /// Tracking: a property value that is not a short text, a finite number, a boolean or null.
    BadProperty,
}

impl Problem {
    pub fn code(self) -> &'static str {
        match self {
            Problem::Unreadable => "invalid_body",
            Problem::UnknownLevel => "unknown_level",
            Problem::UnknownType => "unknown_type",
            Problem::TooMany | Problem::TooManyEvents | Problem::TooManyProperties => "too_many",
            Problem::TooLarge => "context_too_large",
            _ => "invalid_field",
        }
    }

    pub fn message_key(self) -> &'static str {
        match self {
            Problem::Unreadable => "diagnostics.errors.invalid_body",
            Problem::Missing => "diagnostics.errors.missing",
            Problem::TooLong => "diagnostics.errors.too_long",
            Problem::UnknownLevel => "diagnostics.errors.unknown_level",
            Problem::UnknownType => "diagnostics.errors.unknown_type",
            Problem::BadValue => "diagnostics.errors.bad_value",
            Problem::BadName => "diagnostics.errors.bad_name",
            Problem::BadTimestamp => "diagnostics.errors.bad_timestamp",
            Problem::TooMany => "diagnostics.errors.too_many",
            Problem::TooLarge => "diagnostics.errors.context_too_large",
            Problem::TooManyEvents => "diagnostics.errors.too_many_events",
            Problem::TooManyProperties => "diagnostics.errors.too_many_properties",
            Problem::BadEventName => "diagnostics.errors.bad_event_name",
            Problem::BadProperty => "diagnostics.errors.bad_property",
        }
    }
}

/// One refused field (`metrics[3].type`) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub field: String,
    pub problem: Problem,
}

/// Field errors listed in one answer, at most.
pub const REFUSALS_MAX: usize = 20;

pub(crate) struct Refusals(pub(crate) Vec<Refusal>);

impl Refusals {
    pub(crate) fn add(&mut self, field: impl Into<String>, problem: Problem) {
        if self.0.len() < REFUSALS_MAX {
            self.0.push(Refusal {
                field: field.into(),
                problem,
            });
        }
    }

    /// A required text of at most `max` characters.
    pub(crate) fn text(&mut self, field: &str, value: &str, max: usize) {
        if value.trim().is_empty() {
            self.add(field, Problem::Missing);
        } else if value.chars().count() > max {
            self.add(field, Problem::TooLong);
        }
    }

    pub(crate) fn done(self) -> Result<(), Vec<Refusal>> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self.0)
        }
    }
}

pub(crate) fn name_chars(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
}

/// `YYYY-MM-DDTHH:MM:SS`, optional fraction (1 to 9 digits), then `Z` or `±HH:MM`.
pub fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |from: usize, len: usize, max: u32| -> Option<u32> {
        let part = b.get(from..from + len)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let n = part.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        (n <= max).then_some(n)
    };
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    let date_time = num(0, 4, 9999).is_some()
        && at(4, b'-')
        && num(5, 2, 12).is_some_and(|m| m >= 1)
        && at(7, b'-')
        && num(8, 2, 31).is_some_and(|d| d >= 1)
        && (at(10, b'T') || at(10, b't'))
        && num(11, 2, 23).is_some()
        && at(13, b':')
        && num(14, 2, 59).is_some()
        && at(16, b':')
        && num(17, 2, 60).is_some();
    if !date_time {
        return false;
    }
    let mut i = 19;
    if at(i, b'.') {
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if !(1..=9).contains(&digits) {
            return false;
        }
        i += 1 + digits;
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            i + 6 == b.len()
                && num(i + 1, 2, 23).is_some()
                && at(i + 3, b':')
                && num(i + 4, 2, 59).is_some()
        }
        _ => false,
    }
}

/// Checks a frontend log entry; answers its level.
pub fn check_log(entry: &FrontendLogEntry) -> Result<Level, Vec<Refusal>> {
    let mut r = Refusals(Vec::new());
    r.text("appName", &entry.app_name, APP_NAME_MAX);
    r.text("appVersion", &entry.app_version, APP_VERSION_MAX);
    let level = Level::parse(&entry.level);
    if level.is_none() {
        r.add("level", Problem::UnknownLevel);
    }
    r.text("message", &entry.message, MESSAGE_MAX);
    if entry.timestamp.trim().is_empty() {
        r.add("timestamp", Problem::Missing);
    } else if !is_timestamp(&entry.timestamp) {
        r.add("timestamp", Problem::BadTimestamp);
    }
    match &entry.context {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Object(map)) => {
            let size = serde_json::to_string(&entry.context)
                .map(|s| s.len())
                .unwrap_or(usize::MAX);
            if size > CONTEXT_MAX_BYTES {
                r.add("context", Problem::TooLarge);
            }
            match map.get("breadcrumbs") {
                None | Some(serde_json::Value::Null) => {}
                Some(serde_json::Value::Array(list)) if list.len() > BREADCRUMBS_MAX => {
                    r.add("context.breadcrumbs", Problem::TooMany)
                }
                Some(serde_json::Value::Array(_)) => {}
                Some(_) => r.add("context.breadcrumbs", Problem::Unreadable),
            }
        }
        Some(_) => r.add("context", Problem::Unreadable),
    }
    r.done()?;
    Ok(level.unwrap_or(Level::Information))
}

/// Checks a metrics batch (1 to 50 measures, each named, finite, of a known kind, with few
/// short tags; the batch's `appName` and `version`).
pub fn check_batch(batch: &FrontendMetricsBatch) -> Result<(), Vec<Refusal>> {
    let mut r = Refusals(Vec::new());
    r.text("tags.appName", &batch.tags.app_name, APP_NAME_MAX);
    r.text("tags.version", &batch.tags.version, APP_VERSION_MAX);
    if batch.metrics.is_empty() {
        r.add("metrics", Problem::Missing);
    } else if batch.metrics.len() > QUEUE_MAX {
        r.add("metrics", Problem::TooMany);
    }
    for (i, m) in batch.metrics.iter().enumerate().take(QUEUE_MAX) {
        let field = |f: &str| format!("metrics[{i}].{f}");
        if m.name.is_empty() {
            r.add(field("name"), Problem::Missing);
        } else if m.name.chars().count() > METRIC_NAME_MAX {
            r.add(field("name"), Problem::TooLong);
        } else if !name_chars(&m.name) {
            r.add(field("name"), Problem::BadName);
        }
        match m.value {
            None => r.add(field("value"), Problem::Missing),
            Some(v) if !v.is_finite() || v.abs() > VALUE_MAX => {
                r.add(field("value"), Problem::BadValue)
            }
            Some(_) => {}
        }
        if MetricKind::parse(&m.kind).is_none() {
            r.add(field("type"), Problem::UnknownType);
        }
        if m.tags.len() > METRIC_TAGS_MAX {
            r.add(field("tags"), Problem::TooMany);
        }
        for (k, v) in &m.tags {
            if k.is_empty() || k.len() > TAG_KEY_MAX || !name_chars(k) {
                r.add(field("tags"), Problem::BadName);
            } else if v.chars().count() > TAG_VALUE_MAX {
                r.add(format!("metrics[{i}].tags.{k}"), Problem::TooLong);
            }
        }
    }
    r.done()
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
