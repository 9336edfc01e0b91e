//! The diagnostics calls' work on the server: the flood limit per client address (in the
//! database, shared by every instance) and the structured log lines, one per log entry and
//! one per measure, with the entry's fields as fields (target `rosace::frontend`).
use crate::diagnostics::error::DiagnosticsError;
use crate::diagnostics::model::{FrontendLogEntry, FrontendMetricsBatch};
use crate::diagnostics::rules::{self, Level};
use crate::diagnostics::settings::DiagnosticsSettings;
use crate::platform::db::Db;
// A visitor's text on one log line: a message cannot forge a line of the text log format.
use crate::text::line::one_line;

/// Counts one diagnostics call of `client`; 429 past the limit of the window.
pub async fn admit(
    db: &Db,
    settings: &DiagnosticsSettings,
    client: &str,
    now: i64,
) -> Result<(), DiagnosticsError> {
    let bucket = format!("diagnostics:{client}");
    let hits =
        crate::platform::ratelimit::count(db, &bucket, settings.rate_window_secs, now).await?;
    if hits > settings.rate_limit {
        // The first refused call of a window is logged; the rest of the flood is not.
        if hits == settings.rate_limit + 1 {
            tracing::warn!(client = %client, "frontend diagnostics flood: refusing until the window ends");
        }
        return Err(DiagnosticsError::RateLimited);
    }
    Ok(())
}

/// Checks a log entry and writes it to the log at its level (Error and Fatal at ERROR,
/// Warning at WARN, Information at INFO, Debug at DEBUG).
pub fn log(entry: &FrontendLogEntry) -> Result<Level, DiagnosticsError> {
    let level = rules::check_log(entry).map_err(DiagnosticsError::Invalid)?;
    let app_name = one_line(&entry.app_name);
    let app_version = one_line(&entry.app_version);
    let text = one_line(&entry.message);
    let timestamp = one_line(&entry.timestamp);
    // Serialised JSON: its new lines are escapes already.
    let context = entry
        .context
        .as_ref()
        .map(|c| c.to_string())
        .unwrap_or_default();
    macro_rules! event {
        ($mac:ident) => {
            tracing::$mac!(
                target: "rosace::frontend",
                app_name = %app_name,
                app_version = %app_version,
                level = level.as_str(),
                text = %text,
                timestamp = %timestamp,
                context = %context,
                "frontend log"
            )
        };
    }
    match level {
        Level::Error | Level::Fatal => event!(error),
        Level::Warning => event!(warn),
        Level::Information => event!(info),
        Level::Debug => event!(debug),
    }
    Ok(level)
}

/// Checks a metrics batch and writes one INFO line per measure (name, value, type, tags,
/// and for a Core Web Vital its rating by the server's rule).
pub fn metrics(batch: &FrontendMetricsBatch) -> Result<(), DiagnosticsError> {
    rules::check_batch(batch).map_err(DiagnosticsError::Invalid)?;
    let app_name = one_line(&batch.tags.app_name);
    let version = one_line(&batch.tags.version);
    for m in &batch.metrics {
        let value = m.value.unwrap_or_default();
        let rating = rules::Vital::parse(&m.name)
            .map(|v| rules::rate(v, value).as_str())
            .unwrap_or("");
        let tags = serde_json::to_string(&m.tags).unwrap_or_default();
        tracing::info!(
            target: "rosace::frontend",
            app_name = %app_name,
            version = %version,
            name = %m.name,
            value,
            kind = %m.kind,
            rating,
            tags = %tags,
            "frontend metric"
        );
    }
    Ok(())
}
