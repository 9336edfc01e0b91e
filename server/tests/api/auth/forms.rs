//! The sign-in HTML forms without scripts, and CSRF on them.
use crate::helpers::{cookie_value, start, Backend};

#[tokio::test]
async fn html_forms_work_without_scripts_and_refuse_cross_site_posts() {
    let t = start(Backend::Sqlite).await;
    let page = t.get("/gr/authentication?ReturnUrl=/gr/cart").await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let html = page.text().await.unwrap();
    assert!(
        html.contains(&format!("name=\"_xsrf\" value=\"{xsrf}\"")),
        "the form carries the token"
    );
    let form = |fields: &[(&str, &str)]| {
        fields
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<Vec<_>>()
    };

    // Without the token (a cross-site post): 403, nothing happens.
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .form(&form(&[
            ("step", "password"),
            ("email", "demo@rosace.test"),
            ("password", server::demo::DEMO_PASSWORD),
        ]))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(t.count("SELECT COUNT(*) FROM sessions").await, 0);

    // Email step: a known email goes to the password step.
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .form(&form(&[
            ("_xsrf", &xsrf),
            ("step", "email"),
            ("email", "demo@rosace.test"),
            ("returnurl", "/gr/cart"),
        ]))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .starts_with("/gr/authentication?step=password&email=demo%40rosace.test"));

    // Wrong password: back to the step with code 3's message key.
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .form(&form(&[
            ("_xsrf", &xsrf),
            ("step", "password"),
            ("email", "demo@rosace.test"),
            ("password", "nope"),
            ("returnurl", "/gr/cart"),
        ]))
        .send()
        .await
        .unwrap();
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(location.contains("error=auth.login.error.3"), "{location}");
    let html = t.get(&location).await.text().await.unwrap();
    assert!(
        html.contains("Mot de passe incorrect"),
        "localized code 3 message"
    );

    // Right password: 303 to the ReturnUrl with the session.
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .form(&form(&[
            ("_xsrf", &xsrf),
            ("step", "password"),
            ("email", "demo@rosace.test"),
            ("password", server::demo::DEMO_PASSWORD),
            ("returnurl", "/gr/cart"),
        ]))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/gr/cart");
    let session = cookie_value(&res, app::platform::session::COOKIE).unwrap();
    assert_eq!(
        t.get_with_cookie("/gr/cart", &format!("rosace_session={session}"))
            .await
            .status(),
        200
    );

    // Logout by a same-site navigation ends the session; a cross-site one does not.
    let res = t
        .client
        .get(t.url("/authentication/logout/"))
        .header("cookie", format!("rosace_session={session}"))
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 302);
    assert_eq!(
        t.get_with_cookie("/gr/cart", &format!("rosace_session={session}"))
            .await
            .status(),
        200
    );
    let res = t
        .client
        .get(t.url("/authentication/logout/"))
        .header("cookie", format!("rosace_session={session}"))
        .header("sec-fetch-site", "same-origin")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(
        t.get_with_cookie("/gr/cart", &format!("rosace_session={session}"))
            .await
            .status(),
        302
    );
}

/// A refused registration comes back as it was left: every error by its field, everything
/// typed but the password (in a cookie scoped to the page, not the address), with the
/// anonymous page cache on: another visitor opening the same address sees none of it.
#[tokio::test]
async fn a_refused_registration_keeps_every_field_and_error() {
    let t = crate::helpers::start_with(Backend::Sqlite, |c| c.page_cache_ms = 60_000).await;
    let page = t.get("/gr/authentication").await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let fields = [
        ("_xsrf", xsrf.as_str()),
        ("step", "register"),
        ("email", "jean-pierre@example.com"),
        ("password", "Velvet-Orchard-42"),
        ("civility", "1"),
        ("firstName", "Jean-Pierre"),
        ("lastName", "R2D2"),
        ("birthDate", "31/02/1990"),
        ("zipCode", "75011"),
        ("city", "Paris"),
        ("cgv", "1"),
        ("returnurl", "/gr/cart"),
    ];
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.starts_with("/gr/registration?retry=1&step=register"),
        "{location}"
    );
    assert!(
        !location.contains("R2D2") && !location.contains("jean-pierre"),
        "{location}"
    );
    let draft = cookie_value(&res, "rosace_registration_form").expect("the draft cookie");
    let set = res.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        set.contains("Path=/gr/registration") && set.contains("HttpOnly"),
        "{set}"
    );
    assert!(!draft.contains("Velvet"), "the password is never kept");
    assert_eq!(
        t.count("SELECT COUNT(*) FROM members WHERE email = 'jean-pierre@example.com'")
            .await,
        0
    );

    let html = t
        .get_with_cookie(
            &location,
            &format!(
                "{}; rosace_registration_form={draft}",
                crate::helpers::xsrf_cookie(&xsrf)
            ),
        )
        .await
        .text()
        .await
        .unwrap();
    for faulty in ["lastName", "birthDate", "privacyPolicy"] {
        assert!(
            html.contains(&format!("data-testid=\"error-{faulty}\"")),
            "{faulty}"
        );
    }
    assert!(
        !html.contains("data-testid=\"error-firstName\""),
        "Jean-Pierre is a name"
    );
    assert!(html.contains("Lettres, espaces") || html.contains("lettres, des espaces"));
    for kept in [
        "jean-pierre@example.com",
        "Jean-Pierre",
        "R2D2",
        "31/02/1990",
        "75011",
        "Paris",
    ] {
        assert!(html.contains(&format!("value=\"{kept}\"")), "{kept} kept");
    }
    assert!(
        html.contains("name=\"civility\" value=\"1\" checked"),
        "civility kept"
    );
    assert!(
        html.contains("name=\"cgv\" value=\"1\" required checked"),
        "cgv kept"
    );
    assert!(!html.contains("Velvet-Orchard-42"));

    // The same address in another browser: an empty form, nothing of the first visitor's.
    let other = t.get(&location).await.text().await.unwrap();
    assert!(!other.contains("R2D2") && !other.contains("jean-pierre@example.com"));
    assert!(!other.contains("error-birthDate"));
    // An entry link that names the member fills the name fields (spec 000 §2); a draft,
    // when there is one, wins (above).
    let named = t
        .get("/gr/registration?step=register&firstname=Jean-Pierre&lastname=N%E2%80%99Diaye")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        named.contains("value=\"Jean-Pierre\""),
        "first name from the link"
    );
    assert!(
        named.contains("value=\"N’Diaye\""),
        "last name from the link"
    );
}

/// The registration's zip code takes digits only where the server accepts digits only
/// (spec 000 §5 key filters); the Dutch "1234 AB" is left to the server.
#[tokio::test]
async fn the_registration_zip_code_filters_keys_as_the_site_checks_it() {
    let t = start(Backend::Sqlite).await;
    let zip_input = |html: &str| {
        let at = html.find("id=\"zipCode\"").expect("a zip code field");
        let end = at + html[at..].find('>').unwrap();
        html[at..end].to_string()
    };
    let fr = t
        .get("/gr/registration?step=register&site=1")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        zip_input(&fr).contains("data-key-filter=\"digits\""),
        "{}",
        zip_input(&fr)
    );
    let nl = t
        .get("/gr/registration?step=register&site=76")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        !zip_input(&nl).contains("data-key-filter"),
        "{}",
        zip_input(&nl)
    );
}

/// An operation link to the entry page (`operationcode`, spec 000 §2) brings the member to
/// the operation once signed in; a `returnurl` wins over it, and a code that cannot be one
/// is ignored.
#[tokio::test]
async fn an_operation_link_lands_on_its_operation_after_sign_in() {
    let t = start(Backend::Sqlite).await;
    let page = t.get("/gr/authentication?operationcode=noel-24").await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let html = page.text().await.unwrap();
    assert!(
        html.contains("name=\"returnurl\" value=\"/operation/NOEL-24\""),
        "the operation is where the steps return"
    );
    let html = t
        .get("/gr/authentication?operationcode=noel&returnurl=/gr/cart")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("name=\"returnurl\" value=\"/gr/cart\""));
    let html = t
        .get("/gr/authentication?operationcode=%3Cscript%3E")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("name=\"returnurl\" value=\"\""));
    assert!(!html.contains("/operation/"));
    // A product link (`productid`) returns to that product, before an operation's landing.
    let html = t
        .get("/gr/authentication?productid=100101&operationcode=noel")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("name=\"returnurl\" value=\"/gr/product/100101\""));
    let html = t
        .get("/gr/authentication?productid=%3Cscript%3E")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("name=\"returnurl\" value=\"\""));

    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .form(&[
            ("_xsrf", xsrf.as_str()),
            ("step", "password"),
            ("email", "demo@rosace.test"),
            ("password", server::demo::DEMO_PASSWORD),
            ("returnurl", "/operation/NOEL-24"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/operation/NOEL-24");
}

/// The entry page's "about us" section (spec 000 §2): on the first step and the
/// registration form; a link's `hideaboutus` leaves it out, from step to step.
#[tokio::test]
async fn the_about_us_section_unless_a_link_hides_it() {
    let t = start(Backend::Sqlite).await;
    let page = t.get("/gr/authentication").await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let html = page.text().await.unwrap();
    assert!(html.contains("data-testid=\"auth-aboutus\""));
    assert!(html.contains("Pourquoi devenir membre Rosace ?"));
    assert!(html.contains("href=\"/gr/aboutus\""));
    let html = t
        .get("/gr/authentication?hideaboutus=1")
        .await
        .text()
        .await
        .unwrap();
    assert!(!html.contains("data-testid=\"auth-aboutus\""));
    assert!(
        html.contains("name=\"hideaboutus\" value=\"1\""),
        "carried to the next step"
    );
    // A new address goes on to the registration form, still without the section.
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .form(&[
            ("_xsrf", xsrf.as_str()),
            ("step", "email"),
            ("email", "new.member@example.org"),
            ("returnurl", ""),
            ("hideaboutus", "1"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(location.contains("step=register"), "{location}");
    assert!(location.contains("hideaboutus=1"), "{location}");
    let html = t.get(&location).await.text().await.unwrap();
    assert!(html.contains("data-testid=\"register-form\""));
    assert!(!html.contains("data-testid=\"auth-aboutus\""));
    // Without the flag the registration form has it; the password step never does.
    let html = t
        .get("/gr/registration?step=register&email=new.member%40example.org")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("data-testid=\"auth-aboutus\""));
    let html = t
        .get("/gr/authentication?step=password&email=demo%40rosace.test")
        .await
        .text()
        .await
        .unwrap();
    assert!(!html.contains("data-testid=\"auth-aboutus\""));
}
