//! Pages as anonymous visitors see them are reused for a moment, each response still with
//! the visitor's own XSRF token and a fresh CSP nonce; members always get their own page.
mod common;

use common::{cookie_value, start_with, Backend};

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
