//! The page scripts' shared vectors, Rust side: `public/js/aftersale.js`, `rosedeals.js` and
//! `help.js` repeat rules of `app/src` (form states, reset rules, checks, error keys); the
//! cases in `tests/vectors/{aftersale,rosedeals,help}.json` are checked here against the
//! Rust rules and by vitest (`frontend-react/src/page-scripts/`) against the scripts.
use serde::Deserialize;
use serde_json::{json, Value};

use app::help::rules::{self as help, HelpAction, HelpField, HelpFormState, ReasonRule};
use app::orders::marketplace::{reduce_help, HelpAction as MpAction, HelpForm};
use app::orders::returns::rules::{
    error_key, reduce_returns_form, succeeded, ReturnsFormAction, ReturnsFormState,
};
use app::orders::ui::after_sale::answer_action;
use app::rosedeals::model::{ContactMessage, DealErrorBody};
use app::rosedeals::rules::{
    self as deals, ContactAction, ContactState, RefundAction, RefundState,
};

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

// ---- after-sale ----

fn returns_action(a: &Value) -> Option<ReturnsFormAction> {
    match a["type"].as_str()? {
        "pending" => Some(ReturnsFormAction::Pending),
        "fulfilled" => Some(ReturnsFormAction::Fulfilled {
            error_code: text(&a["errorCode"]),
        }),
        "rejected" => Some(ReturnsFormAction::Rejected),
        other => panic!("unknown returns action {other}"),
    }
}

fn returns_action_json(a: &Option<ReturnsFormAction>) -> Value {
    match a {
        None => Value::Null,
        Some(ReturnsFormAction::Pending) => json!({ "type": "pending" }),
        Some(ReturnsFormAction::Fulfilled { error_code }) => {
            json!({ "type": "fulfilled", "errorCode": error_code })
        }
        Some(ReturnsFormAction::Rejected) => json!({ "type": "rejected" }),
    }
}

#[test]
fn aftersale_returns_form_states() {
    let v = vectors("aftersale");
    for c in cases(&v, "returnsForm") {
        let state: ReturnsFormState = serde_json::from_value(c["state"].clone()).unwrap();
        let next = match returns_action(&c["action"]) {
            Some(a) => reduce_returns_form(&state, &a),
            None => state,
        };
        let expected: ReturnsFormState = serde_json::from_value(c["expected"].clone()).unwrap();
        assert_eq!(next, expected, "{}", c["name"]);
        assert_eq!(succeeded(&next), c["succeeded"] == true, "{}", c["name"]);
    }
}

#[test]
fn aftersale_answers_and_error_keys() {
    let v = vectors("aftersale");
    for c in cases(&v, "answers") {
        let status = c["status"].as_u64().unwrap() as u16;
        let got = answer_action(status, c["errorCode"].as_str());
        assert_eq!(returns_action_json(&got), c["expected"], "{c}");
    }
    for c in cases(&v, "errorKeys") {
        assert_eq!(error_key(c[0].as_str().unwrap()), c[1].as_str().unwrap());
    }
}

#[test]
fn aftersale_marketplace_help_form() {
    let v = vectors("aftersale");
    for c in cases(&v, "marketplaceHelp") {
        let mut s: HelpForm = serde_json::from_value(c["state"].clone()).unwrap();
        for a in c["actions"].as_array().unwrap() {
            let action = match a["type"].as_str().unwrap() {
                "selectReason" => MpAction::SelectReason(text(&a["id"]).unwrap()),
                "setMessage" => MpAction::SetMessage(text(&a["message"]).unwrap()),
                "selectProduct" => MpAction::SelectProduct {
                    product_id: text(&a["productId"]).unwrap(),
                    quantity: a["quantity"].as_i64().unwrap(),
                },
                "messageSent" => MpAction::MessageSent,
                "returnSent" => MpAction::ReturnSent,
                "invoiceFetched" => MpAction::InvoiceFetched,
                other => panic!("unknown marketplace action {other}"),
            };
            s = reduce_help(&s, &action);
        }
        let expected: HelpForm = serde_json::from_value(c["expected"].clone()).unwrap();
        assert_eq!(s, expected, "{}", c["name"]);
    }
}

// ---- rose deals ----

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RefundJson {
    amount: Option<i64>,
    error_code: Option<String>,
    iban: String,
    loading: bool,
    success: bool,
    error: bool,
    iban_stored: bool,
}

impl From<RefundJson> for RefundState {
    fn from(j: RefundJson) -> Self {
        RefundState {
            amount: j.amount,
            error_code: j.error_code,
            iban: j.iban,
            loading: j.loading,
            success: j.success,
            error: j.error,
            iban_stored: j.iban_stored,
        }
    }
}

fn refund_state(v: &Value) -> RefundState {
    serde_json::from_value::<RefundJson>(v.clone())
        .unwrap()
        .into()
}

#[test]
fn rosedeals_refund_and_retry_states() {
    let v = vectors("rosedeals");
    for c in cases(&v, "refund") {
        let a = &c["action"];
        let action = match a["type"].as_str().unwrap() {
            "refundPending" => RefundAction::RefundPending,
            "refundSuccess" => RefundAction::RefundSuccess {
                amount: a["amount"].as_i64().unwrap(),
            },
            "refundRejected" => RefundAction::RefundRejected {
                code: text(&a["code"]),
            },
            "retryPending" => RefundAction::RetryPending,
            "retrySuccess" => RefundAction::RetrySuccess,
            "retryRejected" => RefundAction::RetryRejected {
                code: text(&a["code"]),
            },
            other => panic!("unknown refund action {other}"),
        };
        let next = deals::reduce_refund(&refund_state(&c["state"]), &action);
        assert_eq!(next, refund_state(&c["expected"]), "{}", c["name"]);
        assert_eq!(
            deals::refresh_after(&action).is_some(),
            c["refresh"] == true,
            "{}",
            c["name"]
        );
    }
}

#[test]
fn rosedeals_error_keys_and_contact_check() {
    let v = vectors("rosedeals");
    for c in cases(&v, "errorKeys") {
        // The refund and retry body (`errorCode` first), and the common one where it has
        // no `errorCode`.
        let body: Option<DealErrorBody> = match &c["body"] {
            Value::Null => None,
            b => Some(serde_json::from_value(b.clone()).unwrap()),
        };
        let code = body.as_ref().and_then(deals::refusal_code);
        assert_eq!(deals::code_key(code), c["expected"], "{c}");
        if c["body"].get("errorCode").is_none() {
            let common: Option<app::model::error::ErrorBody> = match &c["body"] {
                Value::Null => None,
                b => Some(serde_json::from_value(b.clone()).unwrap()),
            };
            assert_eq!(deals::error_key(common.as_ref()), c["expected"], "{c}");
        }
    }
    for c in cases(&v, "contact") {
        let m: ContactMessage = serde_json::from_value(c["message"].clone()).unwrap();
        let got = deals::check_contact(&m).err();
        assert_eq!(got, c["expected"].as_str(), "{}", c["name"]);
    }
}

#[derive(Deserialize)]
struct ContactJson {
    loading: bool,
    sent: bool,
    error: Option<String>,
}

fn contact_state(v: &Value) -> ContactState {
    let j: ContactJson = serde_json::from_value(v.clone()).unwrap();
    ContactState {
        loading: j.loading,
        sent: j.sent,
        error: j.error,
    }
}

#[test]
fn rosedeals_contact_send_states() {
    let v = vectors("rosedeals");
    for c in cases(&v, "contactSend") {
        let a = &c["action"];
        let action = match a["type"].as_str().unwrap() {
            "pending" => ContactAction::Pending,
            "fulfilled" => ContactAction::Fulfilled,
            "rejected" => ContactAction::Rejected {
                error: text(&a["error"]).unwrap(),
            },
            other => panic!("unknown contact action {other}"),
        };
        let next = deals::reduce_contact(&contact_state(&c["state"]), &action);
        assert_eq!(next, contact_state(&c["expected"]), "{}", c["name"]);
    }
}

// ---- help form ----

/// `base` with the case's fields over it; `{repeat, times}` is a long text.
fn help_state(v: &Value, over: &Value) -> HelpFormState {
    let mut s = v["base"].clone();
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
    serde_json::from_value(s).unwrap()
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
