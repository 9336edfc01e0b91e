//! Orders for customer care: found by number, email, status, site and day (a bad day or
//! status refused); an order's page; moves the life cycle allows, each notified to the
//! member as the simulator's are and audited; a move someone made meanwhile told and not
//! stacked; a move the life cycle refuses changes nothing; roles.
use super::*;
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

async fn care_moves_an_order_along_its_life(t: TestApp) {
    let member = shopper(&t, 2).await;
    let order = crate::help::order_of(&t, member.member_id).await;
    let email: String = sqlx::query_scalar("SELECT email FROM members WHERE id = $1")
        .bind(member.member_id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let care = sign_in(&t, CARE).await;
    let row = format!(r#"<tr data-order="{order}">"#);

    // Found by number, by part of the email, by status and site, by day.
    for query in [
        format!("q=%23{order}"),
        format!("q={}", &email[..10]),
        format!("q={}&status=validated&site=1", &email[..10]),
        format!("q={}&from=2023-11-14&until=2023-11-14", &email[..10]),
    ] {
        let (status, html) = care.get(&t, &format!("/backoffice/orders?{query}")).await;
        assert_eq!(status, 200, "{query}");
        assert!(html.contains(&row), "{query}");
    }
    for query in [
        format!("q={}&status=shipped", &email[..10]),
        format!("q={}&site=2", &email[..10]),
        format!("q={}&from=2023-11-15", &email[..10]),
    ] {
        let (_, html) = care.get(&t, &format!("/backoffice/orders?{query}")).await;
        assert!(!html.contains(&row), "{query}");
    }
    for (query, message) in [
        ("from=2023-02-30", "Write days as YYYY-MM-DD."),
        ("status=lost", "Choose a status from the list."),
    ] {
        let (status, html) = care.get(&t, &format!("/backoffice/orders?{query}")).await;
        assert_eq!(status, 422, "{query}");
        assert!(html.contains(message));
    }

    // The page offers the life cycle's moves from "paid": preparation, or cancel.
    let path = format!("/backoffice/orders/{order}");
    let (status, page) = care.get(&t, &path).await;
    assert_eq!(status, 200);
    assert!(page.contains(&email));
    assert!(page.contains(r#"value="in_preparation""#) && page.contains(r#"value="cancelled""#));
    assert!(!page.contains(r#"value="refunded""#));

    let notices = format!("SELECT COUNT(*) FROM notifications WHERE order_id = {order}");
    let moves = [
        ("validated", "in_preparation"),
        ("in_preparation", "shipped"),
    ];
    for (from, to) in moves {
        let (status, location, _) = care
            .post(&t, &format!("{path}/move"), &[("from", from), ("to", to)])
            .await;
        assert_eq!(
            (status, location.as_str()),
            (303, format!("{path}?done=1").as_str()),
            "{to}"
        );
    }
    assert_eq!(
        t.count(&notices).await,
        1,
        "shipping is notified, preparation is not"
    );
    assert_eq!(
        t.count(&format!("SELECT COUNT(*) FROM orders WHERE id = {order} AND status = 'shipped' AND tracking_number IS NOT NULL")).await,
        1
    );
    let (_, thread) = member
        .call(
            &t,
            reqwest::Method::GET,
            &format!("/api/orders/v1/orders/{order}"),
            None,
        )
        .await;
    assert_eq!(thread["status"], "shipped", "My orders follows: {thread}");

    // A second operator's stale move is told, not stacked; a refused move changes nothing.
    let (status, _, html) = care
        .post(
            &t,
            &format!("{path}/move"),
            &[("from", "in_preparation"), ("to", "received")],
        )
        .await;
    assert_eq!(status, 409);
    assert!(html.contains("This order moved since you opened it"));
    let (status, _, html) = care
        .post(
            &t,
            &format!("{path}/move"),
            &[("from", "shipped"), ("to", "cancelled")],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("The life cycle does not allow this move"));
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM orders WHERE id = {order} AND status = 'shipped'"
        ))
        .await,
        1
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM audit_log WHERE object_kind = 'order' AND object_id = '{order}'"
        ))
        .await,
        2
    );

    // Another order, cancelled before it ships: the member hears of it.
    let other = crate::help::order_of(&t, member.member_id).await;
    let (status, _, _) = care
        .post(
            &t,
            &format!("/backoffice/orders/{other}/move"),
            &[("from", "validated"), ("to", "cancelled")],
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM notifications WHERE order_id = {other} AND status = 'cancelled'"
        ))
        .await,
        1
    );
    assert_eq!(care.get(&t, "/backoffice/orders/999999999").await.0, 404);

    // Roles: moderators and merchandisers do not touch orders.
    for who in [MODERATOR, MERCH] {
        let desk = sign_in(&t, who).await;
        assert_eq!(desk.get(&t, "/backoffice/orders").await.0, 403, "{who}");
        assert_eq!(desk.get(&t, &path).await.0, 403, "{who}");
        let (status, _, _) = desk
            .post(
                &t,
                &format!("{path}/move"),
                &[("from", "shipped"), ("to", "received")],
            )
            .await;
        assert_eq!(status, 403, "{who}");
    }
}
/// The returns queue lists orders by return step; a denial needs its reason, kept on the
/// order's timeline; an acceptance moves the order to the next tab.
async fn the_returns_queue_follows_each_step(t: TestApp) {
    let member = shopper(&t, 2).await;
    let order = crate::help::order_of(&t, member.member_id).await;
    let care = sign_in(&t, CARE).await;
    let path = format!("/backoffice/orders/{order}");
    for (from, to) in [
        ("validated", "in_preparation"),
        ("in_preparation", "shipped"),
        ("shipped", "received"),
        ("received", "return_requested"),
    ] {
        let (status, _, _) = care
            .post(&t, &format!("{path}/move"), &[("from", from), ("to", to)])
            .await;
        assert_eq!(status, 303, "{to}");
    }
    let row = format!(r#"<tr data-order="{order}">"#);
    let (status, queue) = care.get(&t, "/backoffice/returns").await;
    assert_eq!(status, 200);
    assert!(queue.contains(&row));
    assert!(queue.contains("Return requested (1)"));

    let (status, _, html) = care
        .post(
            &t,
            &format!("{path}/move"),
            &[
                ("from", "return_requested"),
                ("to", "return_requested_denied"),
                ("note", " "),
            ],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("Say why the return is denied."));
    let (status, _, _) = care
        .post(
            &t,
            &format!("{path}/move"),
            &[
                ("from", "return_requested"),
                ("to", "return_requested_accepted"),
                ("note", "Photo reçue"),
            ],
        )
        .await;
    assert_eq!(status, 303);
    let (_, requested) = care.get(&t, "/backoffice/returns").await;
    assert!(!requested.contains(&row));
    let (_, accepted) = care
        .get(&t, "/backoffice/returns?status=return_requested_accepted")
        .await;
    assert!(accepted.contains(&row));
    assert_eq!(
        t.count(&format!("SELECT COUNT(*) FROM order_events WHERE order_id = {order} AND note = 'operator: Photo reçue'")).await,
        1
    );
    assert_eq!(
        sign_in(&t, MERCH)
            .await
            .get(&t, "/backoffice/returns")
            .await
            .0,
        403
    );
}

/// A denial's reason reaches the member's order detail; an internal note does not.
async fn the_member_reads_why_a_return_was_denied(t: TestApp) {
    let member = shopper(&t, 2).await;
    let order = crate::help::order_of(&t, member.member_id).await;
    let care = sign_in(&t, CARE).await;
    let path = format!("/backoffice/orders/{order}/move");
    for (from, to, note) in [
        ("validated", "in_preparation", "Colis prioritaire"),
        ("in_preparation", "shipped", ""),
        ("shipped", "received", ""),
        ("received", "return_requested", ""),
        (
            "return_requested",
            "return_requested_denied",
            "Le délai de retour de 14 jours est dépassé.",
        ),
    ] {
        let (status, _, _) = care
            .post(&t, &path, &[("from", from), ("to", to), ("note", note)])
            .await;
        assert_eq!(status, 303, "{to}");
    }
    let (status, detail) = member
        .call(
            &t,
            reqwest::Method::GET,
            &format!("/api/orders/v1/orders/{order}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{detail}");
    let reasons: Vec<(String, Option<String>)> = detail["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["status"].as_str().unwrap().to_string(),
                e["reason"].as_str().map(str::to_string),
            )
        })
        .collect();
    let denied = reasons
        .iter()
        .find(|(s, _)| s == "return_requested_denied")
        .unwrap();
    assert_eq!(
        denied.1.as_deref(),
        Some("Le délai de retour de 14 jours est dépassé.")
    );
    assert!(
        reasons
            .iter()
            .filter(|(s, _)| s != "return_requested_denied")
            .all(|(_, r)| r.is_none()),
        "internal notes stay internal: {reasons:?}"
    );
    let html = t
        .get_with_cookie(&format!("/my-orders/fs/{order}"), &member.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("Le délai de retour de 14 jours est dépassé."));
}

/// A rose-deal retry waits in its tab until an operator marks it handled; a second
/// operator is told; the member's codes were re-issued already.
async fn rose_deal_retries_wait_for_care(t: TestApp) {
    let member = shopper(&t, 2).await;
    let opt = crate::rosedeals::deal_option(&t, 3, 10).await;
    let order = crate::rosedeals::buy(&t, &member, opt, 1).await;
    let code: String = sqlx::query_scalar("SELECT code FROM rosedeal_vouchers WHERE order_id = $1")
        .bind(order)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let form = app::rosedeals::model::RetryForm {
        content: "Le partenaire refuse ce code en caisse.".into(),
        vouchers: vec![code.clone()],
        ..Default::default()
    };
    app::rosedeals::service::retry(
        &t.app.state.db,
        member.member_id,
        order,
        &form,
        app::platform::state::now(),
    )
    .await
    .unwrap();
    let care = sign_in(&t, CARE).await;
    let (status, queue) = care.get(&t, "/backoffice/returns?status=retries").await;
    assert_eq!(status, 200);
    assert!(queue.contains("Rose-deal retries (1)"));
    assert!(queue.contains("Le partenaire refuse ce code en caisse."));
    assert!(queue.contains(&code));
    let id = t
        .count(&format!(
            "SELECT id FROM rosedeal_retries WHERE order_id = {order}"
        ))
        .await;
    let handled = format!("/backoffice/returns/retries/{id}/handled");
    let (status, location, _) = care.post(&t, &handled, &[]).await;
    assert_eq!(
        (status, location.as_str()),
        (303, "/backoffice/returns?status=retries&done=1")
    );
    let (_, queue) = care.get(&t, "/backoffice/returns?status=retries").await;
    assert!(queue.contains("Rose-deal retries (0)"));
    assert!(queue.contains("No retry waits."));
    let (status, _, html) = sign_in(&t, ADMIN).await.post(&t, &handled, &[]).await;
    assert_eq!(status, 409);
    assert!(html.contains("A colleague already handled this retry"));
    let (status, _, _) = sign_in(&t, MERCH).await.post(&t, &handled, &[]).await;
    assert_eq!(status, 403);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM audit_log WHERE object_kind = 'order' AND object_id = '{order}'"
        ))
        .await,
        1
    );
}
both!(
    the_member_reads_why_a_return_was_denied,
    denial_reason_on_sqlite,
    denial_reason_on_postgres
);
both!(
    rose_deal_retries_wait_for_care,
    retries_on_sqlite,
    retries_on_postgres
);
both!(
    the_returns_queue_follows_each_step,
    returns_on_sqlite,
    returns_on_postgres
);

both!(
    care_moves_an_order_along_its_life,
    orders_on_sqlite,
    orders_on_postgres
);

/// A return accepted, received and refunded from the order's page: the amount proposed is
/// the returned lines at the price paid; a typed amount is checked (a price, more than 0,
/// no more than was paid less what was refunded) and a refused one changes nothing; the
/// member's order detail follows each step and shows the amount refunded.
async fn care_refunds_a_return(t: TestApp) {
    use crate::aftersale::{buy, deliver, option_of_sale, post};
    let member = shopper(&t, 2).await;
    let option = option_of_sale(&t, 1001, 1, 10).await;
    let order = buy(&t, &member, &[(option, 2)], "fs").await;
    let (unit, total): (i64, i64) = sqlx::query_as(
        "SELECT i.unit_price, o.total FROM order_items i JOIN orders o ON o.id = i.order_id WHERE i.order_id = $1",
    )
    .bind(order)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    deliver(&t, order).await;
    let (status, created) = post(
        &t,
        &member,
        &format!("/api/postsale/v1/orders/{order}/returns"),
        serde_json::json!({ "products": [{ "productId": option.to_string(), "quantity": 1 }], "reasonId": "size" }),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let care = sign_in(&t, CARE).await;
    let path = format!("/backoffice/orders/{order}");
    let mine = || async {
        let (_, d) = member
            .call(
                &t,
                reqwest::Method::GET,
                &format!("/api/orders/v1/orders/{order}"),
                None,
            )
            .await;
        (
            d["status"].as_str().unwrap().to_string(),
            d["returns"][0]["status"].as_str().unwrap().to_string(),
        )
    };
    for (from, to, step) in [
        ("return_requested", "return_requested_accepted", "accepted"),
        ("return_requested_accepted", "return_received", "received"),
    ] {
        let (status, _, _) = care
            .post(&t, &format!("{path}/move"), &[("from", from), ("to", to)])
            .await;
        assert_eq!(status, 303, "{to}");
        assert_eq!(mine().await, (to.to_string(), step.to_string()));
    }

    // The page proposes the returned line at the price paid, and says what is left.
    let (_, page) = care.get(&t, &path).await;
    let amount = |cents: i64| format!("{}.{:02}", cents / 100, cents % 100);
    assert!(
        page.contains(&format!(r#"value="{}""#, amount(unit))),
        "proposed {unit}"
    );
    assert!(page.contains(&format!("at most {}", amount(total))));

    // Refused amounts: not a price, nothing, more than was paid. What was typed stays.
    let too_much = amount(total + 1);
    for (typed, message) in [
        ("douze", "Write the amount to refund like 12.50."),
        ("0", "A refund is more than 0."),
        (
            too_much.as_str(),
            "More than is left to refund on this order",
        ),
    ] {
        let (status, _, html) = care
            .post(
                &t,
                &format!("{path}/move"),
                &[
                    ("from", "return_received"),
                    ("to", "refund_in_progress"),
                    ("amount", typed),
                ],
            )
            .await;
        assert_eq!(status, 422, "{typed}");
        assert!(html.contains(message), "{typed}");
        assert!(
            html.contains(&format!(r#"value="{typed}""#)),
            "{typed} kept"
        );
        assert_eq!(mine().await.0, "return_received", "{typed}");
    }

    // A goodwill amount below the lines' value: it is what the member gets back.
    let goodwill = unit - 100;
    let (status, _, _) = care
        .post(
            &t,
            &format!("{path}/move"),
            &[
                ("from", "return_received"),
                ("to", "refund_in_progress"),
                ("amount", &amount(goodwill)),
            ],
        )
        .await;
    assert_eq!(status, 303);
    let (_, page) = care.get(&t, &path).await;
    assert!(page.contains(&format!(r#"value="{}""#, amount(goodwill))));
    let (status, _, _) = care
        .post(
            &t,
            &format!("{path}/move"),
            &[("from", "refund_in_progress"), ("to", "refunded")],
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(
        mine().await,
        ("refunded".to_string(), "refunded".to_string())
    );
    let (_, d) = member
        .call(
            &t,
            reqwest::Method::GET,
            &format!("/api/orders/v1/orders/{order}"),
            None,
        )
        .await;
    assert_eq!(d["returns"][0]["refundAmount"], goodwill, "{d}");
    assert_eq!(
        t.count(&format!(
            "SELECT refunded_amount FROM orders WHERE id = {order}"
        ))
        .await,
        goodwill
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM audit_log WHERE object_kind = 'order' AND object_id = '{order}' AND summary LIKE '%refund {}%'",
            amount(goodwill)
        ))
        .await,
        2
    );
}
both!(care_refunds_a_return, refund_on_sqlite, refund_on_postgres);
