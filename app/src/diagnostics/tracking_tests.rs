//! Unit tests of `tracking.rs`: the batch limits, field by field, and the bounded labels.
use super::*;
use crate::diagnostics::rules::{APP_NAME, APP_VERSION};
use serde_json::json;

fn event(name: &str) -> TrackingEvent {
    TrackingEvent {
        name: name.into(),
        timestamp: "2026-11-24T06:13:40.123Z".into(),
        properties: [
            ("route".to_string(), json!("Catalog")),
            ("siteId".to_string(), json!(1)),
            ("traffic".to_string(), json!("organic")),
            ("member".to_string(), json!(false)),
            ("saleId".to_string(), json!(null)),
        ]
        .into_iter()
        .collect(),
        dropped_properties: 0,
    }
}

fn batch(events: Vec<TrackingEvent>) -> TrackingBatch {
    TrackingBatch {
        events,
        device_id: "0f8fad5b-d9cb-469f-a165-70867728950e".into(),
        tags: FrontendBatchTags {
            app_name: APP_NAME.into(),
            version: APP_VERSION.into(),
        },
    }
}

fn problems(b: &TrackingBatch) -> Vec<(String, Problem)> {
    check_batch(b)
        .unwrap_err()
        .into_iter()
        .map(|r| (r.field, r.problem))
        .collect()
}

#[test]
fn the_libraries_constants_are_the_specs() {
    assert_eq!(
        (
            BATCH_MAX,
            FLUSH_MS,
            REQUEST_TIMEOUT_MS,
            RETRY_CEILING_MS,
            PROPERTIES_MAX,
            DEVICE_COOKIE_DAYS
        ),
        (50, 5_000, 90_000, 600_000, 30, 365)
    );
}

#[test]
fn a_batch_of_up_to_fifty_named_events_passes() {
    assert_eq!(check_batch(&batch(vec![event(PAGE_VIEW)])), Ok(()));
    assert_eq!(
        check_batch(&batch(vec![event("Unavailable Order Pipe"); BATCH_MAX])),
        Ok(())
    );
    assert_eq!(
        problems(&batch(vec![event(PAGE_VIEW); BATCH_MAX + 1])),
        vec![("events".to_string(), Problem::TooManyEvents)]
    );
    assert_eq!(
        problems(&batch(vec![])),
        vec![("events".to_string(), Problem::Missing)]
    );
}

#[test]
fn each_bad_field_is_named() {
    let mut long = event("x");
    long.name = "n".repeat(EVENT_NAME_MAX + 1);
    let mut control = event("page\nview");
    control.timestamp = "2026-11-24 06:13".into();
    let mut blank = event(" ");
    blank.timestamp.clear();
    let mut values = event(PAGE_VIEW);
    values.properties.insert("nested".into(), json!({"a": 1}));
    values
        .properties
        .insert("text".into(), json!("t".repeat(PROPERTY_TEXT_MAX + 1)));
    values.properties.insert("bad key".into(), json!(1));
    let mut b = batch(vec![long, control, blank, values]);
    b.device_id = "not a device".into();
    b.tags.version.clear();
    assert_eq!(
        problems(&b),
        vec![
            ("tags.version".to_string(), Problem::Missing),
            ("deviceId".to_string(), Problem::BadName),
            ("events[0].name".to_string(), Problem::TooLong),
            ("events[1].name".to_string(), Problem::BadEventName),
            ("events[1].timestamp".to_string(), Problem::BadTimestamp),
            ("events[2].name".to_string(), Problem::Missing),
            ("events[2].timestamp".to_string(), Problem::Missing),
            ("events[3].properties".to_string(), Problem::BadName),
            (
                "events[3].properties.nested".to_string(),
                Problem::BadProperty
            ),
            (
                "events[3].properties.text".to_string(),
                Problem::BadProperty
            ),
        ]
    );
    let mut none = batch(vec![event(PAGE_VIEW)]);
    none.device_id.clear();
    assert_eq!(
        problems(&none),
        vec![("deviceId".to_string(), Problem::Missing)]
    );
}

#[test]
fn thirty_property_keys_at_most() {
    let mut e = event(PAGE_VIEW);
    e.properties = (0..PROPERTIES_MAX)
        .map(|i| (format!("k{i}"), json!(i)))
        .collect();
    assert_eq!(check_batch(&batch(vec![e.clone()])), Ok(()));
    e.properties.insert("one_more".into(), json!(true));
    assert_eq!(
        problems(&batch(vec![e])),
        vec![(
            "events[0].properties".to_string(),
            Problem::TooManyProperties
        )]
    );
    assert_eq!(Problem::TooManyProperties.code(), "too_many");
}

#[test]
fn only_known_event_names_become_labels() {
    assert_eq!(label_name("page_view"), "page_view");
    for n in ERROR_NAMES {
        assert_eq!(label_name(n), n);
    }
    assert_eq!(label_name("Page_View"), "other");
    assert_eq!(label_name("my own event"), "other");
}
