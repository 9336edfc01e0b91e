//! The feature switches of spec 000 §6 added last (communications, menu and burger-menu
//! revamps, the brands place's details, the cities service of the address forms, the
//! contact form's automatic answers, in-app navigation), on SQLite and PostgreSQL with the
//! page caches on: a member of each side of each experiment gets their version, a member
//! outside experiments (performance cookies refused) the default, members of the two sides
//! interleaved on one page never get each other's, and the exposure is recorded.
use reqwest::multipart::Form;

use crate::experiments_holdback::{members_of, page, row, ADS_ONLY, PERF_ADS};
use crate::helpers::cart::Shopper;
use crate::helpers::{both, TestApp};
use app::experiments::rules::definition;

fn with_perf(s: &Shopper) -> String {
    format!("{}; {PERF_ADS}", s.cookie)
}

fn without_perf(s: &Shopper) -> String {
    format!("{}; {ADS_ONLY}", s.cookie)
}

/// The exposure of `s` to `name` is recorded, on the side `treated` says.
async fn exposed(t: &TestApp, name: &str, s: &Shopper, treated: bool) {
    let key = format!("m:{}", s.member_id);
    let (v, _, member) = row(t, name, &key).await.expect("recorded");
    assert_eq!(
        (v != definition(name).unwrap().control(), member),
        (treated, Some(s.member_id)),
        "{name}"
    );
}

const NAMES: [&str; 7] = [
    "member_communications_revamp",
    "member_menu_revamp",
    "member_burger_menu_revamp",
    "member_brands_place_details",
    "member_address_service",
    "member_contact_form",
    "member_programmatic_navigation",
];

async fn pages_follow_their_switches(t: TestApp) {
    let found = members_of(&t, &NAMES).await;
    let pair = |name: &str| {
        let (_, c, v) = found.iter().find(|(n, _, _)| *n == name).unwrap();
        (c, v)
    };

    // Communications: the summary above the sections, each line a link to its section.
    let (control, treated) = pair("member_communications_revamp");
    for _ in 0..2 {
        for (s, on) in [(control, false), (treated, true)] {
            let html = page(&t, "/memberaccount/communications", &with_perf(s)).await;
            assert_eq!(
                html.contains(r#"data-testid="communications-summary""#),
                on,
                "member {}",
                s.member_id
            );
            assert!(html.contains(r#"data-testid="preferences-form""#));
            if on {
                assert!(html.contains("<h2 id=\"summary-title\">En bref</h2>"));
                assert!(html.contains(r##"<a href="#brands-title">Marques suivies : 0</a>"##));
                assert!(html.contains("Offres personnalisées : "));
                assert!(html.contains("Partenaires commerciaux acceptés : "));
            }
        }
    }
    let html = page(&t, "/memberaccount/communications", &without_perf(treated)).await;
    assert!(!html.contains("communications-summary"), "outside: classic");
    exposed(&t, "member_communications_revamp", treated, true).await;
    exposed(&t, "member_communications_revamp", control, false).await;

    // The account menu and the burger menu, on a shared page (the members' template of the
    // home), the two sides one after the other.
    for name in ["member_menu_revamp", "member_burger_menu_revamp"] {
        let (control, treated) = pair(name);
        for _ in 0..2 {
            for (s, on) in [(control, false), (treated, true)] {
                let html = page(&t, "/", &with_perf(s)).await;
                let first = s.member_id.to_string();
                if name == "member_menu_revamp" {
                    assert_eq!(
                        html.contains(r#"class="account-menu__groups""#),
                        on,
                        "{first}"
                    );
                    assert_eq!(
                        html.matches(r#"data-testid="account-group""#).count(),
                        if on { 3 } else { 0 }
                    );
                    if on {
                        assert!(html.contains(">Mes achats</p>"));
                        assert!(html.contains(">Aide et plus</p>"));
                    } else {
                        assert!(html.contains(r#"aria-label="Mon espace" data-menu="classic""#));
                    }
                } else {
                    let revamped = r#"data-testid="lateral-menu" data-menu="revamped""#;
                    assert_eq!(html.contains(revamped), on, "{first}");
                    assert_eq!(html.contains(r#"data-testid="lateral-account""#), on);
                    // The classic burger's side panel, the revamp's disclosure.
                    assert_eq!(html.contains(r#"id="menu-legal""#), !on);
                    assert_eq!(html.contains(r#"class="lateral-menu__group""#), on);
                }
            }
        }
        let html = page(&t, "/", &without_perf(treated)).await;
        assert!(!html.contains(r#"data-menu="revamped""#), "{name}: outside");
        exposed(&t, name, treated, true).await;
    }

    // The brands place: each brand's live sales, linked, for the treated member only.
    let (control, treated) = pair("member_brands_place_details");
    for _ in 0..2 {
        for (s, on) in [(control, false), (treated, true)] {
            let html = page(&t, "/brandsplace", &with_perf(s)).await;
            assert!(html.contains(r#"data-testid="place-brand""#));
            assert_eq!(html.contains(r#"data-testid="brand-sales""#), on);
            assert_eq!(html.contains("jusqu'au "), on);
            if on {
                assert!(html.contains(r#"<a href="/catalog/"#));
                // Every brand has at least one live sale (it is listed for that).
                assert_eq!(
                    html.matches(r#"data-testid="brand-sales""#).count(),
                    html.matches(r#"data-testid="place-brand""#).count()
                );
            }
        }
    }
    let visitor = t.get("/brandsplace").await.text().await.unwrap();
    assert!(!visitor.contains("brand-sales"), "visitors: without");
    exposed(&t, "member_brands_place_details", treated, true).await;

    // The address form: the cities service for the treated member, typed for the control.
    let (control, treated) = pair("member_address_service");
    for (s, on) in [(control, false), (treated, true), (control, false)] {
        let html = page(&t, "/postsales/myaccount/addresses/", &with_perf(s)).await;
        assert!(
            html.contains(r#"data-testid="address-zipCode""#),
            "the form"
        );
        assert_eq!(html.contains("data-city-from-zip="), on);
        assert_eq!(html.contains("<datalist "), on);
    }
    let html = page(
        &t,
        "/postsales/myaccount/addresses/",
        &without_perf(control),
    )
    .await;
    assert!(html.contains("data-city-from-zip="), "outside: launched");
    exposed(&t, "member_address_service", control, false).await;

    // In-app navigation: the control's pages say to follow links with page loads.
    let (control, treated) = pair("member_programmatic_navigation");
    for (s, on) in [(control, false), (treated, true), (control, false)] {
        let html = page(&t, "/", &with_perf(s)).await;
        assert_eq!(html.contains(r#"data-navigation="pages""#), !on);
    }
    let html = page(&t, "/", &without_perf(control)).await;
    assert!(!html.contains("data-navigation="), "outside: launched");
    exposed(&t, "member_programmatic_navigation", control, false).await;
}
both!(
    pages_follow_their_switches,
    pages_follow_their_switches_on_sqlite,
    pages_follow_their_switches_on_postgres,
    |c| c.page_cache_ms = 60_000
);

/// The contact form sent by `s` with `cookie`: where it leads.
async fn send(t: &TestApp, s: &Shopper, cookie: &str, body: &str) -> String {
    let form = Form::new()
        .text("_xsrf", s.xsrf.clone())
        .text("reason", "other")
        .text("body", body.to_string());
    let res = s
        .client
        .post(t.url("/helpform/send"))
        .header("cookie", cookie)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 303);
    res.headers()["location"].to_str().unwrap().to_string()
}

async fn tickets_of(t: &TestApp, s: &Shopper) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM help_tickets WHERE member_id = $1")
        .bind(s.member_id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

const ANSWERED: &str = "Quand serai-je remboursé de mon retour ?";

/// A question the help articles answer gets the answer first for the treated member; the
/// control's goes on as a ticket, as before automatic answers.
async fn the_contact_form_answers_first_unless_held_back(t: TestApp) {
    let found = members_of(&t, &["member_contact_form"]).await;
    let (_, control, treated) = &found[0];
    for (s, on) in [(treated, true), (control, false)] {
        // The member opens the form first, as from the help centre.
        let html = page(&t, "/helpform", &with_perf(s)).await;
        assert!(html.contains(r#"id="help-form""#));
        let to = send(&t, s, &with_perf(s), ANSWERED).await;
        assert_eq!(to.starts_with("/helpform?evaluation="), on, "{to}");
        assert_eq!(to.contains("ticket="), !on, "{to}");
        assert_eq!(tickets_of(&t, s).await, if on { 0 } else { 1 });
        exposed(&t, "member_contact_form", s, on).await;
    }
    // The control's bad input is refused as anyone's: no ticket.
    for body in ["", "   "] {
        let to = send(&t, control, &with_perf(control), body).await;
        assert!(to.starts_with("/helpform?"), "{to}");
        assert!(!to.contains("ticket="), "{to}");
    }
    assert_eq!(tickets_of(&t, control).await, 1);
    // Outside the experiment (performance refused, or a consent cookie that does not
    // parse): the launched form, which answers first.
    for cookie in [
        without_perf(control),
        format!("{}; OptanonConsent=groups=C0002:%FF%", control.cookie),
    ] {
        let to = send(&t, control, &cookie, ANSWERED).await;
        assert!(to.starts_with("/helpform?evaluation="), "{to}");
    }
    assert_eq!(tickets_of(&t, control).await, 1);
}
both!(
    the_contact_form_answers_first_unless_held_back,
    the_contact_form_answers_first_unless_held_back_on_sqlite,
    the_contact_form_answers_first_unless_held_back_on_postgres
);
