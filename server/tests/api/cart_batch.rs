//! The add writer's batches (group commit) under real concurrent clients, on SQLite and
//! PostgreSQL: single and multi-line adds of a scarce and a plentiful option, several at
//! once by the same member, all land in the same few transactions. Nothing is oversold,
//! every accepted add is held exactly (stock, cart lines, the answer's cart), and a
//! refused add leaves nothing behind, not even a cart row.
use std::collections::HashMap;
use std::sync::Arc;

use reqwest::Method;
use serde_json::{json, Value};
use tokio::task::JoinSet;

use crate::helpers::cart::{option_with_stock, shopper, stock};
use crate::helpers::{both, TestApp};

const MEMBERS: usize = 200;
const SCARCE: i64 = 30;

/// What member `i` asks for, as (option, quantity) lines of one call each.
fn asks(i: usize, scarce: i64, plenty: i64) -> Vec<Vec<(i64, i64)>> {
    let first = match i % 4 {
        0 => vec![(scarce, 1)],
        1 => vec![(scarce, 2)],
        2 => vec![(scarce, 1), (plenty, 2)],
        _ => vec![(plenty, 1)],
    };
    if i.is_multiple_of(5) {
        // A second call at the same moment: the member's adds share a batch.
        vec![first, vec![(plenty, 1)]]
    } else {
        vec![first]
    }
}

fn body(lines: &[(i64, i64)]) -> (&'static str, Value) {
    match lines {
        [(o, q)] => (
            "/api/cartproxy/v1/item",
            json!({ "product_id": o.to_string(), "quantity": q, "cart_type": "fs" }),
        ),
        _ => (
            "/api/cartproxy/v1/items",
            json!({
                "products_quantity": lines.iter()
                    .map(|(o, q)| json!({ "product_id": o.to_string(), "quantity": q }))
                    .collect::<Vec<_>>(),
                "cart_type": "fs",
            }),
        ),
    }
}

async fn batched_adds(t: TestApp) {
    let t = Arc::new(t);
    let scarce = option_with_stock(&t, 10, SCARCE).await;
    let plenty = option_with_stock(&t, 11, 10_000).await;
    let mut members = Vec::with_capacity(MEMBERS);
    for _ in 0..MEMBERS {
        members.push(Arc::new(shopper(&t, 2).await));
    }
    let mut tasks = JoinSet::new();
    for (i, s) in members.iter().enumerate() {
        for lines in asks(i, scarce, plenty) {
            let (t, s) = (t.clone(), s.clone());
            tasks.spawn(async move {
                let (path, req) = body(&lines);
                let (status, answer) = s.call(&t, Method::POST, path, Some(req)).await;
                if status == 201 {
                    // The answer is the cart after the add: it holds at least what was asked.
                    for (o, q) in &lines {
                        let line = answer["items"]
                            .as_array()
                            .and_then(|items| {
                                items.iter().find(|l| {
                                    l["productId"].as_str().and_then(|p| p.parse().ok()) == Some(*o)
                                })
                            })
                            .unwrap_or_else(|| panic!("{o} in the answer: {answer}"));
                        assert!(line["quantity"].as_i64().unwrap() >= *q, "{answer}");
                    }
                } else {
                    assert_eq!(
                        (status, answer["error_code"].as_str()),
                        (400, Some("out_of_stock")),
                        "{answer}"
                    );
                }
                (s.member_id, lines, status == 201)
            });
        }
    }
    // What each member was granted, by option.
    let mut granted: HashMap<i64, HashMap<i64, i64>> = HashMap::new();
    let mut refused_members = 0;
    while let Some(r) = tasks.join_next().await {
        let (member, lines, ok) = r.unwrap();
        let mine = granted.entry(member).or_default();
        if ok {
            for (o, q) in lines {
                *mine.entry(o).or_default() += q;
            }
        }
    }
    let total = |o: i64| -> i64 { granted.values().filter_map(|m| m.get(&o)).sum() };
    let (_, held, sold) = stock(&t, scarce).await;
    assert_eq!(
        (held, sold),
        (total(scarce), 0),
        "the scarce option: held as granted"
    );
    assert!(
        (SCARCE - 1..=SCARCE).contains(&held),
        "{held} of {SCARCE} held: never more, and the adds that fit got them"
    );
    assert_eq!(stock(&t, plenty).await, (10_000, total(plenty), 0));
    for s in &members {
        let rows: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT option_id, quantity FROM cart_items WHERE member_id = $1 ORDER BY option_id",
        )
        .bind(s.member_id)
        .fetch_all(&t.app.state.db.pool)
        .await
        .unwrap();
        let mut expected: Vec<(i64, i64)> = granted[&s.member_id]
            .iter()
            .filter(|(_, q)| **q > 0)
            .map(|(o, q)| (*o, *q))
            .collect();
        expected.sort_unstable();
        assert_eq!(rows, expected, "member {}: lines as granted", s.member_id);
        let carts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM carts WHERE member_id = $1")
            .bind(s.member_id)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
        if expected.is_empty() {
            refused_members += 1;
            assert_eq!(
                carts, 0,
                "member {}: a refused add leaves no cart row",
                s.member_id
            );
        } else {
            assert_eq!(carts, 1);
        }
    }
    assert!(refused_members > 0, "the scarce option ran out for some");

    // The writer answers a batch with its members' carts read in one query: each is the
    // member's own cart, as the one-member read gives it (lines, totals, no other's line),
    // including the members whose adds were all refused.
    let ids: Vec<i64> = members.iter().map(|s| s.member_id).collect();
    let now = app::platform::state::now();
    let db = &t.app.state.db;
    let together = app::cart::store::views(db, &ids, now).await.unwrap();
    assert_eq!(together.len(), ids.len());
    for id in &ids {
        let alone = app::cart::store::view(db, *id, now).await.unwrap();
        assert_eq!(
            together[id], alone,
            "member {id}: the batch's cart is the member's own"
        );
    }
}

fn bigger_pool(c: &mut server::config::Config) {
    c.db_max_connections = 16;
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    batched_adds,
    batched_adds_hold_exactly_on_sqlite,
    batched_adds_hold_exactly_on_postgres,
    bigger_pool,
);
