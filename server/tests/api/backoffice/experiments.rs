//! The experiments page: the report's figures after members' page views and a paid order;
//! stop (the shop shows the control and records nothing new), start (every visitor back in
//! their variation), reweigh (good weights apply at once; bad ones are refused with their
//! message and change nothing); two operators on one experiment (the second is told, 409);
//! the audit log; the command line; another instance on restart; roles.
use std::process::Command;

use serde_json::json;

use super::*;
use crate::experiments::{
    buy, call, expected, page, row, variation, ANON_OFF, ANON_ON, CATALOG, PERF_OK,
};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};
use app::experiments::rules::{Subject, ANON_ID_COOKIE};

const PAGE: &str = "/backoffice/experiments";
const PRICING: &str = "anonymous_dynamic_pricing";

/// The HTML of one experiment's section of the page.
fn section<'a>(html: &'a str, name: &str) -> &'a str {
    let start = html
        .find(&format!(r#"data-experiment="{name}""#))
        .unwrap_or_else(|| panic!("{name} on the page"));
    let end = html[start..]
        .find("</section>")
        .map_or(html.len(), |e| start + e);
    &html[start..end]
}

fn attr(section: &str, name: &str) -> String {
    let key = format!(r#"{name}=""#);
    let start = section.find(&key).expect(name) + key.len();
    section[start..].split('"').next().unwrap().to_string()
}

/// A figure of one variation's row (`visitors`, `weight`, `rate`, ...).
fn figure(section: &str, variation: &str, figure: &str) -> String {
    let start = section
        .find(&format!(r#"<tr data-variation="{variation}">"#))
        .unwrap_or_else(|| panic!("{variation} row"));
    let row = &section[start..];
    let row = &row[..row.find("</tr>").unwrap()];
    let key = format!(r#"data-figure="{figure}">"#);
    let at = row.find(&key).expect(figure) + key.len();
    row[at..].split('<').next().unwrap().to_string()
}

/// The variation the shop's variations call gives an anonymous id for the pricing
/// experiment, and whether it is the control.
async fn shop_variation(t: &TestApp, anon: &str) -> (String, bool) {
    let (status, body) = call(t, "1", anon, json!({ "experimentNames": [PRICING] })).await;
    assert_eq!(status, 200, "{body}");
    let (_, v, control) = variation(&body, 0);
    (v, control)
}

/// A catalog view by the pinned "on" visitor: whether the price saving shows, and that
/// visitor's stored exposures of the pricing experiment.
async fn view_as_on(t: &TestApp) -> (bool, Option<i64>) {
    let (_, html) = page(
        t,
        CATALOG,
        &format!("{PERF_OK}; {ANON_ID_COOKIE}={ANON_ON}"),
    )
    .await;
    let key = Subject::Anonymous(ANON_ON.into()).key();
    let stored = row(t, PRICING, &key).await.map(|(_, n, _)| n);
    (html.contains("data-testid=\"price-saving\""), stored)
}

async fn state(t: &TestApp, name: &str) -> (String, Option<String>, i64) {
    let row: Option<(String, Option<String>, i64)> = sqlx::query_as(
        "SELECT status, weights, version FROM experiment_controls WHERE experiment = $1",
    )
    .bind(name)
    .fetch_optional(&t.app.state.db.pool)
    .await
    .unwrap();
    row.unwrap_or(("running".into(), None, 0))
}

async fn the_page_reports_and_controls_experiments(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let (status, html) = merch.get(&t, PAGE).await;
    assert_eq!(status, 200);
    assert!(html.contains(r#"id="experiments-empty""#), "empty state");
    assert_eq!(html.matches("<section ").count(), 16, "every experiment");
    assert!(
        html.contains("reshuffles almost everyone"),
        "the help tells how bucketing works"
    );

    // Figures: a member of the rose-deal menu's treated variation views a page and pays.
    let member = loop {
        let s = shopper(&t, 99).await;
        if expected("member_rosedeals_menu", &format!("m:{}", s.member_id)) == "var1_enabled" {
            break s;
        }
    };
    page(&t, "/", &format!("{}; {PERF_OK}", member.cookie)).await;
    buy(&t, &member).await;
    let (_, html) = merch.get(&t, PAGE).await;
    assert!(!html.contains(r#"id="experiments-empty""#));
    let rose = section(&html, "member_rosedeals_menu");
    assert_eq!(figure(rose, "var1_enabled", "visitors"), "1");
    assert_eq!(figure(rose, "var1_enabled", "exposures"), "1");
    assert_eq!(figure(rose, "var1_enabled", "conversions"), "1");
    assert_eq!(figure(rose, "var1_enabled", "rate"), "100.00%");
    // The interval the command line prints for the same figures.
    assert_eq!(
        figure(rose, "var1_enabled", "interval"),
        "[20.65%, 100.00%]"
    );
    assert_eq!(figure(rose, "control", "visitors"), "0");
    assert_eq!(figure(rose, "control", "weight"), "50");

    // The pricing experiment runs: the pinned "on" visitor sees the saving, recorded.
    assert_eq!(shop_variation(&t, ANON_ON).await, ("on".into(), false));
    assert_eq!(view_as_on(&t).await, (true, Some(1)));

    // Two operators open the page; the merchandiser stops the experiment first.
    let admin = sign_in(&t, ADMIN).await;
    let (_, admins_page) = admin.get(&t, PAGE).await;
    let seen = attr(section(&admins_page, PRICING), "data-version");
    assert_eq!(
        attr(section(&admins_page, PRICING), "data-status"),
        "running"
    );
    let stop = format!("{PAGE}/{PRICING}/stop");
    let (status, location, _) = merch.post(&t, &stop, &[("version", &seen)]).await;
    assert_eq!(
        (status, location.as_str()),
        (303, "/backoffice/experiments?done=stop")
    );
    let (_, html) = merch.get(&t, &location).await;
    assert!(html.contains("The experiment is stopped"));
    assert_eq!(attr(section(&html, PRICING), "data-status"), "stopped");
    assert!(section(&html, PRICING).contains(&format!("{PAGE}/{PRICING}/start")));
    // The shop, at once: the control for everyone, nothing recorded.
    assert_eq!(shop_variation(&t, ANON_ON).await, ("off".into(), true));
    assert_eq!(view_as_on(&t).await, (false, Some(1)));
    // The admin acts on the page they saw: told, nothing changed.
    let start = format!("{PAGE}/{PRICING}/start");
    let before = state(&t, PRICING).await;
    let (status, _, html) = admin.post(&t, &start, &[("version", &seen)]).await;
    assert_eq!(status, 409);
    assert!(
        html.contains("role=\"alert\"")
            && html.contains("Someone changed this experiment after you opened the page"),
        "{html}"
    );
    assert_eq!(state(&t, PRICING).await, before);
    assert_eq!(shop_variation(&t, ANON_ON).await.0, "off");

    // Started again from the current page: every visitor back in their variation.
    let (_, html) = admin.get(&t, PAGE).await;
    let version = attr(section(&html, PRICING), "data-version");
    let (status, location, _) = admin.post(&t, &start, &[("version", &version)]).await;
    assert_eq!(
        (status, location.as_str()),
        (303, "/backoffice/experiments?done=start")
    );
    assert_eq!(shop_variation(&t, ANON_ON).await, ("on".into(), false));
    assert_eq!(shop_variation(&t, ANON_OFF).await, ("off".into(), true));
    assert_eq!(view_as_on(&t).await, (true, Some(2)));

    // Bad weights: each refused with its message, nothing changed.
    let weights = format!("{PAGE}/{PRICING}/weights");
    let (_, html) = merch.get(&t, PAGE).await;
    let version = attr(section(&html, PRICING), "data-version");
    let before = state(&t, PRICING).await;
    let bad: [(&[(&str, &str)], &str); 5] = [
        (
            &[("weight.off", "-5"), ("weight.on", "50")],
            "A weight cannot be negative. (off)",
        ),
        (
            &[("weight.off", "0"), ("weight.on", "0")],
            "At least one weight must be above 0.",
        ),
        (
            &[
                ("weight.off", "50"),
                ("weight.on", "50"),
                ("weight.var1_enabled", "10"),
            ],
            "This experiment has no such variation. (var1_enabled)",
        ),
        (
            &[("weight.off", "fifty"), ("weight.on", "50")],
            "Each weight is a whole number, 0 or more. (off)",
        ),
        (
            &[("weight.off", "50")],
            "Give every variation a weight. (on)",
        ),
    ];
    for (fields, message) in bad {
        let mut form = vec![("version", version.as_str())];
        form.extend_from_slice(fields);
        let (status, _, html) = merch.post(&t, &weights, &form).await;
        assert_eq!(status, 400, "{fields:?}");
        let refused = section(&html, PRICING);
        assert!(
            refused.contains(r#"role="alert""#) && refused.contains(message),
            "{fields:?}: {refused}"
        );
        assert_eq!(state(&t, PRICING).await, before, "{fields:?}");
    }
    // What was typed comes back.
    let (_, _, html) = merch
        .post(
            &t,
            &weights,
            &[
                ("version", &version),
                ("weight.off", "fifty"),
                ("weight.on", "50"),
            ],
        )
        .await;
    assert!(section(&html, PRICING).contains(r#"value="fifty""#));
    assert_eq!(shop_variation(&t, ANON_OFF).await.0, "off");

    // Good weights: everyone to "on", at once; the page shows them.
    let (status, location, _) = merch
        .post(
            &t,
            &weights,
            &[
                ("version", &version),
                ("weight.off", "0"),
                ("weight.on", "100"),
            ],
        )
        .await;
    assert_eq!(
        (status, location.as_str()),
        (303, "/backoffice/experiments?done=reweigh")
    );
    assert_eq!(shop_variation(&t, ANON_OFF).await, ("on".into(), false));
    let (status, weights_row, _) = state(&t, PRICING).await;
    assert_eq!(
        (status.as_str(), weights_row.as_deref()),
        ("running", Some("off:0,on:100"))
    );
    let (_, html) = merch.get(&t, PAGE).await;
    assert_eq!(figure(section(&html, PRICING), "on", "weight"), "100");
    assert_eq!(figure(section(&html, PRICING), "on", "share"), "100.00%");
    // The same version again is stale.
    let (status, _, _) = merch
        .post(
            &t,
            &weights,
            &[
                ("version", &version),
                ("weight.off", "50"),
                ("weight.on", "50"),
            ],
        )
        .await;
    assert_eq!(status, 409);
    assert_eq!(state(&t, PRICING).await.1.as_deref(), Some("off:0,on:100"));

    // Every change is audited: who, what, before and after.
    let audited: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT action, operator_email, summary FROM audit_log
          WHERE object_kind = 'experiment' AND object_id = $1 ORDER BY id",
    )
    .bind(PRICING)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    let actions: Vec<&str> = audited.iter().map(|(a, _, _)| a.as_str()).collect();
    assert_eq!(actions, ["stop", "start", "reweigh"]);
    assert_eq!(audited[0].1, MERCH);
    assert_eq!(audited[1].1, ADMIN);
    assert!(
        audited[0].2.contains(r#"status: "running" → "stopped""#),
        "{audited:?}"
    );
    assert!(
        audited[2]
            .2
            .contains(r#"weights: "off:50,on:50" → "off:0,on:100""#),
        "{audited:?}"
    );

    // An unknown experiment is not found.
    let (status, _, _) = merch
        .post(&t, &format!("{PAGE}/nope/stop"), &[("version", "0")])
        .await;
    assert_eq!(status, 404);
}
both!(
    the_page_reports_and_controls_experiments,
    experiments_page_on_sqlite,
    experiments_page_on_postgres
);

async fn the_command_line_and_other_instances_follow(t: TestApp) {
    let favourites = "member_favourites_page";
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_server"))
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DATABASE_URL", &t.app.config.database_url)
            .env("ROSACE_DATA_DIR", &t.app.config.data_dir)
            .env("RUST_LOG", "warn")
            .args(args)
            .output()
            .expect("run the server binary")
    };
    let out = run(&["experiments", "stop", favourites]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(state(&t, favourites).await.0, "stopped");
    assert_eq!(
        t.count("SELECT COUNT(*) FROM audit_log WHERE object_kind = 'experiment' AND operator_email = 'command line'")
            .await,
        1
    );
    assert_eq!(run(&["experiments", "stop", "nope"]).status.code(), Some(2));
    let again = run(&["experiments", "stop", favourites]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("nothing to change"));

    // This shop takes it up at its next reload; a shop started now, at once.
    let body = json!({ "experimentNames": [favourites] });
    let other = t.second_instance(|_| {}).await;
    let res = t
        .client
        .post(format!(
            "{other}/api/abtesting/v1/sites/1/members/3/variations"
        ))
        .json(&body)
        .send()
        .await
        .unwrap();
    let res: serde_json::Value = res.json().await.unwrap();
    assert_eq!(res["variations"][0]["control"], true, "{res}");
    t.app.experiments.reload(&t.app.state.db).await.unwrap();
    let (_, res) = call(&t, "1", "3", body).await;
    assert_eq!(res["variations"][0]["variation"], "control", "{res}");

    // The page shows who stopped it; the merchandiser may open it, care and moderators not.
    let merch = sign_in(&t, MERCH).await;
    let (_, html) = merch.get(&t, PAGE).await;
    assert!(section(&html, favourites).contains("command line"));
    for email in [CARE, MODERATOR] {
        let desk = sign_in(&t, email).await;
        let (status, html) = desk.get(&t, PAGE).await;
        assert_eq!(status, 403, "{email}");
        assert!(!html.contains("data-experiment="));
        let (_, home) = desk.get(&t, "/backoffice/").await;
        assert!(
            !home.contains(r#"href="/backoffice/experiments""#),
            "{email}"
        );
        for action in ["start", "stop", "weights"] {
            let path = format!("{PAGE}/{favourites}/{action}");
            let (status, _, _) = desk
                .post(&t, &path, &[("version", "1"), ("weight.control", "1")])
                .await;
            assert_eq!(status, 403, "{email} {action}");
        }
    }
    assert_eq!(state(&t, favourites).await, ("stopped".into(), None, 1));
    let (_, home) = merch.get(&t, "/backoffice/").await;
    assert!(home.contains(r#"href="/backoffice/experiments""#));
}
both!(
    the_command_line_and_other_instances_follow,
    experiments_cli_on_sqlite,
    experiments_cli_on_postgres
);
