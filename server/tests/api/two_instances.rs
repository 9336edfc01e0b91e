//! Two server processes on one PostgreSQL database, driven alternately: what must be shared
//! lives in the database (sessions, carts and holds, rate limits, the waiting line, one
//! payment per member at a time), and killing one instance (SIGKILL) mid-checkout loses
//! nothing and doubles nothing. The test's own in-process app only prepares the database
//! and reads it back.
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::cart::{option_with_stock, shopper, stock, Shopper};
use crate::helpers::{start_with, Backend, TestApp};

const HOLD_SECS: i64 = 15;
const CAPACITY: usize = 3;
const LEASE_SECS: i64 = 4;
const EXISTS_LIMIT: usize = 6;
const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";

/// Where a shop answers, and a client for it.
#[derive(Clone)]
struct Endpoint {
    base: String,
    http: reqwest::Client,
}

/// A shop process; killed (SIGKILL) when dropped.
struct Instance {
    child: Child,
    at: Endpoint,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn launch(t: &TestApp, name: &str) -> Instance {
    let port = free_port();
    let dir = std::path::PathBuf::from(&t.app.config.data_dir).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let log = std::fs::File::create(dir.join("server.log")).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_server"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("LEPTOS_OUTPUT_NAME", "rosace")
        .env("LEPTOS_SITE_ROOT", "target/site")
        .env("LEPTOS_SITE_PKG_DIR", "pkg")
        .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
        .env("LEPTOS_HASH_FILES", "false")
        .env("DATABASE_URL", &t.app.config.database_url)
        .env("ROSACE_DATA_DIR", &dir)
        .env("ROSACE_PUBLIC_ORIGIN", format!("http://127.0.0.1:{port}"))
        .env("ROSACE_DB_MAX_CONNECTIONS", "8")
        // Instances behind one load balancer share the key of the saved bank details.
        .env("ROSACE_WALLET_KEY", "5a".repeat(32))
        .env("ROSACE_CHECKOUT_CAPACITY", CAPACITY.to_string())
        .env("ROSACE_CHECKOUT_LEASE_SECS", LEASE_SECS.to_string())
        .env("ROSACE_CART_HOLD_SECS", HOLD_SECS.to_string())
        .env("ROSACE_CART_SWEEP_SECS", "1")
        .env("ROSACE_EXISTS_RATE_LIMIT", EXISTS_LIMIT.to_string())
        .env("ROSACE_PAGE_CACHE_MS", "0")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start the server binary");
    let instance = Instance {
        child,
        at: Endpoint {
            base: format!("http://127.0.0.1:{port}"),
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(Duration::from_secs(40))
                .build()
                .unwrap(),
        },
    };
    for _ in 0..600 {
        let health = format!("{}/health", instance.at.base);
        if let Ok(res) = instance.at.http.get(health).send().await {
            if res.status() == StatusCode::OK {
                return instance;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "instance {name} did not answer /health (see {}/server.log)",
        dir.display()
    );
}

/// A member's call to one instance: status and JSON body.
async fn call(
    on: &Endpoint,
    who: &Shopper,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = on
        .http
        .request(method, format!("{}{path}", on.base))
        .header("cookie", &who.cookie)
        .header("X-XSRF-TOKEN", &who.xsrf);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let res = req.send().await.expect("the instance answers");
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

fn add(option: i64) -> Value {
    json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" })
}

fn pay_body(hash: &str) -> Value {
    json!({ "cartHash": hash, "generateDeeplinkReturnUrl": false, "card": "4242424242424242" })
}

/// Pays on `on`, waiting its turn in the line (asking `other` for the ticket's
/// position): the order id.
async fn pay_in_turn(on: &Endpoint, other: &Endpoint, who: &Shopper, hash: &str) -> i64 {
    for _ in 0..400 {
        let (status, body) = call(
            on,
            who,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(pay_body(hash)),
        )
        .await;
        match status {
            200 => return body["orderId"].as_i64().expect("an order id"),
            202 | 409 => {
                if let Some(ticket) = body["waitingLine"]["ticket"].as_str() {
                    let path = format!("/api/catalog/v1/waiting-line/{ticket}");
                    let (s, _) = call(other, who, Method::GET, &path, None).await;
                    assert!(s == 200 || s == 410, "ticket status {s}");
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            s => panic!("pay answered {s}: {body}"),
        }
    }
    panic!("no turn in the waiting line");
}

/// Like [`pay_in_turn`] on one instance, but `None` as soon as the instance stops
/// answering.
async fn try_pay_in_turn(on: &Endpoint, who: &Shopper, hash: &str) -> Option<i64> {
    loop {
        let res = on
            .http
            .post(format!("{}{PIPE}/pay", on.base))
            .header("cookie", &who.cookie)
            .header("X-XSRF-TOKEN", &who.xsrf)
            .json(&pay_body(hash))
            .send()
            .await
            .ok()?;
        let status = res.status().as_u16();
        let body: Value = res.json().await.ok()?;
        match status {
            200 => return body["orderId"].as_i64(),
            202 | 409 => {
                if let Some(ticket) = body["waitingLine"]["ticket"].as_str() {
                    let path = format!("{}/api/catalog/v1/waiting-line/{ticket}", on.base);
                    on.http.get(path).send().await.ok()?;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            s => panic!("pay answered {s}: {body}"),
        }
    }
}

/// The member adds one unit of `option` on `on`, which must hold it.
async fn hold(on: &Endpoint, who: &Shopper, option: i64) {
    let (status, body) = call(
        on,
        who,
        Method::POST,
        "/api/cartproxy/v1/item",
        Some(add(option)),
    )
    .await;
    assert_eq!(status, 201, "{body}");
}

async fn frozen_hash(on: &Endpoint, who: &Shopper) -> String {
    let (status, body) = call(on, who, Method::GET, PIPE, None).await;
    assert_eq!(status, 200, "{body}");
    body["cartHash"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_share_one_postgresql() {
    let t = start_with(Backend::Postgres, |_| {}).await;
    let a = launch(&t, "a").await;
    let b = launch(&t, "b").await;

    sessions_and_rate_limits(&a.at, &b.at).await;
    one_line_first_come_first_served(&t, &a.at, &b.at).await;
    twenty_units_for_three_hundred(&t, &a.at, &b.at).await;
    kill_mid_checkout(&t, a, &b.at).await;
}

/// A session made on one instance is valid on the other; a rate limit counts across both.
async fn sessions_and_rate_limits(a: &Endpoint, b: &Endpoint) {
    let browser = reqwest::Client::builder()
        .cookie_store(true) // cookies are per host, not per port: both instances see them
        .build()
        .unwrap();
    let page = browser
        .get(format!("{}/gr/aboutus", a.base))
        .send()
        .await
        .unwrap();
    let xsrf = page
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|c| {
            c.split(';')
                .next()?
                .strip_prefix("XSRF-TOKEN=")
                .map(str::to_string)
        })
        .expect("the page hands out an XSRF token");
    let login =
        json!({"email": "demo@rosace.test", "password": server::demo::DEMO_PASSWORD, "siteId": 1});
    let res = browser
        .post(format!("{}/api/authentication/v1/login", a.base))
        .header("X-XSRF-TOKEN", &xsrf)
        .json(&login)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["result"], 1, "signed in on A: {body}");
    let on_b = browser
        .get(format!("{}/api/cartproxy/v1", b.base))
        .send()
        .await
        .unwrap();
    assert!(
        on_b.status() == 200 || on_b.status() == 204,
        "the session made on A is valid on B: {}",
        on_b.status()
    );

    for n in 0..EXISTS_LIMIT {
        let on = if n % 2 == 0 { a } else { b };
        let url = format!(
            "{}/api/authentication/v1/members/n{n}%40example.com/sites/1/exists",
            on.base
        );
        assert_eq!(
            on.http.get(url).send().await.unwrap().status(),
            200,
            "check {n}"
        );
    }
    for on in [a, b] {
        let url = format!(
            "{}/api/authentication/v1/members/x%40example.com/sites/1/exists",
            on.base
        );
        assert_eq!(
            on.http.get(url).send().await.unwrap().status(),
            429,
            "the limit counted the checks made on both instances"
        );
    }
}

/// With every slot taken, members who pay on either instance queue in their order of
/// arrival, and come in in that order.
async fn one_line_first_come_first_served(t: &TestApp, a: &Endpoint, b: &Endpoint) {
    let db = &t.app.state.db.pool;
    let far = app::platform::state::now() + 3600;
    for n in 1..=CAPACITY as i64 {
        // Payments running on a third instance.
        sqlx::query("INSERT INTO checkout_line (ticket, member_id, seq, state, deadline) VALUES ($1, $2, $3, 'paying', $4)")
            .bind(format!("busy{n}"))
            .bind(-n)
            .bind(n)
            .bind(far)
            .execute(db)
            .await
            .unwrap();
    }
    let option = option_with_stock(t, 3, 1000).await;
    let mut members = Vec::new();
    for n in 0..6 {
        let (on, other) = if n % 2 == 0 { (a, b) } else { (b, a) };
        let who = shopper(t, 2).await;
        hold(on, &who, option).await;
        let hash = frozen_hash(other, &who).await;
        let (status, body) = call(
            on,
            &who,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(pay_body(&hash)),
        )
        .await;
        assert_eq!(status, 202, "{body}");
        assert_eq!(
            body["waitingLine"]["position"],
            n + 1,
            "arrival order across instances"
        );
        members.push((
            who,
            hash,
            body["waitingLine"]["ticket"].as_str().unwrap().to_string(),
        ));
    }
    sqlx::query("DELETE FROM checkout_line WHERE ticket LIKE 'busy%'")
        .execute(db)
        .await
        .unwrap();
    for (n, (who, _, ticket)) in members.iter().enumerate() {
        let on = if n % 2 == 0 { b } else { a };
        let (status, body) = call(
            on,
            who,
            Method::GET,
            &format!("/api/catalog/v1/waiting-line/{ticket}"),
            None,
        )
        .await;
        assert_eq!(status, 200);
        let expected = if n < CAPACITY {
            0
        } else {
            (n - CAPACITY + 1) as i64
        };
        assert_eq!(
            body["position"].as_i64(),
            Some(expected),
            "member {n}: {body}"
        );
    }
    for (n, (who, hash, _)) in members.iter().enumerate() {
        let (on, other) = if n % 2 == 0 { (b, a) } else { (a, b) };
        pay_in_turn(on, other, who, hash).await;
    }
    assert_eq!(stock(t, option).await, (1000, 0, 6));
}

/// 300 members on both instances at once, 20 units: exactly 20 sold.
async fn twenty_units_for_three_hundred(t: &TestApp, a: &Endpoint, b: &Endpoint) {
    let option = option_with_stock(t, 4, 20).await;
    let mut members = Vec::new();
    for _ in 0..300 {
        members.push(shopper(t, 2).await);
    }
    let gate = Arc::new(tokio::sync::Semaphore::new(32));
    let pair = Arc::new((a.clone(), b.clone()));
    let mut tasks = Vec::new();
    for (n, who) in members.into_iter().enumerate() {
        let (gate, pair) = (gate.clone(), pair.clone());
        tasks.push(tokio::spawn(async move {
            let _turn = gate.acquire().await.unwrap();
            let (on, other) = if n % 2 == 0 {
                (&pair.0, &pair.1)
            } else {
                (&pair.1, &pair.0)
            };
            let (status, body) = call(
                on,
                &who,
                Method::POST,
                "/api/cartproxy/v1/item",
                Some(add(option)),
            )
            .await;
            assert!(status < 500, "add answered {status}: {body}");
            if status != 201 {
                return None;
            }
            let hash = frozen_hash(other, &who).await;
            Some(pay_in_turn(on, other, &who, &hash).await)
        }));
    }
    let mut orders = Vec::new();
    for task in tasks {
        if let Some(order) = task.await.unwrap() {
            orders.push(order);
        }
    }
    orders.sort();
    orders.dedup();
    assert_eq!(orders.len(), 20, "every unit sold once, to 20 members");
    assert_eq!(stock(t, option).await, (20, 0, 20));
}

/// SIGKILL of A while 30 payments run on it: every member then pays (again, with the same
/// cart hash) on B; each has exactly one order and one approved payment, nothing is sold
/// twice, and no hold outlives its expiry.
async fn kill_mid_checkout(t: &TestApp, a: Instance, b: &Endpoint) {
    let option = option_with_stock(t, 5, 1000).await;
    let mut members = Vec::new();
    for _ in 0..30 {
        let who = shopper(t, 2).await;
        hold(&a.at, &who, option).await;
        let hash = frozen_hash(&a.at, &who).await;
        members.push((Arc::new(who), hash));
    }
    // A member who only holds an item, on the instance about to die: the hold must go.
    let holder = shopper(t, 2).await;
    hold(&a.at, &holder, option).await;

    // Every member pays on A, waiting their turn, while A is killed.
    let mut paying = Vec::new();
    for (who, hash) in &members {
        let (on, who, hash) = (a.at.clone(), who.clone(), hash.clone());
        paying.push(tokio::spawn(async move {
            try_pay_in_turn(&on, &who, &hash).await
        }));
    }
    tokio::time::sleep(Duration::from_millis(400)).await;
    drop(a); // SIGKILL
    let mut answered = Vec::new();
    for task in paying {
        answered.push(task.await.unwrap());
    }
    let lost = answered.iter().filter(|o| o.is_none()).count();
    eprintln!("killed with {lost} of 30 payments unanswered");
    assert!(lost > 0, "the kill came before the load ended");

    // Every member pays again on B, all at once as their browsers would, with the same
    // hash: the answered ones get their order back, the others pay once.
    let mut again = Vec::new();
    for (who, hash) in &members {
        let (on, who, hash) = (b.clone(), who.clone(), hash.clone());
        again.push(tokio::spawn(async move {
            pay_in_turn(&on, &on, &who, &hash).await
        }));
    }
    for (task, first) in again.into_iter().zip(&answered) {
        let order = task.await.unwrap();
        if let Some(first) = first {
            assert_eq!(order, *first, "a paid order keeps its id");
        }
    }
    let ids: Vec<i64> = members.iter().map(|(w, _)| w.member_id).collect();
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let orders = t
        .count(&format!(
            "SELECT COUNT(*) FROM orders WHERE member_id IN ({list})"
        ))
        .await;
    assert_eq!(orders, 30, "one order per member, none lost, none doubled");
    let approved = t
        .count(&format!(
            "SELECT COUNT(DISTINCT o.id) FROM orders o JOIN payments p ON p.cart_hash = o.idempotency_key
              WHERE p.status = 'approved' AND o.member_id IN ({list})"
        ))
        .await;
    assert_eq!(approved, 30, "every order has its approved payment");

    // Past the holder's expiry, B's sweeper has released the dead instance's hold.
    tokio::time::sleep(Duration::from_secs(HOLD_SECS as u64 + 3)).await;
    assert_eq!(stock(t, option).await, (1000, 0, 30));
    let now = app::platform::state::now();
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM cart_items WHERE expires_at < {now}"
        ))
        .await,
        0
    );
}
