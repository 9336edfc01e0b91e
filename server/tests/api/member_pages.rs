//! A member's home, sale catalog, cart, "my orders" and search results pages come from a
//! shared page template filled with their own values (`serve::member_pages`). Two properties, on SQLite and PostgreSQL:
//! - the filled page is byte for byte the page a full render gives the same member (a
//!   second shop on the same database with no cache renders it), for members with and
//!   without favourites, holds, unread messages and names to escape;
//! - under load, two members interleaved never get each other's name, token, hearts,
//!   holds, cart count, delivery addresses or orders, and each one's search is recorded
//!   among their own recent queries.
use std::collections::HashSet;

use reqwest::Method;
use serde_json::json;

use crate::help::{message, support, CONTACT};
use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

const PAGES: [&str; 9] = [
    "/catalog/1001/0",
    "/catalog/1001/0?page=2",
    "/",
    "/catalog/1002/0",
    "/cart",
    "/my-orders",
    "/my-orders?page=2",
    SEARCH,
    "/find?q=Robe%20%20d%27%C3%A9t%C3%A9+%E2%80%94+%D0%BF%D0%BB%D0%B0%D1%82%D1%8C%D0%B5",
];

/// The member's recent queries, newest first.
async fn recent_of(t: &TestApp, s: &Shopper) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT query FROM search_queries WHERE member_id = $1 ORDER BY created_at DESC, id DESC",
    )
    .bind(s.member_id)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap()
}

/// The ids of the orders a "my orders" page lists.
fn order_ids(html: &str) -> Vec<i64> {
    html.split("data-testid=\"order\" data-order-id=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next()?.parse().ok())
        .collect()
}

/// The member's order ids, newest first.
async fn orders_of(t: &TestApp, s: &Shopper) -> Vec<i64> {
    sqlx::query_scalar(
        "SELECT id FROM orders WHERE member_id = $1 ORDER BY created_at DESC, id DESC",
    )
    .bind(s.member_id)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap()
}

/// `n` orders of the member, the `i`th made at second `i`.
async fn give_orders(t: &TestApp, s: &Shopper, n: i64) {
    for i in 0..n {
        sqlx::query(
            "INSERT INTO orders (member_id, site_id, idempotency_key, status, cart_type, subtotal, discount, shipping,
                                 loyalty, total, currency, payment_reference, created_at, updated_at)
             VALUES ($1, 1, $2, 'validated', 'fs', 1000, 0, 0, 0, 1000, 'EUR', 'ref', $3, $3)",
        )
        .bind(s.member_id)
        .bind(format!("pages-{}-{i}", s.member_id))
        .bind(1_000 + i)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    }
}

/// The ids of the delivery addresses a cart page offers.
fn delivery_ids(html: &str) -> Vec<i64> {
    html.split("data-testid=\"delivery-option\" data-address-id=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next()?.parse().ok())
        .collect()
}

/// The member's address ids.
async fn addresses_of(t: &TestApp, s: &Shopper) -> Vec<i64> {
    sqlx::query_scalar("SELECT id FROM member_addresses WHERE member_id = $1 ORDER BY id")
        .bind(s.member_id)
        .fetch_all(&t.app.state.db.pool)
        .await
        .unwrap()
}

async fn named(t: &TestApp, name: &str) -> Shopper {
    let s = shopper(t, 2).await;
    sqlx::query("UPDATE members SET first_name = $2 WHERE id = $1")
        .bind(s.member_id)
        .bind(name)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    s
}

/// The page and its CSP nonce.
async fn page(client: &reqwest::Client, url: &str, cookie: &str) -> (u16, String, String) {
    let res = client
        .get(url)
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let csp = res
        .headers()
        .get("content-security-policy")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let nonce = csp
        .split("'nonce-")
        .nth(1)
        .and_then(|s| s.split('\'').next())
        .unwrap_or("")
        .to_string();
    (status, res.text().await.unwrap(), nonce)
}

/// The products of a sale's first catalog page, as a member sees them (tile ids).
fn tile_ids(html: &str) -> Vec<i64> {
    html.split("data-item-id=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next()?.parse().ok())
        .collect()
}

/// The option of product `product` (any), with plenty of stock.
async fn option_of(t: &TestApp, product: i64) -> i64 {
    sqlx::query_scalar("SELECT id FROM product_options WHERE product_id = $1 ORDER BY id LIMIT 1")
        .bind(product)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

/// Member A: a favourite, a held item, an unread support reply, two pages of orders and a
/// heart on the first result of `SEARCH`; member B: one order.
async fn members(t: &TestApp) -> (Shopper, Shopper, i64, i64) {
    let a = named(t, "Zoé & Ölaf <Ωμέγα>").await;
    let b = named(t, "Bartholomew").await;
    give_orders(t, &a, 13).await;
    give_orders(t, &b, 1).await;
    let (_, html, _) = page(&t.client, &t.url("/catalog/1001/0"), &a.cookie).await;
    let ids = tile_ids(&html);
    assert!(ids.len() >= 3, "a catalog page with tiles: {html}");
    let (favourite, held) = (ids[0], ids[2]);
    let (code, _) = a
        .call(
            t,
            Method::PUT,
            &format!("/api/catalog/v2/sale/1001/item/{favourite}/favorite"),
            None,
        )
        .await;
    assert!(code < 300, "favourite: {code}");
    let option = option_of(t, held).await;
    sqlx::query("UPDATE product_options SET stock = 1000, held = 0, sold = 0 WHERE id = $1")
        .bind(option)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (code, body) = a
        .call(
            t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(json!({"product_id": option.to_string(), "quantity": 1, "cart_type": "fs"})),
        )
        .await;
    assert!(code < 300, "hold: {code} {body}");
    let (_, sent) = a
        .call(
            t,
            Method::POST,
            CONTACT,
            Some(message("account.login", "Le lien ne vient pas.", None)),
        )
        .await;
    let ticket = sent["ticketId"].as_i64().unwrap();
    let (code, _, err) = support(t, &["reply", &ticket.to_string(), "Renvoyé."]);
    assert_eq!(code, 0, "{err}");
    let (_, found, _) = page(&t.client, &t.url(SEARCH), &a.cookie).await;
    let (sale, item) = first_result(&found);
    let (code, _) = a
        .call(
            t,
            Method::PUT,
            &format!("/api/catalog/v2/sale/{sale}/item/{item}/favorite"),
            None,
        )
        .await;
    assert!(code < 300, "favourite: {code}");
    (a, b, favourite, held)
}

/// The search of `PAGES` whose first result member A likes.
const SEARCH: &str = "/find?q=robe";

/// The sale and item of a results page's first tile.
fn first_result(html: &str) -> (i64, i64) {
    let link = html.split("href=\"/product/").nth(1).expect("a result");
    let mut ids = link
        .split('"')
        .next()
        .unwrap()
        .split('/')
        .map(|n| n.parse::<i64>().unwrap());
    (ids.next().unwrap(), ids.next().unwrap())
}

/// `html` without what moves with the clock (a template is up to its lifetime old, as a
/// visitor's cached page is): the countdowns' current time and remaining time.
fn without_clock(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    loop {
        let now = rest.find("&quot;now&quot;:");
        let text = rest.find("countdown__text\">");
        let (at, skip, end) = match (now, text) {
            (Some(n), t) if t.is_none_or(|t| n < t) => (n, "&quot;now&quot;:".len(), "}"),
            (_, Some(t)) => (t, "countdown__text\">".len(), "<"),
            _ => break,
        };
        out.push_str(&rest[..at + skip]);
        rest = &rest[at + skip..];
        let stop = rest.find(end).unwrap_or(rest.len());
        out.push_str("CLOCK");
        rest = &rest[stop..];
    }
    out.push_str(rest);
    out
}

async fn same_as_full_render(t: TestApp) {
    let full = t.second_instance(|c| c.page_cache_ms = 0).await;
    let (a, b, favourite, held) = members(&t).await;
    for s in [&a, &b] {
        for path in PAGES {
            // Twice: the first may render the template, the second is certainly a fill.
            for round in 0..2 {
                let (code, filled, n1) = page(&s.client, &t.url(path), &s.cookie).await;
                let (code_full, rendered, n2) =
                    page(&s.client, &format!("{full}{path}"), &s.cookie).await;
                assert_eq!((code, code_full), (200, 200), "{path}");
                assert!(!n1.is_empty() && !n2.is_empty(), "{path}: a nonce");
                let filled = without_clock(&filled.replace(&n1, "NONCE"));
                let rendered = without_clock(&rendered.replace(&n2, "NONCE"));
                if filled != rendered {
                    let at = filled
                        .bytes()
                        .zip(rendered.bytes())
                        .position(|(x, y)| x != y)
                        .unwrap_or(filled.len().min(rendered.len()));
                    let from = at.saturating_sub(200);
                    panic!(
                        "{path} (round {round}) differs from the full render at byte {at}:\n\
                         filled:   {}\nrendered: {}",
                        &filled[from..(at + 300).min(filled.len())],
                        &rendered[from..(at + 300).min(rendered.len())]
                    );
                }
            }
        }
    }
    // The catalog shows A's heart and hold, B's neither.
    let (_, page_a, _) = page(&a.client, &t.url("/catalog/1001/0"), &a.cookie).await;
    let (_, page_b, _) = page(&b.client, &t.url("/catalog/1001/0"), &b.cookie).await;
    let fav = format!("data-item-id=\"{favourite}\" data-favorite=\"true\"");
    assert!(page_a.contains(&fav) && !page_b.contains(&fav));
    let hold = format!("data-item-id=\"{held}\" data-favorite=\"false\"");
    assert!(page_a.contains("data-availability=\"InBasket\"") && page_a.contains(&hold));
    assert!(!page_b.contains("data-availability=\"InBasket\""));
    assert!(page_a.contains("Zoé &amp; Ölaf &lt;Ωμέγα&gt;"));
    // The search shows A's heart on the result, B's not.
    let (_, found_a, _) = page(&a.client, &t.url(SEARCH), &a.cookie).await;
    let (_, found_b, _) = page(&b.client, &t.url(SEARCH), &b.cookie).await;
    let (_, item) = first_result(&found_a);
    let heart = format!("data-item-id=\"{item}\" data-favorite=\"true\"");
    assert!(found_a.contains(&heart) && !found_b.contains(&heart));
    // Each cart page offers the member's own addresses.
    for s in [&a, &b] {
        let (_, cart, _) = page(&s.client, &t.url("/cart"), &s.cookie).await;
        let mine = addresses_of(&t, s).await;
        assert!(!mine.is_empty());
        assert_eq!(delivery_ids(&cart), mine);
    }
    // Each "my orders" page lists the member's own, ten a page.
    for s in [&a, &b] {
        let mine = orders_of(&t, s).await;
        let (_, first, _) = page(&s.client, &t.url("/my-orders"), &s.cookie).await;
        let (_, second, _) = page(&s.client, &t.url("/my-orders?page=2"), &s.cookie).await;
        assert_eq!(order_ids(&first), mine[..mine.len().min(10)]);
        assert_eq!(order_ids(&second), mine[mine.len().min(10)..]);
    }
    // One template per page (and variant), not one per member or request, and every page
    // of the list has one.
    assert!(
        (PAGES.len() as u64..=PAGES.len() as u64 + 1).contains(&t.app.page_cache.renders()),
        "{} renders",
        t.app.page_cache.renders()
    );
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    same_as_full_render,
    a_member_template_fills_to_the_full_render_on_sqlite,
    a_member_template_fills_to_the_full_render_on_postgres,
    |c| c.page_cache_ms = 60_000
);

/// What of a member's own shows in their page: name, token, cart count, hearts.
fn owned_by(html: &str, s: &Shopper, name: &str) -> bool {
    html.contains(&format!("&quot;memberId&quot;:{}", s.member_id))
        && html.contains(name)
        && html.contains(&s.xsrf)
}

async fn interleaved(t: TestApp) {
    let (a, b, favourite, _) = members(&t).await;
    let (name_a, name_b) = ("Zoé &amp; Ölaf &lt;Ωμέγα&gt;", "Bartholomew");
    let mut tasks = tokio::task::JoinSet::new();
    for n in 0..400 {
        let (client, cookie, base) = if n % 2 == 0 {
            (
                a.client.clone(),
                a.cookie.clone(),
                t.url(PAGES[n % PAGES.len()]),
            )
        } else {
            (
                b.client.clone(),
                b.cookie.clone(),
                t.url(PAGES[n % PAGES.len()]),
            )
        };
        tasks.spawn(async move {
            let (code, html, _) = page(&client, &base, &cookie).await;
            (n % 2 == 0, code, html)
        });
    }
    let fav = format!("data-item-id=\"{favourite}\" data-favorite=\"true\"");
    let (addresses_a, addresses_b) = (addresses_of(&t, &a).await, addresses_of(&t, &b).await);
    let (orders_a, orders_b) = (orders_of(&t, &a).await, orders_of(&t, &b).await);
    let mut seen = HashSet::new();
    let mut carts = 0;
    let mut order_pages = 0;
    while let Some(r) = tasks.join_next().await {
        let (is_a, code, html) = r.unwrap();
        assert_eq!(code, 200);
        let (me, other, my_name, other_name) = if is_a {
            (&a, &b, name_a, name_b)
        } else {
            (&b, &a, name_b, name_a)
        };
        assert!(owned_by(&html, me, my_name), "the member's own values");
        assert!(!html.contains(other_name), "never the other's name");
        assert!(!html.contains(&other.xsrf), "never the other's token");
        assert!(
            !html.contains(&format!("&quot;memberId&quot;:{}", other.member_id)),
            "never the other's context"
        );
        // The count shows when the cart holds units: A's one, none for B.
        let count = html.contains("data-testid=\"cart-count\" class=\"header__cart-count\">1<");
        assert_eq!(count, is_a, "only A holds one unit");
        assert_eq!(html.contains("data-testid=\"cart-count\""), is_a);
        if html.contains(&format!("data-item-id=\"{favourite}\"")) {
            assert_eq!(html.contains(&fav), is_a, "only A's heart is on");
        }
        if html.contains("data-testid=\"delivery-choice\"") {
            let mine = if is_a { &addresses_a } else { &addresses_b };
            assert_eq!(&delivery_ids(&html), mine, "only the member's addresses");
            carts += 1;
        }
        if html.contains("data-testid=\"orders-page\"") {
            let (mine, theirs) = if is_a {
                (&orders_a, &orders_b)
            } else {
                (&orders_b, &orders_a)
            };
            let listed = order_ids(&html);
            assert!(
                listed.iter().all(|id| mine.contains(id)),
                "only the member's orders"
            );
            assert!(!listed.iter().any(|id| theirs.contains(id)));
            order_pages += 1;
        }
        seen.insert(is_a);
    }
    assert_eq!(seen.len(), 2);
    assert_eq!(carts, 400 / PAGES.len(), "the cart pages");
    assert_eq!(order_pages, 2 * 400 / PAGES.len(), "the order pages");
    // Each member's searches are recorded as theirs, each query once.
    for s in [&a, &b] {
        let mut recent = recent_of(&t, s).await;
        recent.sort();
        assert_eq!(recent, ["Robe d'été — платье", "robe"]);
    }
    assert!(
        t.app.page_cache.renders() <= PAGES.len() as u64 + 1,
        "{} renders",
        t.app.page_cache.renders()
    );
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    interleaved,
    two_members_interleaved_never_see_each_other_on_sqlite,
    two_members_interleaved_never_see_each_other_on_postgres,
    |c| c.page_cache_ms = 60_000
);

/// A template past its lifetime is served at once as it was, while a task renders it
/// again; the renewed one follows. No member waits for the renewal (a render under the
/// load of a sale opening took a few hundred milliseconds).
async fn renewed_behind(t: TestApp) {
    let s = shopper(&t, 2).await;
    let url = t.url("/catalog/1001/0");
    let (code, first, _) = page(&s.client, &url, &s.cookie).await;
    assert_eq!(code, 200);
    assert!(!first.contains("Renamed sale"));
    let renders = t.app.page_cache.renders();
    sqlx::query("UPDATE sales SET name = 'Renamed sale' WHERE id = 1001")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (_, cached, _) = page(&s.client, &url, &s.cookie).await;
    assert!(!cached.contains("Renamed sale"), "within its lifetime");
    tokio::time::sleep(std::time::Duration::from_millis(TTL_MS + 200)).await;
    let (code, stale, _) = page(&s.client, &url, &s.cookie).await;
    assert_eq!(code, 200);
    assert!(
        !stale.contains("Renamed sale"),
        "the stale copy, without waiting for a render"
    );
    assert!(
        owned_by(&stale, &s, "data-item-id"),
        "filled for the member"
    );
    let mut renewed = None;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        let (_, html, _) = page(&s.client, &url, &s.cookie).await;
        if html.contains("Renamed sale") {
            renewed = Some(html);
            break;
        }
    }
    let renewed = renewed.expect("the renewed template within 2 s");
    assert!(owned_by(&renewed, &s, "data-item-id"));
    assert_eq!(
        t.app.page_cache.renders(),
        renders + 1,
        "one renewal for all the requests that found the copy stale"
    );
}

const TTL_MS: u64 = 3000;

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    renewed_behind,
    a_stale_member_template_is_served_at_once_and_renewed_behind_on_sqlite,
    a_stale_member_template_is_served_at_once_and_renewed_behind_on_postgres,
    |c| c.page_cache_ms = TTL_MS
);
