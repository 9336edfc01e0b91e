//! The fulfilment simulator as an operator runs it: `server orders advance|simulate` as a
//! real process on the shop's database (SQLite data directory or PostgreSQL URL), and the
//! background job of `ROSACE_FULFILMENT_SECS`, each on both backends.
use std::process::Command;
use std::time::{Duration, Instant};

use super::{buy, detail, timeline};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

/// `server orders <args>` on the test shop's database: exit code, stdout, stderr.
fn orders_command(t: &TestApp, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_server"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", &t.app.config.database_url)
        .env("ROSACE_DATA_DIR", &t.app.config.data_dir)
        .env("RUST_LOG", "warn")
        .arg("orders")
        .args(args)
        .output()
        .expect("run the server binary");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

async fn simulator_command(t: TestApp) {
    let a = shopper(&t, 2).await;
    let id = buy(&t, &a, 1).await;
    let sid = id.to_string();

    // A parcel is never an active booking: refused with the moves it has.
    let (code, _, err) = orders_command(&t, &["advance", &sid, "active"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!(
            "refused: order {id}: an order validated cannot become active (allowed: in_preparation, cancelled)"
        )),
        "{err}"
    );

    let (code, out, err) = orders_command(&t, &["advance", &sid]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out.trim(),
        format!("order {id}: validated -> in_preparation")
    );

    let (code, _, err) = orders_command(&t, &["advance", &sid, "received"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!(
            "refused: order {id}: an order in_preparation cannot become received"
        )),
        "{err}"
    );

    let (code, out, err) = orders_command(&t, &["simulate"]);
    assert_eq!(code, 0, "{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("order {id}:")))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains("in_preparation -> shipped (tracking number RS"),
        "{line}"
    );
    assert!(out.trim_end().ends_with("order(s) moved"), "{out}");

    let (code, out, _) = orders_command(&t, &["advance", &sid, "received_partially"]);
    assert_eq!(
        (code, out.trim()),
        (
            0,
            format!("order {id}: shipped -> received_partially").as_str()
        )
    );
    let (_, d) = detail(&t, &a, id).await;
    assert_eq!(
        timeline(&d),
        [
            "validated",
            "in_preparation",
            "shipped",
            "received_partially"
        ]
    );
    assert!(d["trackingNumber"].as_str().unwrap().starts_with("RS"));

    let (code, _, err) = orders_command(&t, &["advance", "999999"]);
    assert_eq!((code, err.trim()), (1, "no order 999999"));
    let (code, _, err) = orders_command(&t, &["advance", "twelve"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = orders_command(&t, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("usage: server orders advance <ORDER_ID> [STATUS]"),
        "{err}"
    );
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    simulator_command,
    the_simulator_command_moves_orders_as_a_process_on_sqlite,
    the_simulator_command_moves_orders_as_a_process_on_postgres
);

async fn background_job(t: TestApp) {
    let a = shopper(&t, 2).await;
    let id = buy(&t, &a, 1).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, d) = detail(&t, &a, id).await;
        if d["status"] == "received" {
            assert_eq!(
                timeline(&d),
                ["validated", "in_preparation", "shipped", "received"]
            );
            break;
        }
        assert!(Instant::now() < deadline, "still {}", d["status"]);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    background_job,
    the_background_job_moves_paid_orders_when_asked_on_sqlite,
    the_background_job_moves_paid_orders_when_asked_on_postgres,
    |c| c.fulfilment_secs = 1
);

#[test]
fn the_background_job_is_off_by_default() {
    let config = server::config::Config::from_env("127.0.0.1:0".parse().unwrap()).unwrap();
    assert_eq!(config.fulfilment_secs, 0);
}
