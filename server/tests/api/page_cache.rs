//! Pages as anonymous visitors see them are reused for a moment, each response still with
//! the visitor's own XSRF token and a fresh CSP nonce; members always get their own page.
use crate::helpers::{cookie_value, start_with, Backend};

fn between<'a>(s: &'a str, start: &str, end: &str) -> &'a str {
    s.split(start).nth(1).unwrap().split(end).next().unwrap()
}

#[tokio::test]
async fn anonymous_pages_are_reused_with_their_own_token_and_nonce() {
    let t = start_with(Backend::Sqlite, |c| c.page_cache_ms = 60_000).await;
    let fetch = |cookie: String| {
        let t = &t;
        async move {
            let res = t.get_with_cookie("/c/vente/1001/0", &cookie).await;
            let csp = res.headers()["content-security-policy"]
                .to_str()
                .unwrap()
                .to_string();
            let xsrf = cookie_value(&res, "XSRF-TOKEN");
            (csp, xsrf, res.text().await.unwrap())
        }
    };
    let (csp_a, xsrf_a, a) = fetch(String::new()).await;
    // The page changes in the database; the cached copy is served within its lifetime.
    sqlx::query("UPDATE sales SET name = 'Renamed sale' WHERE id = 1001")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (csp_b, xsrf_b, b) = fetch(String::new()).await;
    assert!(!b.contains("Renamed sale"), "served from the cache");
    let (xsrf_a, xsrf_b) = (xsrf_a.unwrap(), xsrf_b.unwrap());
    assert_ne!(xsrf_a, xsrf_b);
    assert!(a.contains(&xsrf_a) && !a.contains(&xsrf_b));
    assert!(
        b.contains(&xsrf_b) && !b.contains(&xsrf_a),
        "the visitor's own token"
    );
    let nonce = |csp: &str| between(csp, "'nonce-", "'").to_string();
    assert_ne!(nonce(&csp_a), nonce(&csp_b), "a fresh nonce per response");
    assert!(b.contains(&format!("nonce=\"{}\"", nonce(&csp_b))));
    assert!(!b.contains(&nonce(&csp_a)));
    assert_eq!(
        a.replace(&xsrf_a, "T").replace(&nonce(&csp_a), "N"),
        b.replace(&xsrf_b, "T").replace(&nonce(&csp_b), "N")
    );
    // A member gets a fresh render with the new name.
    let session = t.member_session(1).await;
    let member_page = t
        .get_with_cookie("/catalog/1001/0", &session)
        .await
        .text()
        .await
        .unwrap();
    assert!(member_page.contains("Renamed sale"));
}

#[tokio::test]
async fn a_burst_renders_a_page_once_and_browsers_get_it_compressed() {
    let t = start_with(Backend::Sqlite, |c| c.page_cache_ms = 60_000).await;
    // Sixty-four visitors ask for the same page at the same moment, with gzip as browsers do.
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..64 {
        let (client, url) = (t.client.clone(), t.url("/c/vente/1001/0?page=2"));
        tasks.spawn(async move {
            let res = client
                .get(url)
                .header("accept-encoding", "gzip, deflate, br, zstd")
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200);
            assert_eq!(res.headers()["cache-control"], "private, no-cache");
            let encoding = res.headers()["content-encoding"]
                .to_str()
                .unwrap()
                .to_string();
            let xsrf = cookie_value(&res, "XSRF-TOKEN").unwrap();
            let csp = res.headers()["content-security-policy"]
                .to_str()
                .unwrap()
                .to_string();
            let bytes = res.bytes().await.unwrap();
            (encoding, xsrf, csp, crate::helpers::body_text(&bytes, true))
        });
    }
    let pages = tasks.join_all().await;
    assert_eq!(
        t.app.page_cache.renders(),
        1,
        "one render for the whole burst"
    );
    let (_, xsrf0, csp0, html0) = &pages[0];
    let nonce = |csp: &str| between(csp, "'nonce-", "'").to_string();
    let same =
        |xsrf: &str, csp: &str, html: &str| html.replace(xsrf, "T").replace(&nonce(csp), "N");
    assert!(html0.contains("</html>") && html0.contains(xsrf0.as_str()));
    for (encoding, xsrf, csp, html) in &pages {
        assert_eq!(encoding, "gzip");
        assert!(html.contains(&format!("nonce=\"{}\"", nonce(csp))));
        assert_eq!(same(xsrf, csp, html), same(xsrf0, csp0, html0));
    }
    // Without gzip in the request, the same page uncompressed, from the cache.
    let plain = t.get("/c/vente/1001/0?page=2").await;
    assert!(plain.headers().contains_key("age"));
    assert!(plain.headers().get("content-encoding").is_none());
    let xsrf = cookie_value(&plain, "XSRF-TOKEN").unwrap();
    let csp = plain.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    let html = plain.text().await.unwrap();
    assert_eq!(same(&xsrf, &csp, &html), same(xsrf0, csp0, html0));
    assert_eq!(t.app.page_cache.renders(), 1);
}

/// A flood of made-up query strings (security review M7) renders pages but keeps at most
/// a few dozen copies of the page, and the hot copy is still served from the cache.
#[tokio::test]
async fn a_query_string_flood_cannot_push_hot_pages_out() {
    let t = start_with(Backend::Sqlite, |c| c.page_cache_ms = 60_000).await;
    let home = "/c/vente/1001/0";
    assert_eq!(t.get(home).await.status(), 200);
    let renders = t.app.page_cache.renders();
    for n in 0..100 {
        assert_eq!(t.get(&format!("{home}?z={n}")).await.status(), 200);
    }
    let (copies, _) = t.app.page_cache.usage();
    assert!(copies <= 32, "{copies} copies of one page");
    let before = t.app.page_cache.renders();
    assert_eq!(before, renders + 100, "each made-up variant was rendered");
    let res = t.get(home).await;
    assert!(res.headers().contains_key("age"), "served from the cache");
    assert_eq!(t.app.page_cache.renders(), before);
}

/// A visitor's cached page answered before the request steps (`page_cache::front_hit`) is
/// the page the steps give, header for header and cookie for cookie, but for the values
/// made per response; and requests the steps must decide never take that way.
#[tokio::test]
async fn hits_answered_before_the_steps_are_the_pages_the_steps_give() {
    use crate::helpers::{leptos_options, serve};
    let t = start_with(Backend::Sqlite, |c| c.page_cache_ms = 60_000).await;
    // The same shop and cache, with the hits left to the page cache's step.
    let steps = serve(server::router_with(t.app.clone(), leptos_options(), false)).await;
    let get = |base: String, path: &'static str, headers: Vec<(&'static str, String)>| {
        let client = t.client.clone();
        async move {
            let mut req = client.get(format!("{base}{path}"));
            for (name, value) in headers {
                req = req.header(name, value);
            }
            req.send().await.unwrap()
        }
    };
    // What differs per response: the token, the visitor's id, the nonce, the request id
    // and the copy's age.
    let normalised = |res: reqwest::Response| async move {
        let status = res.status().as_u16();
        let xsrf = cookie_value(&res, "XSRF-TOKEN");
        let visitor = cookie_value(&res, "rosace_visitor");
        let csp = res.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_string();
        let nonce = between(&csp, "'nonce-", "'").to_string();
        let mask = |s: &str| {
            let mut s = s.replace(&nonce, "NONCE");
            for v in [&xsrf, &visitor].into_iter().flatten() {
                s = s.replace(v.as_str(), "VALUE");
            }
            s
        };
        let mut headers: Vec<(String, String)> = res
            .headers()
            .iter()
            .filter(|(n, _)| !matches!(n.as_str(), "date" | "x-request-id" | "age"))
            .map(|(n, v)| (n.to_string(), mask(v.to_str().unwrap())))
            .collect();
        headers.sort();
        let gzip = res.headers().get("content-encoding").is_some();
        let bytes = res.bytes().await.unwrap();
        let body = crate::helpers::body_text(&bytes, gzip);
        (status, headers, mask(&body))
    };
    let first = get(steps.clone(), "/c/vente/1001/0", vec![]).await;
    let cookies: Vec<String> = first
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|c| c.to_str().unwrap().split(';').next().unwrap().to_string())
        .collect();
    let returning = cookies.join("; ");
    let gzip = || ("accept-encoding", "gzip, deflate, br, zstd".to_string());
    let cases: Vec<(&'static str, Vec<(&'static str, String)>)> = vec![
        ("/c/vente/1001/0", vec![]),
        ("/c/vente/1001/0", vec![gzip()]),
        ("/c/vente/1001/0", vec![("cookie", returning.clone())]),
        ("/?site=66", vec![("cookie", format!("{returning}; appBrand=rosace")), gzip()]),
        (
            "/",
            vec![(
                "cookie",
                format!(
                    "OptanonConsent=groups%3DC0001%3A1%2CC0002%3A0; {}=0123456789abcdef0123456789abcdef",
                    app::experiments::rules::ANON_ID_COOKIE
                ),
            )],
        ),
    ];
    for (path, headers) in cases {
        // The first asks the steps to render the copy.
        let _ = get(steps.clone(), path, headers.clone()).await;
        let before = t.app.page_cache.front_hits();
        let by_steps = normalised(get(steps.clone(), path, headers.clone()).await).await;
        assert_eq!(t.app.page_cache.front_hits(), before);
        let front = normalised(get(t.base.clone(), path, headers.clone()).await).await;
        assert_eq!(
            t.app.page_cache.front_hits(),
            before + 1,
            "{path} {headers:?}"
        );
        assert_eq!(front.0, 200);
        assert_eq!(front, by_steps, "{path} {headers:?}");
    }
    // What the steps must decide goes to them: a session cookie (even one no longer
    // valid), a members-only page, an encoding the compression layer makes, experiments
    // the visitor consented to, a copy not made yet.
    let before = t.app.page_cache.front_hits();
    for (path, headers) in [
        (
            "/c/vente/1001/0",
            vec![("cookie", "rosace_session=stale".to_string())],
        ),
        ("/cart", vec![]),
        (
            "/c/vente/1001/0",
            vec![("accept-encoding", "br".to_string())],
        ),
        (
            "/c/vente/1001/0",
            vec![(
                "cookie",
                "OptanonConsent=groups%3DC0001%3A1%2CC0002%3A1".to_string(),
            )],
        ),
        ("/c/vente/1001/0?page=2", vec![]),
    ] {
        let res = get(t.base.clone(), path, headers).await;
        assert!(res.status().is_success() || res.status().is_redirection());
    }
    assert_eq!(t.app.page_cache.front_hits(), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_stale_copy_is_served_at_once_and_renewed_behind() {
    const TTL_MS: u64 = 1500;
    let t = start_with(Backend::Sqlite, |c| c.page_cache_ms = TTL_MS).await;
    let get = || {
        let t = &t;
        async move {
            let res = t.get_with_cookie("/c/vente/1001/0", "").await;
            (res.status().as_u16(), res.text().await.unwrap())
        }
    };
    let (code, first) = get().await;
    assert_eq!(code, 200);
    assert!(!first.contains("Renamed sale"));
    let renders = t.app.page_cache.renders();
    sqlx::query("UPDATE sales SET name = 'Renamed sale' WHERE id = 1001")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(TTL_MS + 200)).await;
    let (code, stale) = get().await;
    assert_eq!(code, 200);
    assert!(
        !stale.contains("Renamed sale"),
        "the stale copy, without waiting for a render"
    );
    // The first answer within 2 s (asked every 20 ms) that `done` accepts.
    let until = |done: fn(u16, &str) -> bool| async move {
        for _ in 0..100 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            let (code, html) = get().await;
            if done(code, &html) {
                return Some(code);
            }
        }
        None
    };
    let renewed = until(|_, html| html.contains("Renamed sale")).await;
    assert!(renewed.is_some(), "the renewed copy within 2 s");
    assert_eq!(
        t.app.page_cache.renders(),
        renders + 1,
        "one render for all the requests that found the copy stale"
    );

    // A sale that closed meanwhile: its stale copy goes with the first render that finds
    // the page no longer shareable, and the next visitor gets what the shop says now.
    sqlx::query("UPDATE sales SET ends_at = 1 WHERE id = 1001")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(TTL_MS + 200)).await;
    let (code, stale) = get().await;
    assert_eq!(code, 200, "the stale copy once more");
    assert!(stale.contains("Renamed sale"));
    let gone = until(|code, _| code != 200).await;
    assert!(
        gone.is_some(),
        "the closed sale's copy was still served after 2 s"
    );
}
