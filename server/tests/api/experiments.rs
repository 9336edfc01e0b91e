//! Experiments (A/B) on SQLite and PostgreSQL: the variations call (shape, same
//! id → same variation, member and anonymous names, localized 400s, no credentials, no
//! recording), the anonymous id cookie and the consent it needs, the features switched
//! in the first HTML, the recorded exposures, and the report's figures (also as the
//! `server experiments report` command).
use std::process::Command;

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::cart::{option_with_stock, shopper, Shopper};
use crate::helpers::{both, TestApp};
use app::experiments::rules::{Settings, Subject, ANON_ID_COOKIE};

/// Pinned in `app/src/experiments/rules_tests.rs`: `anonymous_dynamic_pricing` on / off.
pub(crate) const ANON_ON: &str = "00000000000000000000000000000001";
pub(crate) const ANON_OFF: &str = "00000000000000000000000000000004";
pub(crate) const PERF_OK: &str = "OptanonConsent=groups=C0001:1,C0002:1,C0003:0,C0004:0,C0005:0";
const PERF_REFUSED: &str = "OptanonConsent=groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0";
pub(crate) const CATALOG: &str = "/c/vente/1001/0?site=1";

fn variations_path(site: &str, member: &str) -> String {
    format!("/api/abtesting/v1/sites/{site}/members/{member}/variations")
}

/// The variations call as a page script would send it: no cookie, no token.
pub(crate) async fn call(t: &TestApp, site: &str, member: &str, body: Value) -> (u16, Value) {
    let res = t
        .client
        .post(t.url(&variations_path(site, member)))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

pub(crate) fn variation(body: &Value, i: usize) -> (String, String, bool) {
    let v = &body["variations"][i];
    (
        v["experimentName"].as_str().unwrap().to_string(),
        v["variation"].as_str().unwrap().to_string(),
        v["control"].as_bool().unwrap(),
    )
}

pub(crate) fn expected(name: &str, key: &str) -> &'static str {
    Settings::default().variation(app::experiments::rules::definition(name).unwrap(), key)
}

async fn variations_call(t: TestApp) {
    let anon = |names: &[&str]| json!({ "experimentNames": names });
    // Anonymous ids: the pinned variations, the same on every call.
    for (id, want) in [(ANON_ON, "on"), (ANON_OFF, "off")] {
        for _ in 0..3 {
            let (status, body) = call(&t, "1", id, anon(&["anonymous_dynamic_pricing"])).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(body["variations"].as_array().unwrap().len(), 1);
            let (name, v, control) = variation(&body, 0);
            assert_eq!(
                (name.as_str(), v.as_str(), control),
                ("anonymous_dynamic_pricing", want, want == "off")
            );
        }
    }
    // A member, with a segment: member names only, in the order asked.
    let names = [
        "member_rosedeals_menu",
        "member_dynamic_pricing",
        "member_favourites_page",
    ];
    for member in ["1", "2", "3", "77"] {
        let body = json!({ "experimentNames": names, "segmentId": "vip" });
        let (status, body) = call(&t, "2", member, body).await;
        assert_eq!(status, 200, "{body}");
        for (i, name) in names.iter().enumerate() {
            let (got, v, _) = variation(&body, i);
            assert_eq!(&got, name);
            assert_eq!(v, expected(name, &format!("m:{member}")), "{member} {name}");
        }
    }
    let (_, m3) = call(&t, "1", "3", anon(&["member_rosedeals_menu"])).await;
    assert_eq!(variation(&m3, 0).1, "var1_enabled", "pinned: member 3");
    // Refusals: 400 with the code and the message in the site's language.
    let cases: [(&str, String, Value, &str, &str); 7] = [
        (
            "1",
            "3".into(),
            anon(&["anonymous_dynamic_pricing"]),
            "unknown_experiment",
            "Cette expérience n'existe pas pour ce type de visiteur.",
        ),
        (
            "2",
            ANON_ON.into(),
            anon(&["member_rosedeals_menu"]),
            "unknown_experiment",
            "Dieses Experiment gibt es für diese Art von Besucher nicht.",
        ),
        (
            "3",
            ANON_ON.into(),
            json!({ "experimentNames": ["anonymous_dynamic_pricing"], "segmentId": "s" }),
            "segment_for_anonymous",
            "El segmento está reservado a los socios.",
        ),
        (
            "4",
            "abc".into(),
            anon(&["member_rosedeals_menu"]),
            "invalid_member_id",
            "L'identificativo del socio o del visitatore non è valido.",
        ),
        (
            "76",
            "3".into(),
            anon(&[]),
            "invalid_experiment_names",
            "Geef 1 tot 32 namen van experimenten op.",
        ),
        (
            "999",
            "3".into(),
            anon(&["member_rosedeals_menu"]),
            "unknown_site",
            "Ce site n'existe pas.",
        ),
        (
            "1",
            "3".into(),
            anon(&["nope"]),
            "unknown_experiment",
            "Cette expérience n'existe pas pour ce type de visiteur.",
        ),
    ];
    for (site, member, body, code, message) in cases {
        let (status, err) = call(&t, site, &member, body).await;
        assert_eq!(status, 400, "{site} {member}: {err}");
        assert_eq!(err["error_code"], code, "{err}");
        assert_eq!(err["message"], message, "{err}");
        assert!(err["error_description"]
            .as_str()
            .unwrap()
            .starts_with("experiments.errors."));
    }
    let res = t
        .client
        .post(t.url(&variations_path("1", "3")))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    // The call records nothing, and it is in the OpenAPI document.
    assert_eq!(
        t.count("SELECT COUNT(*) FROM experiment_assignments").await,
        0
    );
    let doc: Value = t.get("/api/openapi.json").await.json().await.unwrap();
    let op =
        &doc["paths"]["/api/abtesting/v1/sites/{siteId}/members/{memberId}/variations"]["post"];
    assert!(op.is_object(), "documented");
    assert!(op["requestBody"].is_object());
}
both!(
    variations_call,
    variations_call_on_sqlite,
    variations_call_on_postgres
);

fn set_cookie(headers: &reqwest::header::HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(str::to_string)
}

/// A page with these cookies: its headers and HTML.
pub(crate) async fn page(
    t: &TestApp,
    path: &str,
    cookie: &str,
) -> (reqwest::header::HeaderMap, String) {
    let res = t.get_with_cookie(path, cookie).await;
    assert_eq!(res.status(), 200, "{path}");
    let headers = res.headers().clone();
    (headers, res.text().await.unwrap())
}

pub(crate) async fn row(
    t: &TestApp,
    experiment: &str,
    visitor: &str,
) -> Option<(String, i64, Option<i64>)> {
    app::experiments::store::assignment(&t.app.state.db, experiment, visitor)
        .await
        .unwrap()
}

/// `s` buys one unit and pays: a paid order.
pub(crate) async fn buy(t: &TestApp, s: &Shopper) {
    let opt = option_with_stock(t, 3, 50).await;
    let add = json!({ "product_id": opt.to_string(), "quantity": 1, "cart_type": "fs" });
    let (status, body) = s
        .call(t, Method::POST, "/api/cartproxy/v1/item", Some(add))
        .await;
    assert_eq!(status, 201, "{body}");
    let pipe = "/api/cartproxy/orderpiper/cart/v3";
    let (status, frozen) = s.call(t, Method::GET, pipe, None).await;
    assert_eq!(status, 200, "{frozen}");
    let pay = json!({ "cartHash": frozen["cartHash"], "generateDeeplinkReturnUrl": false, "card": "4242424242424242" });
    let (status, paid) = s
        .call(t, Method::POST, &format!("{pipe}/pay"), Some(pay))
        .await;
    assert_eq!(status, 200, "{paid}");
}

async fn pages_switch_record_and_report(t: TestApp) {
    // First visit with performance consent: the id cookie, nothing recorded yet.
    let (res, _) = page(&t, CATALOG, PERF_OK).await;
    let c = set_cookie(&res, ANON_ID_COOKIE).expect("the anonymous id cookie");
    let id = c
        .split(';')
        .next()
        .unwrap()
        .split('=')
        .nth(1)
        .unwrap()
        .to_string();
    assert!(app::experiments::rules::is_anon_id(&id), "{c}");
    assert!(
        c.contains("Max-Age=34128000")
            && c.contains("HttpOnly")
            && c.contains("SameSite=Lax")
            && c.contains("Path=/"),
        "{c}"
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM experiment_assignments").await,
        0
    );
    // Coming back with it: the same id, recorded, no new cookie; the page says its variation.
    let (res, html) = page(&t, CATALOG, &format!("{PERF_OK}; {ANON_ID_COOKIE}={id}")).await;
    assert!(set_cookie(&res, ANON_ID_COOKIE).is_none());
    let key = Subject::Anonymous(id.clone()).key();
    let want = expected("anonymous_dynamic_pricing", &key);
    assert_eq!(
        row(&t, "anonymous_dynamic_pricing", &key).await,
        Some((want.to_string(), 1, None))
    );
    assert_eq!(
        html.contains("data-testid=\"price-saving\""),
        want == "on",
        "{want}"
    );
    // The pinned ids: the switch changes the first HTML; each view counts.
    for (anon, on) in [(ANON_ON, true), (ANON_OFF, false)] {
        for n in 1..=2 {
            let (_, html) = page(&t, CATALOG, &format!("{PERF_OK}; {ANON_ID_COOKIE}={anon}")).await;
            assert_eq!(html.contains("data-testid=\"price-saving\""), on, "{anon}");
            let key = Subject::Anonymous(anon.into()).key();
            let (v, exposures, _) = row(&t, "anonymous_dynamic_pricing", &key).await.unwrap();
            assert_eq!((v.as_str(), exposures), (if on { "on" } else { "off" }, n));
        }
    }
    // Without performance consent: today's page, no record, and the id is removed.
    let before = t.count("SELECT COUNT(*) FROM experiment_assignments").await;
    let (res, html) = page(
        &t,
        CATALOG,
        &format!("{PERF_REFUSED}; {ANON_ID_COOKIE}={ANON_ON}"),
    )
    .await;
    assert!(!html.contains("data-testid=\"price-saving\""));
    let gone = set_cookie(&res, ANON_ID_COOKIE).expect("the id is removed");
    assert!(gone.contains("Max-Age=0"), "{gone}");
    let (res, _) = page(&t, CATALOG, "").await;
    assert!(
        set_cookie(&res, ANON_ID_COOKIE).is_none(),
        "no consent answer: no id"
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM experiment_assignments").await,
        before
    );

    // Members: bucketed by member id; the rose-deal entry follows its variation. Find one
    // member of each variation.
    let mut treated = None;
    let mut control = None;
    for _ in 0..40 {
        let s = shopper(&t, 99).await;
        let v = expected("member_rosedeals_menu", &format!("m:{}", s.member_id));
        if v == "var1_enabled" && treated.is_none() {
            treated = Some(s);
        } else if v == "control" && control.is_none() {
            control = Some(s);
        }
        if treated.is_some() && control.is_some() {
            break;
        }
    }
    let (treated, control) = (treated.unwrap(), control.unwrap());
    for (s, entry) in [(&treated, true), (&control, false)] {
        let (_, html) = page(&t, "/", &format!("{}; {PERF_OK}", s.cookie)).await;
        assert_eq!(
            html.contains("data-item=\"rosedeals\""),
            entry,
            "member {}",
            s.member_id
        );
        let (_, html) = page(&t, "/", &format!("{}; {PERF_REFUSED}", s.cookie)).await;
        assert!(
            !html.contains("data-item=\"rosedeals\""),
            "no consent: the control"
        );
    }
    // The treated member signs in on the browser that had the pinned "on" id: that
    // anonymous assignment now counts the member's orders.
    let (_, _) = page(
        &t,
        "/",
        &format!("{}; {PERF_OK}; {ANON_ID_COOKIE}={ANON_ON}", treated.cookie),
    )
    .await;
    let on_key = Subject::Anonymous(ANON_ON.into()).key();
    assert_eq!(
        row(&t, "anonymous_dynamic_pricing", &on_key)
            .await
            .unwrap()
            .2,
        Some(treated.member_id)
    );
    buy(&t, &treated).await;

    let lines = app::experiments::service::report(&t.app.state.db)
        .await
        .unwrap();
    let find = |e: &str, v: &str| {
        lines
            .iter()
            .find(|l| l.counts.experiment == e && l.counts.variation == v)
            .unwrap_or_else(|| panic!("{e}/{v} in {lines:?}"))
            .clone()
    };
    let rose = find("member_rosedeals_menu", "var1_enabled");
    assert_eq!((rose.counts.visitors, rose.counts.conversions), (1, 1));
    assert_eq!(rose.rate, 1.0);
    let rose_control = find("member_rosedeals_menu", "control");
    assert_eq!(
        (
            rose_control.counts.visitors,
            rose_control.counts.conversions
        ),
        (1, 0)
    );
    let on = find("anonymous_dynamic_pricing", "on");
    let off = find("anonymous_dynamic_pricing", "off");
    assert_eq!(on.counts.conversions, 1);
    assert_eq!(off.counts.conversions, 0);
    assert_eq!(
        on.counts.visitors + off.counts.visitors,
        3,
        "the first id and the two pinned"
    );
    let (lo, hi) =
        app::experiments::rules::wilson(1, on.counts.visitors, app::experiments::rules::Z95);
    assert_eq!((on.low, on.high), (lo, hi));
    // The operator's command prints the same figures.
    let out = Command::new(env!("CARGO_BIN_EXE_server"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", &t.app.config.database_url)
        .env("ROSACE_DATA_DIR", &t.app.config.data_dir)
        .env("RUST_LOG", "warn")
        .args(["experiments", "report"])
        .output()
        .expect("run the server binary");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("member_rosedeals_menu") && l.contains("var1_enabled"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains("100.00%") && line.contains("[20.65%, 100.00%]"),
        "{line}"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_server"))
        .env_clear()
        .env("DATABASE_URL", &t.app.config.database_url)
        .args(["experiments", "nope"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
both!(
    pages_switch_record_and_report,
    pages_switch_record_and_report_on_sqlite,
    pages_switch_record_and_report_on_postgres
);
