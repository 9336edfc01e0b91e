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
            let mut html = String::new();
            std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut html)
                .expect("a gzip body");
            (encoding, xsrf, csp, html)
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
