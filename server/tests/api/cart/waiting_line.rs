//! The waiting line in the database: two lines on one database (two instances) share one
//! capacity and one first-come-first-served order; a member pays once at a time; places
//! lapse (abandoned tickets, unused ready slots, the lease of a killed instance).
use app::cart::waiting::{Admission, Permit, WaitingLine, LINE_LOCK, QUEUE_KEEP, READY_HOLD};
use app::model::cart::WaitingLine as Place;

const PAY_LEASE: i64 = 60;

use crate::helpers::{both, TestApp};

fn admitted(a: Admission) -> Permit {
    match a {
        Admission::Admitted(p) => p,
        _ => panic!("expected a payment slot"),
    }
}

fn queued(a: Admission) -> Place {
    match a {
        Admission::Queued(v) => v,
        _ => panic!("expected a place in the line"),
    }
}

async fn position(line: &WaitingLine, ticket: &str, now: i64) -> Option<(i64, bool)> {
    line.status(ticket, now)
        .await
        .unwrap()
        .map(|p| (p.position, p.ready))
}

async fn shared_line(t: TestApp) {
    let db = &t.app.state.db;
    let (a, b) = (
        WaitingLine::new(db.clone(), 1, PAY_LEASE),
        WaitingLine::new(db.clone(), 1, PAY_LEASE),
    );
    let now = 1_000_000;
    let first = admitted(a.admit(1, now).await.unwrap());
    assert!(
        matches!(b.admit(1, now).await.unwrap(), Admission::AlreadyPaying),
        "a member's second payment, on the other instance, does not run beside the first"
    );
    let second = queued(b.admit(2, now).await.unwrap());
    let third = queued(a.admit(3, now).await.unwrap());
    assert_eq!((second.position, third.position), (1, 2));
    assert_eq!(
        queued(a.admit(2, now).await.unwrap()).ticket,
        second.ticket,
        "one place per member, whichever instance"
    );
    assert_eq!(position(&b, &third.ticket, now).await, Some((2, false)));

    first.release().await;
    assert_eq!(position(&b, &second.ticket, now).await, Some((0, true)));
    assert_eq!(position(&a, &third.ticket, now).await, Some((1, false)));
    assert!(
        matches!(b.admit(3, now).await.unwrap(), Admission::Queued(_)),
        "member 3 cannot jump the line"
    );
    // Member 2 pays on the other instance, which is then killed: its slot is a lease.
    std::mem::forget(admitted(b.admit(2, now).await.unwrap()));
    assert_eq!(
        position(&a, &third.ticket, now + 30).await,
        Some((1, false))
    );
    assert_eq!(
        position(&a, &third.ticket, now + PAY_LEASE).await,
        Some((0, true)),
        "the dead instance's slot came back"
    );
    // A ready slot not used in time goes to the next member; the ticket is gone (410).
    let fourth = queued(a.admit(4, now + PAY_LEASE).await.unwrap());
    let later = now + PAY_LEASE + READY_HOLD;
    assert_eq!(position(&a, &third.ticket, later).await, None);
    assert_eq!(position(&b, &fourth.ticket, later).await, Some((0, true)));
    // A place nobody asks for lapses.
    let _paying = admitted(a.admit(4, later).await.unwrap());
    let fifth = queued(b.admit(5, later).await.unwrap());
    assert_eq!(
        position(&a, &fifth.ticket, later + 1).await,
        Some((1, false))
    );
    assert_eq!(
        position(&a, &fifth.ticket, later + 1 + QUEUE_KEEP).await,
        None
    );
}

both!(shared_line, shared_line_on_sqlite, shared_line_on_postgres);

/// Sixty members at once on two instances with room for five: five pay, the others get
/// the positions 1 to 55, each once.
async fn one_order_under_load(t: TestApp) {
    let db = &t.app.state.db;
    let lines = std::sync::Arc::new([
        WaitingLine::new(db.clone(), 5, PAY_LEASE),
        WaitingLine::new(db.clone(), 5, PAY_LEASE),
    ]);
    let now = 1_000_000;
    let mut tasks = Vec::new();
    for member in 1..=60_i64 {
        let lines = lines.clone();
        tasks.push(tokio::spawn(async move {
            lines[(member % 2) as usize]
                .admit(member, now)
                .await
                .unwrap()
        }));
    }
    let (mut paying, mut positions) = (Vec::new(), Vec::new());
    for task in tasks {
        match task.await.unwrap() {
            Admission::Admitted(p) => paying.push(p),
            Admission::Queued(v) => positions.push(v.position),
            Admission::AlreadyPaying => panic!("each member asked once"),
        }
    }
    positions.sort();
    assert_eq!(paying.len(), 5);
    assert_eq!(positions, (1..=55).collect::<Vec<_>>());
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    one_order_under_load,
    one_order_under_load_on_sqlite,
    one_order_under_load_on_postgres
);

/// At a sale opening thousands of queued members ask for their place every few seconds. One
/// whose turn cannot have come is answered without the line's lock (PostgreSQL's advisory
/// lock, held here by another session, as a long line transaction would); one whose turn
/// may have come (the paying slot's lease lapsed) waits for the lock and is then let in.
#[tokio::test]
async fn a_place_far_back_is_answered_without_the_line_lock() {
    use sqlx::{Connection, Executor};
    use std::time::Duration;

    let t = crate::helpers::start_with(crate::helpers::Backend::Postgres, |_| {}).await;
    let db = &t.app.state.db;
    let lease = 10;
    let line = WaitingLine::new(db.clone(), 1, lease);
    let now = 1_000_000;
    std::mem::forget(admitted(line.admit(1, now).await.unwrap()));
    let second = queued(line.admit(2, now).await.unwrap());
    let third = queued(line.admit(3, now).await.unwrap());

    let mut other = sqlx::AnyConnection::connect(&t.app.config.database_url)
        .await
        .unwrap();
    other
        .execute(format!("SELECT pg_advisory_lock({LINE_LOCK})").as_str())
        .await
        .unwrap();
    let later = now + lease;
    let far = tokio::time::timeout(
        Duration::from_secs(5),
        position(&line, &third.ticket, later),
    )
    .await;
    assert_eq!(
        far.ok(),
        Some(Some((2, false))),
        "a place that cannot be promoted is answered while the line is locked"
    );
    let near = tokio::time::timeout(
        Duration::from_millis(500),
        position(&line, &second.ticket, later),
    )
    .await;
    assert!(
        near.is_err(),
        "a place whose turn may have come waits for the line's lock: {near:?}"
    );
    other
        .execute(format!("SELECT pg_advisory_unlock({LINE_LOCK})").as_str())
        .await
        .unwrap();
    assert_eq!(
        position(&line, &second.ticket, later).await,
        Some((0, true)),
        "the lapsed lease's slot goes to the next in line"
    );
    assert_eq!(
        position(&line, &third.ticket, later).await,
        Some((1, false))
    );
}

/// The line's PostgreSQL functions are replaced on every start: instances starting at once
/// on one database all start (the replacement takes a lock; without it PostgreSQL refuses
/// one of two concurrent replacements of a function, "tuple concurrently updated"), and
/// the line still works.
#[tokio::test]
async fn instances_starting_at_once_all_install_the_line() {
    let t = crate::helpers::start_with(crate::helpers::Backend::Postgres, |_| {}).await;
    let url = t.app.config.database_url.clone();
    let mut dbs = Vec::new();
    for _ in 0..4 {
        dbs.push(app::platform::db::Db::connect(&url, 4).await.unwrap());
    }
    for round in 0..20 {
        let starts: Vec<_> = dbs
            .iter()
            .map(|db| {
                let db = db.clone();
                tokio::spawn(async move { db.migrate().await })
            })
            .collect();
        for start in starts {
            let started = start.await.unwrap();
            assert!(started.is_ok(), "round {round}: {started:?}");
        }
    }
    let line = WaitingLine::new(dbs[3].clone(), 1, PAY_LEASE);
    let now = 1_000_000;
    let first = admitted(line.admit(7, now).await.unwrap());
    assert_eq!(queued(line.admit(8, now).await.unwrap()).position, 1);
    first.release().await;
}
