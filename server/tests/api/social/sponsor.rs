//! A share link's sponsor through social sign-in: the `mgmcode` and
//! `godfatherid` the email step carried go with the provider button to the provider and
//! back, pre-fill the third-party registration's code, and are recorded with the new
//! account as the email registration records them; a code typed instead wins. Where the
//! visitor came from (utm_*, formid, partnerid) goes the same way and is recorded too.
use super::*;
use crate::helpers::TestApp;

async fn member_id(t: &TestApp, email: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM members WHERE email = $1 AND site_id = 1")
        .bind(email)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

async fn sponsor_of(t: &TestApp, email: &str) -> Option<i64> {
    let id = member_id(t, email).await;
    sqlx::query_scalar("SELECT sponsor_id FROM sponsorships WHERE sponsored_id = $1")
        .bind(id)
        .fetch_optional(&t.app.state.db.pool)
        .await
        .unwrap()
}

/// From the share link's sign-in page to the registration step: its URL.
async fn to_registration(
    t: &TestApp,
    v: &Visitor,
    email: &str,
    sponsor: &[(&str, &str)],
) -> String {
    let mut fields = vec![("provider", "google"), ("returnurl", "/gr/cart")];
    fields.extend_from_slice(sponsor);
    let res = post_form(t, v, "/gr/authentication/social/start", &fields).await;
    assert_eq!(res.status(), 303);
    let back = at_provider(t, &location(&res), email).await;
    let next = location(&get(t, v, &back).await);
    assert!(
        next.starts_with("/gr/registration?step=socialregister&ticket="),
        "{next}"
    );
    next
}

/// The registration's recorded source: utm_source, utm_campaign, form id, partner.
async fn source_of(t: &TestApp, email: &str) -> Option<(String, String, Option<i64>, String)> {
    let id = member_id(t, email).await;
    sqlx::query_as(
        "SELECT utm_source, utm_campaign, form_id, partner_id FROM member_attribution
          WHERE member_id = $1",
    )
    .bind(id)
    .fetch_optional(&t.app.state.db.pool)
    .await
    .unwrap()
}

async fn register(t: &TestApp, v: &Visitor, next: &str, code: &str, godfather: &str) {
    let ticket = param(next, "ticket");
    let res = post_form(
        t,
        v,
        "/gr/authentication/social/register",
        &[
            ("ticket", &ticket),
            ("civility", "2"),
            ("firstName", "Alice"),
            ("lastName", "Martin"),
            ("cgv", "1"),
            ("privacyPolicy", "1"),
            ("sponsorshipCode", code),
            ("godfatherid", godfather),
        ],
    )
    .await;
    assert_eq!(location(&res), "/gr/cart", "signed in");
    assert!(member_cookie(&res).is_some());
}

async fn share_link_sponsor_goes_through_the_provider(t: TestApp) {
    let sponsor = member_id(&t, server::demo::DEMO_EMAIL).await;
    let code = app::sponsorship::store::ensure_code(&t.app.state.db, sponsor, 0)
        .await
        .unwrap();
    let other = member_id(&t, server::demo::DEMO_EMAIL_2).await;

    // The share link's sign-in page puts the sponsor in the provider form.
    let html = t
        .get(&format!(
            "/gr/registration?mgmcode={code}&godfatherid={sponsor}"
        ))
        .await
        .text()
        .await
        .unwrap();
    let form = html
        .split("data-testid=\"social-form\"")
        .nth(1)
        .expect("social form");
    let form = form.split("</form>").next().unwrap();
    assert!(
        form.contains(&format!("name=\"mgmcode\" value=\"{code}\"")),
        "{form}"
    );
    assert!(form.contains(&format!("name=\"godfatherid\" value=\"{sponsor}\"")));

    // Code 13: the code is pre-filled; posted as is, the sponsor is recorded.
    let v = visitor(&t).await;
    let id = sponsor.to_string();
    let next = to_registration(
        &t,
        &v,
        "filleule.g@example.com",
        &[("mgmcode", &code), ("godfatherid", &id)],
    )
    .await;
    let page = get(&t, &v, &next).await.text().await.unwrap();
    assert!(
        page.contains(&format!("name=\"sponsorshipCode\" value=\"{code}\"")),
        "pre-filled"
    );
    register(&t, &v, &next, &code, &id).await;
    assert_eq!(
        sponsor_of(&t, "filleule.g@example.com").await,
        Some(sponsor)
    );

    assert_eq!(
        source_of(&t, "filleule.g@example.com").await,
        None,
        "no source given"
    );

    // A campaign link's source goes to the provider and back with the visitor.
    let html = t
        .get("/gr/authentication?utm_source=partner-blog&utm_campaign=no%C3%ABl&formid=4")
        .await
        .text()
        .await
        .unwrap();
    let form = html.split("data-testid=\"social-form\"").nth(1).unwrap();
    assert!(form
        .split("</form>")
        .next()
        .unwrap()
        .contains("name=\"utm_source\" value=\"partner-blog\""));
    let v = visitor(&t).await;
    let next = to_registration(
        &t,
        &v,
        "source.k@example.com",
        &[
            ("utm_source", "partner-blog"),
            ("utm_campaign", "noël"),
            ("formid", "4"),
            ("partnerid", "p7"),
        ],
    )
    .await;
    register(&t, &v, &next, "", "").await;
    assert_eq!(
        source_of(&t, "source.k@example.com").await,
        Some(("partner-blog".into(), "noël".into(), Some(4), "p7".into()))
    );

    // Fields left out (a client that only posts the essentials): the link's sponsor still counts.
    let v = visitor(&t).await;
    let next = to_registration(&t, &v, "filleule.h@example.com", &[("godfatherid", &id)]).await;
    register(&t, &v, &next, "", "").await;
    assert_eq!(
        sponsor_of(&t, "filleule.h@example.com").await,
        Some(sponsor)
    );

    // Another sponsor typed at the registration wins over the link's.
    let other_code = app::sponsorship::store::ensure_code(&t.app.state.db, other, 0)
        .await
        .unwrap();
    let v = visitor(&t).await;
    let next = to_registration(&t, &v, "filleule.i@example.com", &[("mgmcode", &code)]).await;
    register(&t, &v, &next, &other_code, "").await;
    assert_eq!(sponsor_of(&t, "filleule.i@example.com").await, Some(other));

    // No link, an unknown code: the account is made without a sponsor, no error.
    let v = visitor(&t).await;
    let next = to_registration(&t, &v, "filleule.j@example.com", &[]).await;
    register(&t, &v, &next, "ZZZZ2222", "").await;
    assert_eq!(sponsor_of(&t, "filleule.j@example.com").await, None);
}
both_social!(
    share_link_sponsor_goes_through_the_provider,
    share_link_sponsor_on_sqlite,
    share_link_sponsor_on_postgres
);
