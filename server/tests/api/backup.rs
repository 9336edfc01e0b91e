//! Online backup of the SQLite database while checkouts run: the shop started on the
//! restored copy has every order whose payment was answered before the backup began,
//! with its payment record, and the member still sees it.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::json;

use crate::helpers::cart::{option_with_stock, shopper};
use crate::helpers::{start, start_with, Backend};

const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_taken_during_checkouts_restores_every_paid_order() {
    let t = Arc::new(start(Backend::Sqlite).await);
    let option = option_with_stock(&t, 2, 10_000).await;
    let paid: Arc<Mutex<Vec<(i64, i64, Instant)>>> = Arc::default();
    // Six shoppers at a time keep paying until the backup has ended, then once more each:
    // checkouts run before, during and after it however long the copy takes (a fixed
    // number of checkouts could all be over before a slow backup ends).
    let stop = Arc::new(AtomicBool::new(false));
    let mut load = Vec::new();
    for _ in 0..6 {
        let (t, paid, stop) = (t.clone(), paid.clone(), stop.clone());
        load.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            loop {
                let last = stop.load(Ordering::SeqCst);
                let who = shopper(&t, 2).await;
                let add = json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" });
                let (status, _) = who.call(&t, Method::POST, "/api/cartproxy/v1/item", Some(add)).await;
                assert_eq!(status, 201);
                let (_, frozen) = who.call(&t, Method::GET, PIPE, None).await;
                let pay = json!({ "cartHash": frozen["cartHash"], "generateDeeplinkReturnUrl": false, "card": "4242424242424242" });
                let (status, body) = who.call(&t, Method::POST, &format!("{PIPE}/pay"), Some(pay)).await;
                assert_eq!(status, 200, "{body}");
                let order = body["orderId"].as_i64().unwrap();
                paid.lock().unwrap().push((order, who.member_id, Instant::now()));
                mine.push(who);
                if last || mine.len() >= 500 {
                    return mine;
                }
            }
        }));
    }
    while paid.lock().unwrap().len() < 20 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Beside the data folder, not in it: that folder holds the wallet key (review N9).
    let dest = std::path::PathBuf::from(format!("{}-backups", t.app.config.data_dir))
        .join("rosace-copy.db");
    let began = Instant::now();
    server::backup::sqlite_online_backup(&t.app.state.db, &dest)
        .await
        .expect("backup while serving");
    let ended = Instant::now();
    stop.store(true, Ordering::SeqCst);
    let mut shoppers = Vec::new();
    for task in load {
        shoppers.extend(task.await.unwrap());
    }
    assert!(
        matches!(
            server::backup::sqlite_online_backup(&t.app.state.db, &dest).await,
            Err(server::backup::BackupError::Exists)
        ),
        "a backup never overwrites"
    );

    let paid = paid.lock().unwrap().clone();
    let before: Vec<(i64, i64)> = paid
        .iter()
        .filter(|(_, _, at)| *at < began)
        .map(|(o, m, _)| (*o, *m))
        .collect();
    assert!(before.len() >= 20);
    assert!(
        paid.iter().any(|(_, _, at)| *at > ended),
        "checkouts went on during and after the backup"
    );
    eprintln!(
        "{} orders paid before the backup, {} in all",
        before.len(),
        paid.len()
    );

    // Restore: a shop started on the copy.
    let url = format!("sqlite://{}?mode=rw", dest.display());
    let restored = start_with(Backend::Sqlite, |c| c.database_url = url).await;
    for (order, member) in &before {
        let found = restored
            .count(&format!(
                "SELECT COUNT(*) FROM orders o JOIN payments p ON p.cart_hash = o.idempotency_key
                  WHERE o.id = {order} AND o.member_id = {member} AND o.status = 'validated' AND p.status = 'approved'"
            ))
            .await;
        assert_eq!(
            found, 1,
            "order {order}, paid before the backup, is in the copy"
        );
    }
    let in_copy = restored.count("SELECT COUNT(*) FROM orders").await;
    assert!(in_copy >= before.len() as i64 && in_copy <= paid.len() as i64);
    // The member sees it in the restored shop (their session is in the copy too).
    let (order, member) = before[0];
    let who = shoppers.iter().find(|s| s.member_id == member).unwrap();
    let (status, body) = who
        .call(
            &restored,
            Method::GET,
            &format!("/api/orders/v1/orders/{order}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

/// Review N9: a backup is readable by its owner only (and so are the folders it makes), and
/// it is refused inside a folder that holds the wallet key, where a copy of the folder
/// would carry the sealed bank details and their key together.
#[tokio::test]
async fn backups_are_private_and_kept_apart_from_the_wallet_key() {
    use std::os::unix::fs::PermissionsExt;
    let t = start(Backend::Sqlite).await;
    let data = std::path::PathBuf::from(&t.app.config.data_dir);
    let key = data.join(app::wallet::crypto::KEY_FILE);
    if !key.exists() {
        std::fs::write(&key, "00").unwrap();
    }
    let beside = data.join("backups/rosace-copy.db");
    match server::backup::sqlite_online_backup(&t.app.state.db, &beside).await {
        Err(server::backup::BackupError::BesideKey(dir)) => {
            assert_eq!(dir.canonicalize().unwrap(), data.canonicalize().unwrap())
        }
        other => panic!("a backup beside the key: {other:?}"),
    }
    assert!(!beside.exists() && !data.join("backups").exists());

    let apart = std::path::PathBuf::from(format!("{}-elsewhere", data.display()));
    let dest = apart.join("nightly/rosace-copy.db");
    server::backup::sqlite_online_backup(&t.app.state.db, &dest)
        .await
        .expect("a backup apart from the key");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dest), 0o600, "the backup file");
    assert_eq!(mode(&apart.join("nightly")), 0o700, "the folder it made");
    assert_eq!(mode(&apart), 0o700, "the folder it made");
    // And it is a whole database: a shop starts on it.
    let url = format!("sqlite://{}?mode=rw", dest.display());
    let restored = start_with(Backend::Sqlite, |c| c.database_url = url).await;
    assert!(restored.count("SELECT COUNT(*) FROM members").await > 0);
}
