//! Holdback experiments (spec 000 §6, §8) on SQLite and PostgreSQL: the
//! launched features (last viewed, contact-form attachments, sponsored banners) stay for
//! the variation and for everyone outside the experiments, and go for the small control;
//! their exposures are recorded for the report. When the experiments cannot be read, the
//! page logs "ABTesting fetch error" and renders every feature at its default.
use reqwest::Method;

use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::logs::Logs;
use crate::helpers::{both, TestApp};
use app::experiments::rules::{definition, Settings, ANON_ID_COOKIE};

/// Pinned in `app/src/experiments/rules_tests.rs`: `anonymous_sponsored_banners`
/// `var2_programmatic` (and `anonymous_dynamic_pricing` on) / control.
const ANON_ADS: &str = "00000000000000000000000000000001";
const ANON_NO_ADS: &str = "00000000000000000000000000000018";
/// Performance (experiments) and behaviour (advertising) accepted.
pub(crate) const PERF_ADS: &str = "OptanonConsent=groups=C0001:1,C0002:1,C0003:0,C0004:1,C0005:0";
/// Advertising accepted, performance refused: outside any experiment.
pub(crate) const ADS_ONLY: &str = "OptanonConsent=groups=C0001:1,C0002:0,C0003:0,C0004:1,C0005:0";
const SPONSORED: &str = r#"data-banner-kind="MediaAdsBanner""#;
const AD_SCRIPT: &str = r#"src="/js/ads.js""#;
const LAST_VIEWED: &str = r#"data-testid="travel-last-viewed""#;
const FILES: &str = r#"data-testid="help-files""#;

pub(crate) async fn page(t: &TestApp, path: &str, cookie: &str) -> String {
    let res = t.get_with_cookie(path, cookie).await;
    assert_eq!(res.status(), 200, "{path}");
    res.text().await.unwrap()
}

fn variation_of(name: &str, key: &str) -> &'static str {
    Settings::default().variation(definition(name).unwrap(), key)
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

/// Members of site 1 in the control and in the variation of each member holdback,
/// found by the deterministic bucketing (10% control: a few dozen members at most).
pub(crate) async fn members_of(
    t: &TestApp,
    names: &[&'static str],
) -> Vec<(&'static str, Shopper, Shopper)> {
    let mut control: Vec<Option<Shopper>> = names.iter().map(|_| None).collect();
    let mut treated: Vec<Option<Shopper>> = names.iter().map(|_| None).collect();
    for _ in 0..400 {
        if control.iter().chain(&treated).all(Option::is_some) {
            break;
        }
        let s = shopper(t, 99).await;
        let key = format!("m:{}", s.member_id);
        let wanted = names.iter().enumerate().find_map(|(i, n)| {
            let d = definition(n).unwrap();
            let v = variation_of(n, &key);
            let slot = if v == d.control() {
                &control[i]
            } else {
                &treated[i]
            };
            slot.is_none().then_some((i, v == d.control()))
        });
        if let Some((i, is_control)) = wanted {
            if is_control {
                control[i] = Some(s);
            } else {
                treated[i] = Some(s);
            }
        }
    }
    names
        .iter()
        .zip(control.into_iter().zip(treated))
        .map(|(n, (c, v))| {
            (
                *n,
                c.expect("a control member"),
                v.expect("a treated member"),
            )
        })
        .collect()
}

/// A live travel product of site 1: (sale, product).
async fn travel_product(t: &TestApp) -> (i64, i64) {
    let sale: i64 = sqlx::query_scalar(
        "SELECT MIN(id) FROM sales WHERE site_id = 1 AND campaign_kind = 'TRAVEL'",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let product: i64 = sqlx::query_scalar("SELECT MIN(id) FROM products WHERE sale_id = $1")
        .bind(sale)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    (sale, product)
}

async fn holdbacks_switch_their_features(t: TestApp) {
    // Anonymous visitors: the pinned ids, each view recorded.
    for (anon, shown, variation) in [
        (ANON_ADS, true, "var2_programmatic"),
        (ANON_NO_ADS, false, "control"),
    ] {
        for n in 1..=2 {
            let html = page(
                &t,
                "/?site=1",
                &format!("{PERF_ADS}; {ANON_ID_COOKIE}={anon}"),
            )
            .await;
            assert_eq!(html.contains(SPONSORED), shown, "{anon}: banners");
            assert_eq!(html.contains(AD_SCRIPT), shown, "{anon}: ad script");
            assert!(
                html.contains(r#"data-testid="banner-tile""#),
                "other banners stay"
            );
            let key = format!("a:{anon}");
            assert_eq!(
                row(&t, "anonymous_sponsored_banners", &key).await,
                Some((variation.to_string(), n, None))
            );
        }
    }
    // Outside any experiment (no performance consent): the launched feature is there.
    let html = page(
        &t,
        "/?site=1",
        &format!("{ADS_ONLY}; {ANON_ID_COOKIE}={ANON_NO_ADS}"),
    )
    .await;
    assert!(html.contains(SPONSORED) && html.contains(AD_SCRIPT));

    // Members: one of each side of each member holdback.
    let (sale, product) = travel_product(&t).await;
    let found = members_of(
        &t,
        &[
            "member_last_viewed",
            "member_contact_form_attachments",
            "member_sponsored_banners",
        ],
    )
    .await;
    for (name, control, treated) in &found {
        for (s, shown) in [(control, false), (treated, true)] {
            let with = format!("{}; {PERF_ADS}", s.cookie);
            let without = format!("{}; {ADS_ONLY}", s.cookie);
            let (path, marker) = match *name {
                "member_last_viewed" => {
                    // Opening a product puts it in the member's list (kept for everyone).
                    let (status, body) = s
                        .call(
                            &t,
                            Method::GET,
                            &format!("/api/travel/v1/campaigns/{sale}/products/{product}"),
                            None,
                        )
                        .await;
                    assert_eq!(status, 200, "{body}");
                    ("/home/travel", LAST_VIEWED)
                }
                "member_contact_form_attachments" => ("/helpform", FILES),
                _ => ("/", SPONSORED),
            };
            let html = page(&t, path, &with).await;
            assert_eq!(
                html.contains(marker),
                shown,
                "{name} member {}",
                s.member_id
            );
            if *name == "member_sponsored_banners" {
                assert_eq!(html.contains(AD_SCRIPT), shown);
            }
            // Without performance consent the member is outside: the feature is there.
            let html = page(&t, path, &without).await;
            assert!(html.contains(marker), "{name}: outside any experiment");
            let key = format!("m:{}", s.member_id);
            let (v, exposures, member) = row(&t, name, &key).await.expect("recorded");
            let d = definition(name).unwrap();
            assert_eq!(
                (v == d.control(), exposures, member),
                (!shown, 1, Some(s.member_id))
            );
        }
    }
    // The travel product page's list of other trips follows the same switch.
    let last_viewed = found
        .iter()
        .find(|(n, _, _)| *n == "member_last_viewed")
        .unwrap();
    let other: i64 =
        sqlx::query_scalar("SELECT MIN(id) FROM products WHERE sale_id = $1 AND id <> $2")
            .bind(sale)
            .bind(product)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    for (s, shown) in [(&last_viewed.1, false), (&last_viewed.2, true)] {
        let html = page(
            &t,
            &format!("/t/p/{sale}/{other}"),
            &format!("{}; {PERF_ADS}", s.cookie),
        )
        .await;
        assert!(
            html.contains(&format!(
                r#"<article data-product-id="{other}" class="trip">"#
            )),
            "the travel product page"
        );
        assert_eq!(
            html.contains(LAST_VIEWED),
            shown,
            "product page, member {}",
            s.member_id
        );
    }

    // The report counts them as the other experiments.
    let lines = app::experiments::service::report(&t.app.state.db)
        .await
        .unwrap();
    let visitors = |e: &str, v: &str| {
        lines
            .iter()
            .find(|l| l.counts.experiment == e && l.counts.variation == v)
            .map(|l| l.counts.visitors)
            .unwrap_or(0)
    };
    assert_eq!(visitors("anonymous_sponsored_banners", "control"), 1);
    assert_eq!(
        visitors("anonymous_sponsored_banners", "var2_programmatic"),
        1
    );
    for name in ["member_last_viewed", "member_contact_form_attachments"] {
        assert!(
            visitors(name, "control") >= 1 && visitors(name, "var1_enabled") >= 1,
            "{name}"
        );
    }
    assert!(visitors("member_sponsored_banners", "control") >= 1);
    assert!(visitors("member_sponsored_banners", "var2_programmatic") >= 1);
}
both!(
    holdbacks_switch_their_features,
    holdbacks_switch_their_features_on_sqlite,
    holdbacks_switch_their_features_on_postgres
);

async fn unreadable_experiments_give_the_defaults(t: TestApp) {
    let (logs, _guard) = Logs::capture();
    let s = shopper(&t, 99).await;
    // The experiments' table is gone: every page view's read and record fails.
    sqlx::query("DROP TABLE experiment_assignments")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    // The holdback control and the dynamic pricing "on" id get the defaults: sponsored
    // banners (launched) shown, the saving (new) not.
    let html = page(
        &t,
        "/?site=1",
        &format!("{PERF_ADS}; {ANON_ID_COOKIE}={ANON_NO_ADS}"),
    )
    .await;
    assert!(
        html.contains(SPONSORED) && html.contains(AD_SCRIPT),
        "launched: on"
    );
    assert!(
        !html.contains("anonymous_sponsored_banners"),
        "in no experiment"
    );
    let html = page(
        &t,
        "/c/vente/1001/0?site=1",
        &format!("{PERF_ADS}; {ANON_ID_COOKIE}={ANON_ADS}"),
    )
    .await;
    assert!(!html.contains(r#"data-testid="price-saving""#), "new: off");
    let html = page(&t, "/helpform", &format!("{}; {PERF_ADS}", s.cookie)).await;
    assert!(html.contains(FILES), "launched: on for a member");
    assert!(
        !html.contains(r#"data-item="rosedeals""#),
        "new: off for a member"
    );
    let logged = logs.text();
    assert!(
        logged.matches("ABTesting fetch error").count() >= 3,
        "one per page: {logged}"
    );
    assert!(logged.contains("ERROR"), "{logged}");
}
both!(
    unreadable_experiments_give_the_defaults,
    unreadable_experiments_give_the_defaults_on_sqlite,
    unreadable_experiments_give_the_defaults_on_postgres
);

/// The vouchers revamp (a new feature, 50/50): the control and everyone outside the
/// experiment see the classic titles and empty texts, the variation the revamped ones,
/// which count what each list holds; the exposure is recorded as for the other pages.
async fn the_vouchers_page_has_classic_and_revamped_texts(t: TestApp) {
    let name = "member_vouchers_revamp";
    let found = members_of(&t, &[name]).await;
    let (_, control, treated) = &found[0];
    let cards = |html: &str, list: &str| {
        let start = html.find(&format!(r#"data-testid="{list}""#)).unwrap();
        let end = html[start..].find("</ul>").unwrap();
        html[start..start + end]
            .matches(r#"data-testid="voucher-card""#)
            .count()
    };
    for (s, revamped) in [(control, false), (treated, true)] {
        let html = page(
            &t,
            "/vouchers-promotions",
            &format!("{}; {PERF_ADS}", s.cookie),
        )
        .await;
        let (mine, promotions) = (cards(&html, "my-vouchers"), cards(&html, "promotions"));
        if revamped {
            assert!(
                html.contains(r#"data-titles="revamped""#),
                "member {}",
                s.member_id
            );
            assert!(html.contains(&format!(
                r#"id="my-vouchers-title">Vos codes de réduction ({mine})<"#
            )));
            assert!(html.contains(&format!("Offres pour tous les membres ({promotions})")));
        } else {
            assert!(
                html.contains(r#"data-titles="classic""#),
                "member {}",
                s.member_id
            );
            assert!(html.contains(r#"id="my-vouchers-title">Mes bons d"#));
            assert!(html.contains(r#"id="promotions-title">Promotions du moment<"#));
            assert!(!html.contains("Vos codes de réduction"));
        }
        // The new member has no voucher: the empty text of the version shown.
        assert_eq!(mine, 0);
        assert_eq!(
            html.contains("Pas encore de code."),
            revamped,
            "member {}",
            s.member_id
        );
        // Outside the experiment (performance refused): the classic texts.
        let html = page(
            &t,
            "/vouchers-promotions",
            &format!("{}; {ADS_ONLY}", s.cookie),
        )
        .await;
        assert!(html.contains(r#"data-titles="classic""#));
        let key = format!("m:{}", s.member_id);
        let (v, exposures, member) = row(&t, name, &key).await.expect("recorded");
        assert_eq!(
            (v == definition(name).unwrap().control(), exposures, member),
            (!revamped, 1, Some(s.member_id))
        );
    }
}
both!(
    the_vouchers_page_has_classic_and_revamped_texts,
    the_vouchers_page_has_classic_and_revamped_texts_on_sqlite,
    the_vouchers_page_has_classic_and_revamped_texts_on_postgres
);
