//! The group-commit writers' batches (`platform::group_commit`), on SQLite and PostgreSQL:
//! a batch written with its fixed few statements leaves what its writes would have left
//! written one after the other. Each script runs twice, for two members: batched for one,
//! one write per transaction for the other, and the two end states must be the same.
use app::experiments::writer::Exposure;
use app::platform::group_commit::GroupWrite;
use app::search::service::SearchRecord;

use crate::helpers::{both, TestApp};

/// Two members of site 1.
async fn two_members(t: &TestApp) -> (i64, i64) {
    let ids: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM members WHERE site_id = 1 ORDER BY id LIMIT 2")
            .fetch_all(&t.app.state.db.pool)
            .await
            .unwrap();
    (ids[0], ids[1])
}

/// Writes `batch` in one transaction, as the writer task does.
async fn write<W: GroupWrite>(t: &TestApp, batch: &[W]) {
    let db = &t.app.state.db;
    let refs: Vec<&W> = batch.iter().collect();
    let mut tx = db.begin().await.unwrap();
    W::write_all(db.backend, &refs, &mut tx).await.unwrap();
    tx.commit().await.unwrap();
}

/// Writes `batch` as it is, then each of `one_by_one` in a transaction of its own.
async fn batched_and_one_by_one<W: GroupWrite>(t: &TestApp, batch: Vec<W>, one_by_one: Vec<W>) {
    write(t, &batch).await;
    for w in one_by_one {
        write(t, &[w]).await;
    }
}

/// A member's recent queries of site 1, newest first.
async fn recent(t: &TestApp, member_id: i64) -> Vec<(String, i64)> {
    app::search::store::recent(&t.app.state.db, member_id, 1)
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.query, r.created_at))
        .collect()
}

async fn search_records_batched_as_one_by_one(t: TestApp) {
    let (a, b) = two_members(&t).await;
    let script = |member_id: i64| -> Vec<SearchRecord> {
        let older = (0..9).map(|n| (format!("older {n}"), 100 + n));
        // Searched again (case and accents ignored; the last spelling is kept), blank,
        // repeated within the batch, and more than the ten kept in all.
        let batch = [
            ("Robe  rouge", 200),
            ("older 3", 200),
            ("   ", 200),
            ("robe ROUGE", 201),
            ("Été", 201),
            ("ete", 201),
            ("chaussures", 201),
        ]
        .map(|(q, now)| (q.to_string(), now));
        older
            .chain(batch)
            .map(|(q, now)| SearchRecord {
                member_id,
                site_id: 1,
                q,
                now,
            })
            .collect()
    };
    // Member a: the nine older ones one by one, then the rest as one batch; member b: all
    // one by one.
    let mut first = script(a);
    let rest = first.split_off(9);
    for w in first {
        write(&t, &[w]).await;
    }
    batched_and_one_by_one(&t, rest, script(b)).await;
    let (got, want) = (recent(&t, a).await, recent(&t, b).await);
    assert_eq!(got, want);
    let queries: Vec<&str> = got.iter().map(|(q, _)| q.as_str()).collect();
    assert_eq!(
        queries,
        [
            "chaussures",
            "ete",
            "robe ROUGE",
            "older 3",
            "older 8",
            "older 7",
            "older 6",
            "older 5",
            "older 4",
            "older 2"
        ]
    );
}

both!(
    search_records_batched_as_one_by_one,
    search_records_batched_on_sqlite,
    search_records_batched_on_postgres,
);

async fn assignments(
    t: &TestApp,
    visitor: &str,
) -> Vec<(String, String, i64, i64, i64, Option<i64>)> {
    sqlx::query_as(
        "SELECT experiment, variation, assigned_at, last_exposed_at, exposures, member_id
           FROM experiment_assignments WHERE visitor = $1 ORDER BY experiment",
    )
    .bind(visitor)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap()
}

async fn exposures_batched_as_one_by_one(t: TestApp) {
    let (a, b) = two_members(&t).await;
    // An anonymous browser seen several times in a batch, with the variation changing
    // (new weights) and the member known only from its third view.
    let script = |visitor: &str, member_id: i64| -> Vec<Exposure> {
        let view = |variation: &str, member: Option<i64>, now: i64| Exposure {
            site_id: 1,
            visitor: visitor.to_string(),
            member_id: member,
            assigned: vec![
                ("member_dynamic_pricing".into(), variation.into()),
                ("member_last_viewed".into(), "var1_enabled".into()),
            ],
            now,
            link_anonymous: None,
        };
        vec![
            view("off", None, 10),
            view("on", None, 11),
            view("on", Some(member_id), 12),
            view("off", None, 13),
        ]
    };
    // Already seen once before the batch for the first visitor: its count goes on.
    write(&t, &script("a:batched", a)[..1]).await;
    write(&t, &script("a:alone", b)[..1]).await;
    batched_and_one_by_one(&t, script("a:batched", a), script("a:alone", b)).await;
    let (got, want) = (
        assignments(&t, "a:batched").await,
        assignments(&t, "a:alone").await,
    );
    let strip_member = |rows: Vec<(String, String, i64, i64, i64, Option<i64>)>| {
        rows.into_iter()
            .map(|(e, v, first, last, n, m)| (e, v, first, last, n, m.is_some()))
            .collect::<Vec<_>>()
    };
    assert_eq!(strip_member(got.clone()), strip_member(want));
    assert_eq!(
        got,
        [
            (
                "member_dynamic_pricing".to_string(),
                "off".to_string(),
                10,
                13,
                5,
                Some(a)
            ),
            (
                "member_last_viewed".to_string(),
                "var1_enabled".to_string(),
                10,
                13,
                5,
                Some(a)
            ),
        ]
    );
}

both!(
    exposures_batched_as_one_by_one,
    exposures_batched_on_sqlite,
    exposures_batched_on_postgres,
);
