use super::*;
use crate::cart::member::{AddLine, AddOptions, Member};
use crate::cart::store::OptionInfo;

const HOLD: i64 = 900;
const MAX: i64 = 5;
const NOW: i64 = 1_000;

fn info(option_id: i64, product_id: i64) -> OptionInfo {
    OptionInfo {
        option_id,
        product_id,
        sale_id: 7,
        site_id: 1,
        label: String::new(),
        name: String::new(),
        price: 100,
        starts_at: 0,
        ends_at: i64::MAX,
    }
}

/// An add by `member` of (option, product, quantity) lines.
fn job(member: i64, lines: &[(i64, i64, i64)], cart_type: &str) -> AddJob {
    let mut per_product: Vec<(i64, i64)> = Vec::new();
    for (_, p, q) in lines {
        match per_product.iter_mut().find(|(x, _)| x == p) {
            Some((_, n)) => *n += q,
            None => per_product.push((*p, *q)),
        }
    }
    AddJob {
        m: Member {
            id: member,
            site_id: 1,
        },
        lines: lines
            .iter()
            .map(|(o, _, q)| AddLine {
                option_id: *o,
                quantity: *q,
            })
            .collect(),
        infos: lines.iter().map(|(o, p, _)| info(*o, *p)).collect(),
        per_product,
        cart_type: cart_type.into(),
        opts: AddOptions::default(),
        now: NOW,
    }
}

fn stock(left: &[(i64, i64)]) -> Snapshot {
    Snapshot {
        left: left.iter().copied().collect(),
        ..Snapshot::default()
    }
}

fn run(jobs: &[AddJob], snap: Snapshot) -> Plan {
    let refs: Vec<&AddJob> = jobs.iter().collect();
    decide(&refs, snap, HOLD, MAX)
}

#[test]
fn scarce_units_go_to_the_first_adds_in_order() {
    let jobs: Vec<AddJob> = (1..=5).map(|m| job(m, &[(10, 1, 1)], "fs")).collect();
    let plan = run(&jobs, stock(&[(10, 3)]));
    let ok: Vec<bool> = plan.results.iter().map(Result::is_ok).collect();
    assert_eq!(ok, [true, true, true, false, false]);
    assert_eq!(plan.results[4], Err(CartError::OutOfStock));
    assert_eq!(plan.held, [(10, 3)]);
    assert_eq!(plan.items.len(), 3);
    assert_eq!(plan.carts.len(), 3, "a cart row for each new holder");
    assert_eq!(plan.accepted_members, [1, 2, 3]);
}

#[test]
fn a_big_add_refused_leaves_its_units_to_smaller_ones_after_it() {
    let jobs = [
        job(1, &[(10, 1, 2)], "fs"),
        job(2, &[(10, 1, 3)], "fs"),
        job(3, &[(10, 1, 1)], "fs"),
    ];
    let plan = run(&jobs, stock(&[(10, 3)]));
    assert_eq!(
        plan.results,
        [Ok(()), Err(CartError::OutOfStock), Ok(())],
        "as one after the other"
    );
    assert_eq!(plan.held, [(10, 3)]);
}

#[test]
fn a_multi_line_add_is_all_or_nothing() {
    let jobs = [
        job(1, &[(10, 1, 1), (11, 2, 2)], "fs"),
        job(2, &[(10, 1, 1)], "fs"),
    ];
    let plan = run(&jobs, stock(&[(10, 1), (11, 1)]));
    assert_eq!(plan.results, [Err(CartError::OutOfStock), Ok(())]);
    assert_eq!(plan.held, [(10, 1)], "the first line's unit went back");
    assert_eq!(plan.items.len(), 1);
    assert_eq!(plan.items[0].member_id, 2);
}

#[test]
fn an_unknown_option_is_out_of_stock() {
    let plan = run(&[job(1, &[(99, 1, 1)], "fs")], stock(&[]));
    assert_eq!(plan.results, [Err(CartError::OutOfStock)]);
    assert!(plan.items.is_empty() && plan.carts.is_empty() && plan.held.is_empty());
}

#[test]
fn one_members_adds_in_one_batch_keep_the_member_limit() {
    let jobs: Vec<AddJob> = (0..8).map(|_| job(1, &[(10, 1, 1)], "fs")).collect();
    let plan = run(&jobs, stock(&[(10, 100)]));
    let ok = plan.results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(ok as i64, MAX);
    assert!(plan.results[5..]
        .iter()
        .all(|r| *r == Err(CartError::MaxReached)));
    assert_eq!(plan.held, [(10, MAX)]);
    assert_eq!(plan.items.len(), 1, "one row per member and option");
    assert_eq!(plan.items[0].quantity, MAX);
    assert_eq!(plan.carts.len(), 1, "the cart row is written once");
}

#[test]
fn the_limit_counts_live_lines_of_the_product_only() {
    let mut snap = stock(&[(10, 100), (12, 100)]);
    snap.carts.insert(
        1,
        CartRowState {
            status: "open".into(),
            cart_type: Some("fs".into()),
        },
    );
    snap.lines.insert(
        1,
        vec![
            // another option of the same product, live: counts
            LineState {
                option_id: 12,
                product_id: 1,
                quantity: 3,
                expires_at: NOW + 10,
            },
            // expired: does not count
            LineState {
                option_id: 10,
                product_id: 1,
                quantity: 4,
                expires_at: NOW,
            },
        ],
    );
    let plan = run(
        &[job(1, &[(10, 1, 2)], "fs"), job(1, &[(10, 1, 1)], "fs")],
        snap,
    );
    // The first add revives the expired line (4 + 2 live now): the second is past the limit.
    assert_eq!(plan.results, [Ok(()), Err(CartError::MaxReached)]);
    assert!(
        plan.carts.is_empty(),
        "same type: the cart row is left alone"
    );
    assert_eq!(plan.items[0].quantity, 2);
}

#[test]
fn frozen_carts_and_other_cart_types_are_refused() {
    let mut snap = stock(&[(10, 100)]);
    snap.carts.insert(
        1,
        CartRowState {
            status: "frozen".into(),
            cart_type: Some("fs".into()),
        },
    );
    let plan = run(
        &[
            job(1, &[(10, 1, 1)], "fs"),
            job(2, &[(10, 1, 1)], "fs"),
            job(2, &[(10, 1, 1)], "travel"),
            job(3, &[(10, 1, 1)], "travel"),
        ],
        snap,
    );
    assert_eq!(
        plan.results,
        [
            Err(CartError::Frozen),
            Ok(()),
            Err(CartError::IncompatibleCartTypes),
            Ok(())
        ]
    );
    assert_eq!(plan.held, [(10, 2)]);
    assert_eq!(plan.carts.len(), 2);
    assert_eq!(plan.carts[1].cart_type, "travel");
}

#[test]
fn a_cart_without_live_lines_takes_the_new_type() {
    let mut snap = stock(&[(10, 100)]);
    snap.carts.insert(
        1,
        CartRowState {
            status: "open".into(),
            cart_type: Some("travel".into()),
        },
    );
    let plan = run(&[job(1, &[(10, 1, 1)], "fs")], snap);
    assert_eq!(plan.results, [Ok(())]);
    assert_eq!(plan.carts.len(), 1);
    assert_eq!(plan.carts[0].cart_type, "fs");
}

#[test]
fn writes_of_one_line_sum_up_and_keep_the_first_origin() {
    let mut a = job(1, &[(10, 1, 1)], "fs");
    a.opts.origin = Some("first".into());
    let mut b = job(1, &[(10, 1, 2)], "fs");
    b.opts.origin = Some("second".into());
    b.now = NOW + 1;
    let plan = run(&[a, b], stock(&[(10, 100)]));
    assert_eq!(plan.items.len(), 1);
    let item = &plan.items[0];
    assert_eq!(
        (
            item.quantity,
            item.origin.as_deref(),
            item.created_at,
            item.expires_at
        ),
        (3, Some("first"), NOW, NOW + 1 + HOLD)
    );
}
