//! Vector files of rules: the help form's reset rules and checks (`tests/vectors/help.json`;
//! the Rust alone runs them, on the server), and the rules with a TypeScript twin that
//! vitest checks against the same files: the key filters of form fields
//! (`key_filters.json`), the diagnostics bundle's limits (`diagnostics.json`) and the
//! report form's checks (`dsa_form.json`).
use serde_json::Value;

use app::help::rules::{self as help, HelpAction, HelpField, HelpFormState, ReasonRule};

fn vectors(name: &str) -> Value {
    let path = format!("{}/tests/vectors/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn cases<'a>(v: &'a Value, key: &str) -> &'a Vec<Value> {
    let list = v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is a list"));
    assert!(!list.is_empty(), "{key} has cases");
    list
}

fn text(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

// ---- help form ----

/// `base` with the case's fields over it; `{repeat, times}` is a long text.
fn overlaid(base: &Value, over: &Value) -> Value {
    let mut s = base.clone();
    for (k, val) in over.as_object().unwrap() {
        let val = match val {
            Value::Object(o) if o.contains_key("repeat") => Value::String(
                o["repeat"]
                    .as_str()
                    .unwrap()
                    .repeat(o["times"].as_u64().unwrap() as usize),
            ),
            other => other.clone(),
        };
        s[k] = val;
    }
    s
}

fn help_state(v: &Value, over: &Value) -> HelpFormState {
    serde_json::from_value(overlaid(&v["base"], over)).unwrap()
}

fn wire_field(name: &str) -> HelpField {
    [
        HelpField::Reason,
        HelpField::SubReason,
        HelpField::Order,
        HelpField::Message,
    ]
    .into_iter()
    .find(|f| f.wire() == name)
    .unwrap_or_else(|| panic!("unknown field {name}"))
}

#[test]
fn help_form_reset_rules() {
    let v = vectors("help");
    for c in cases(&v, "reduce") {
        let mut s = help_state(&v, &c["state"]);
        for a in c["actions"].as_array().unwrap() {
            let action = match a["type"].as_str().unwrap() {
                "selectReason" => HelpAction::SelectReason(text(&a["value"]).unwrap()),
                "selectSubReason" => HelpAction::SelectSubReason(text(&a["value"]).unwrap()),
                "selectSale" => HelpAction::SelectSale(text(&a["value"])),
                "selectOrder" => HelpAction::SelectOrder(a["value"].as_i64()),
                "setMessage" => HelpAction::SetMessage(text(&a["value"]).unwrap()),
                "sendStarted" => HelpAction::SendStarted,
                "sendSucceeded" => HelpAction::SendSucceeded,
                "sendFailed" => HelpAction::SendFailed(text(&a["value"]).unwrap()),
                "answerReceived" => {
                    HelpAction::AnswerReceived(serde_json::from_value(a["value"].clone()).unwrap())
                }
                "answerDisplayed" => HelpAction::AnswerDisplayed,
                "showExtraText" => HelpAction::ShowExtraText,
                "feedbackSent" => HelpAction::FeedbackSent {
                    good: a["good"] == true,
                },
                "feedbackFailed" => HelpAction::FeedbackFailed(text(&a["value"]).unwrap()),
                "invalid" => HelpAction::Invalid(
                    a["fields"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|f| wire_field(f.as_str().unwrap()))
                        .collect(),
                ),
                other => panic!("unknown help action {other}"),
            };
            s = help::reduce(s, action);
        }
        assert_eq!(s, help_state(&v, &c["expected"]), "{}", c["name"]);
    }
}

#[test]
fn help_form_checks() {
    let v = vectors("help");
    for c in cases(&v, "check") {
        let s = help_state(&v, &c["state"]);
        let rule = (!c["rule"].is_null()).then(|| ReasonRule {
            has_sub_reasons: c["rule"]["hasSubReasons"] == true,
            needs_order: c["rule"]["needsOrder"] == true,
        });
        let got: Vec<&str> = help::check(&s, rule.as_ref())
            .into_iter()
            .map(HelpField::wire)
            .collect();
        let expected: Vec<&str> = c["expected"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        assert_eq!(got, expected, "{}", c["name"]);
    }
}

// ---- the report form ----

#[test]
fn report_form_checks_give_the_first_error_of_each_field() {
    let v = vectors("dsa_form");
    for case in cases(&v, "cases") {
        let name = case["name"].as_str().unwrap();
        let req: app::model::dsa::DsaFormRequest =
            serde_json::from_value(overlaid(&v["base"], &case["over"])).unwrap();
        let mut first = serde_json::Map::new();
        for e in app::dsa::rules::validate(&req, &[]) {
            first.entry(e.field).or_insert(Value::String(e.message_key));
        }
        assert_eq!(Value::Object(first), case["errors"], "{name}");
    }
}

// ---- diagnostics ----

#[test]
fn tracking_library_limits_and_event_names() {
    use app::diagnostics::tracking as tr;
    let v = vectors("diagnostics");
    let t = &v["tracking"];
    assert_eq!(t["batchMax"], tr::BATCH_MAX);
    assert_eq!(t["flushMs"], tr::FLUSH_MS);
    assert_eq!(t["requestTimeoutMs"], tr::REQUEST_TIMEOUT_MS);
    assert_eq!(t["retryCeilingMs"], tr::RETRY_CEILING_MS);
    assert_eq!(t["propertiesMax"], tr::PROPERTIES_MAX);
    assert_eq!(t["deviceCookie"], tr::DEVICE_COOKIE);
    assert_eq!(t["deviceCookieDays"], tr::DEVICE_COOKIE_DAYS);
    let names: Vec<&str> = std::iter::once(tr::PAGE_VIEW)
        .chain(tr::ERROR_NAMES)
        .collect();
    assert_eq!(t["eventNames"], serde_json::json!(names));
}

#[test]
fn diagnostics_ratings_levels_kinds_and_limits() {
    use app::diagnostics::rules::{self as diag, Level, MetricKind, Vital};
    let v = vectors("diagnostics");
    assert_eq!(v["limits"]["queueMax"], diag::QUEUE_MAX);
    assert_eq!(v["limits"]["queueFlushMs"], diag::QUEUE_FLUSH_MS);
    assert_eq!(v["limits"]["breadcrumbsMax"], diag::BREADCRUMBS_MAX);
    for c in cases(&v, "ratings") {
        let name = c["name"].as_str().unwrap();
        let value = c["value"].as_f64().unwrap();
        let got = Vital::parse(name).map(|vital| diag::rate(vital, value).as_str());
        assert_eq!(got, c["expected"].as_str(), "{c}");
    }
    for (key, valid) in [("valid", true), ("invalid", false)] {
        for l in v["levels"][key].as_array().unwrap() {
            assert_eq!(Level::parse(l.as_str().unwrap()).is_some(), valid, "{l}");
        }
        for k in v["kinds"][key].as_array().unwrap() {
            assert_eq!(
                MetricKind::parse(k.as_str().unwrap()).is_some(),
                valid,
                "{k}"
            );
        }
    }
}

// ---- key filters ----

#[test]
fn key_filters_take_what_their_vectors_say() {
    use app::text::keys::KeyFilter;
    let v = vectors("key_filters");
    let cases = cases(&v, "cases");
    assert_eq!(cases.len(), KeyFilter::ALL.len(), "a case per filter");
    for c in cases {
        let name = c["filter"].as_str().unwrap();
        let filter = KeyFilter::ALL
            .into_iter()
            .find(|f| f.attr() == name)
            .unwrap_or_else(|| panic!("no filter {name}"));
        for ch in c["allowed"].as_str().unwrap().chars() {
            assert!(filter.allows(ch), "{name} takes {ch:?}");
        }
        for ch in c["refused"].as_str().unwrap().chars() {
            assert!(!filter.allows(ch), "{name} refuses {ch:?}");
        }
    }
}
