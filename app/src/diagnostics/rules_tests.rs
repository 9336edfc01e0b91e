//! Unit tests of `rules.rs`: rating edges, levels and kinds, timestamps, body limits.
use super::*;
use crate::diagnostics::model::{FrontendBatchTags, FrontendMetric};

#[test]
fn ratings_change_just_past_each_threshold() {
    for v in Vital::ALL {
        let (good, poor) = v.thresholds();
        let step = if v.is_time() { 1.0 } else { 0.001 };
        assert_eq!(rate(v, 0.0), Rating::Good, "{v:?}");
        assert_eq!(rate(v, good), Rating::Good, "{v:?} at good");
        assert_eq!(rate(v, good + step), Rating::NeedsImprovement, "{v:?}");
        assert_eq!(rate(v, poor), Rating::NeedsImprovement, "{v:?} at poor");
        assert_eq!(rate(v, poor + step), Rating::Poor, "{v:?}");
    }
    assert_eq!(Vital::Lcp.thresholds(), (2500.0, 4000.0));
    assert_eq!(Vital::Cls.thresholds(), (0.1, 0.25));
    assert_eq!(rate(Vital::Cls, 0.1), Rating::Good);
    assert_eq!(rate(Vital::Cls, 0.26), Rating::Poor);
}

#[test]
fn levels_and_kinds_are_the_specs_words_exactly() {
    assert_eq!(Level::parse("Fatal"), Some(Level::Fatal));
    assert_eq!(Level::parse("error"), None);
    assert_eq!(Level::parse("Info"), None);
    assert_eq!(MetricKind::parse("histogram"), Some(MetricKind::Histogram));
    assert_eq!(MetricKind::parse("Timing"), None);
    assert_eq!(label_name("LCP"), "LCP");
    assert_eq!(label_name("lcp"), "other");
    assert_eq!(label_name("route_change_error"), "route_change_error");
}

#[test]
fn timestamps_are_iso_8601_with_a_zone() {
    assert!(is_timestamp("2026-11-24T06:13:40.123Z"));
    assert!(is_timestamp("2026-11-24T06:13:40Z"));
    assert!(is_timestamp("2026-11-24T06:13:40+01:00"));
    assert!(!is_timestamp("2026-11-24T06:13:40"));
    assert!(!is_timestamp("2026-13-24T06:13:40Z"));
    assert!(!is_timestamp("2026-11-24 06:13:40Z"));
    assert!(!is_timestamp("2026-11-24T06:13:40.Z"));
    assert!(!is_timestamp("yesterday"));
}

fn log() -> FrontendLogEntry {
    FrontendLogEntry {
        app_name: APP_NAME.into(),
        app_version: APP_VERSION.into(),
        level: "Error".into(),
        message: "boom".into(),
        timestamp: "2026-11-24T06:13:40.123Z".into(),
        context: Some(serde_json::json!({"breadcrumbs": [{"category": "click"}]})),
    }
}

#[test]
fn a_log_entry_is_checked_field_by_field() {
    assert_eq!(check_log(&log()), Ok(Level::Error));
    let bad = FrontendLogEntry {
        level: "Critical".into(),
        message: "x".repeat(MESSAGE_MAX + 1),
        timestamp: String::new(),
        context: Some(serde_json::json!([1])),
        ..log()
    };
    let problems: Vec<_> = check_log(&bad)
        .unwrap_err()
        .into_iter()
        .map(|r| (r.field, r.problem))
        .collect();
    assert_eq!(
        problems,
        vec![
            ("level".to_string(), Problem::UnknownLevel),
            ("message".to_string(), Problem::TooLong),
            ("timestamp".to_string(), Problem::Missing),
            ("context".to_string(), Problem::Unreadable),
        ]
    );
    let crumbs = vec![serde_json::json!({}); BREADCRUMBS_MAX + 1];
    let many = FrontendLogEntry {
        context: Some(serde_json::json!({ "breadcrumbs": crumbs })),
        ..log()
    };
    assert_eq!(check_log(&many).unwrap_err()[0].problem, Problem::TooMany);
    let big = FrontendLogEntry {
        context: Some(serde_json::json!({ "stack": "x".repeat(CONTEXT_MAX_BYTES) })),
        ..log()
    };
    assert_eq!(check_log(&big).unwrap_err()[0].problem, Problem::TooLarge);
}

fn metric(name: &str, value: f64, kind: &str) -> FrontendMetric {
    FrontendMetric {
        name: name.into(),
        value: Some(value),
        kind: kind.into(),
        tags: Default::default(),
    }
}

fn batch(metrics: Vec<FrontendMetric>) -> FrontendMetricsBatch {
    FrontendMetricsBatch {
        metrics,
        tags: FrontendBatchTags {
            app_name: APP_NAME.into(),
            version: APP_VERSION.into(),
        },
    }
}

#[test]
fn a_metrics_batch_is_bounded_and_typed() {
    assert_eq!(
        check_batch(&batch(vec![metric("LCP", 1200.0, "timing")])),
        Ok(())
    );
    let full = batch(vec![metric("CLS", 0.02, "gauge"); QUEUE_MAX]);
    assert_eq!(check_batch(&full), Ok(()));
    let over = batch(vec![metric("CLS", 0.02, "gauge"); QUEUE_MAX + 1]);
    assert_eq!(check_batch(&over).unwrap_err()[0].problem, Problem::TooMany);
    assert_eq!(
        check_batch(&batch(vec![])).unwrap_err()[0].problem,
        Problem::Missing
    );
    let wrong = batch(vec![
        metric("LCP", 1200.0, "meter"),
        metric("a b", 1.0, "count"),
        metric("big", 2e12, "gauge"),
    ]);
    let fields: Vec<_> = check_batch(&wrong)
        .unwrap_err()
        .into_iter()
        .map(|r| (r.field, r.problem))
        .collect();
    assert_eq!(
        fields,
        vec![
            ("metrics[0].type".to_string(), Problem::UnknownType),
            ("metrics[1].name".to_string(), Problem::BadName),
            ("metrics[2].value".to_string(), Problem::BadValue),
        ]
    );
    let mut no_tags = batch(vec![metric("LCP", 1.0, "timing")]);
    no_tags.tags.app_name.clear();
    assert_eq!(
        check_batch(&no_tags).unwrap_err()[0].field,
        "tags.appName".to_string()
    );
    let mut tagged = metric("LCP", 1.0, "timing");
    tagged.tags = (0..=METRIC_TAGS_MAX)
        .map(|i| (format!("k{i}"), "v".into()))
        .collect();
    assert_eq!(
        check_batch(&batch(vec![tagged])).unwrap_err()[0].problem,
        Problem::TooMany
    );
}
