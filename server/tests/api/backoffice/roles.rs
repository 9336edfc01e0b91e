//! Every back-office route refuses a visitor, a member's session, a session without its
//! second factor, and a role without the right.
use super::*;
use crate::helpers::{both, TestApp};

const PAGES: [&str; 39] = [
    "/backoffice/operations",
    "/backoffice/operations/new",
    "/backoffice/operations/1",
    "/backoffice/operations/1/edit",
    "/backoffice/registrations",
    "/backoffice/campaigns",
    "/backoffice/campaigns/new",
    "/backoffice/campaigns/1",
    "/backoffice/experiments",
    "/backoffice/help",
    "/backoffice/help/fr/delivery-times",
    "/backoffice/members",
    "/backoffice/members/1",
    "/backoffice/members/1/export",
    "/backoffice/returns",
    "/backoffice/orders",
    "/backoffice/orders/1",
    "/backoffice/support",
    "/backoffice/support/replies",
    "/backoffice/support/1",
    "/backoffice/support/1/files/1",
    "/backoffice/moderation",
    "/backoffice/moderation/1",
    "/backoffice/moderation/1/files/1",
    "/backoffice/transparency",
    "/backoffice/brands",
    "/backoffice/products/1/travel/description",
    "/backoffice/",
    "/backoffice/sales",
    "/backoffice/sales/new",
    "/backoffice/sales/1001",
    "/backoffice/sales/1001/products",
    "/backoffice/sales/1001/dashboard",
    "/backoffice/operators",
    "/backoffice/audit",
    "/backoffice/preview",
    "/backoffice/products/1/travel",
    "/backoffice/products/1/trip",
    "/backoffice/products/1",
];
const FORMS: [&str; 55] = [
    "/backoffice/operations",
    "/backoffice/operations/1/edit",
    "/backoffice/operations/1/end",
    "/backoffice/operations/1/products",
    "/backoffice/operations/1/products/1/remove",
    "/backoffice/returns/retries/1/handled",
    "/backoffice/campaigns",
    "/backoffice/campaigns/1/stop",
    "/backoffice/experiments/anonymous_dynamic_pricing/start",
    "/backoffice/experiments/anonymous_dynamic_pricing/stop",
    "/backoffice/experiments/anonymous_dynamic_pricing/weights",
    "/backoffice/help/fr/delivery-times",
    "/backoffice/help/fr/delivery-times/restore",
    "/backoffice/members/1/access",
    "/backoffice/members/1/erase",
    "/backoffice/orders/1/move",
    "/backoffice/support/1/act",
    "/backoffice/support/replies",
    "/backoffice/support/replies/1",
    "/backoffice/moderation/1",
    "/backoffice/moderation/1/acknowledge",
    "/backoffice/moderation/1/statement",
    "/backoffice/moderation/1/restore",
    "/backoffice/brands/1",
    "/backoffice/brands",
    "/backoffice/products/1/travel/description",
    "/backoffice/sales/new",
    "/backoffice/sales/1001/save",
    "/backoffice/sales/1001/duplicate",
    "/backoffice/sales/1001/archive",
    "/backoffice/sales/1001/products/new",
    "/backoffice/sales/1001/products/bulk",
    "/backoffice/operators/invite",
    "/backoffice/operators/update",
    "/backoffice/options/1/stock",
    "/backoffice/options/1/picture",
    "/backoffice/sales/1001/banner",
    "/backoffice/sales/1001/logo",
    "/backoffice/sales/1001/preview",
    "/backoffice/preview/end",
    "/backoffice/products/1/travel/party",
    "/backoffice/products/1/travel/packages",
    "/backoffice/travel/packages/1/cities",
    "/backoffice/travel/cities/1/durations",
    "/backoffice/travel/cities/1/seasons",
    "/backoffice/travel/places",
    "/backoffice/travel/durations/1/remove",
    "/backoffice/travel/seasons/1",
    "/backoffice/travel/seasons/1/remove",
    "/backoffice/products/1/trip/destination",
    "/backoffice/products/1/trip",
    "/backoffice/products/1",
    "/backoffice/sales/1001/universes",
    "/backoffice/universes/1",
    "/backoffice/universes/1/remove",
];

async fn every_route_refuses_who_may_not(t: TestApp) {
    let member = t.member_session(1).await;
    let (_, pending) = password_step(&t, ADMIN, server::backoffice::demo::PASSWORD).await;
    let pending = format!("rosace_bo={}", pending.unwrap());
    for cookie in ["", member.as_str(), pending.as_str()] {
        let gets = PAGES.iter().map(|p| (false, *p));
        let posts = FORMS.iter().map(|p| (true, *p));
        for (post, path) in gets.chain(posts) {
            let req = if post {
                t.client.post(t.url(path)).form(&[("_xsrf", "x")])
            } else {
                t.client.get(t.url(path))
            };
            let res = req.header("cookie", cookie).send().await.unwrap();
            assert!(
                res.status().is_redirection(),
                "{path} with {cookie:?}: {}",
                res.status()
            );
            assert!(
                res.headers()["location"]
                    .to_str()
                    .unwrap()
                    .starts_with("/backoffice/signin"),
                "{path}"
            );
        }
    }

    // A moderator reads the catalogue and decides notices, nothing more.
    let moderator = sign_in(&t, MODERATOR).await;
    let (status, html) = moderator.get(&t, "/backoffice/sales/1001").await;
    assert_eq!(status, 200);
    assert!(
        !html.contains("/backoffice/sales/1001/dashboard"),
        "no link to a page the role may not open"
    );
    for path in [
        "/backoffice/sales/new",
        "/backoffice/sales/1001/dashboard",
        "/backoffice/operators",
        "/backoffice/audit",
    ] {
        let (status, html) = moderator.get(&t, path).await;
        assert_eq!(status, 403, "{path}");
        assert!(html.contains("Your role does not allow this."));
    }
    let option: i64 = t.count("SELECT MIN(o.id) FROM product_options o JOIN products p ON p.id = o.product_id WHERE p.sale_id = 1001").await;
    let before = crate::helpers::cart::stock(&t, option).await;
    for (path, fields) in [
        (
            format!("/backoffice/options/{option}/stock"),
            vec![("change", "5"), ("reason", "count")],
        ),
        ("/backoffice/sales/1001/archive".to_string(), vec![]),
        (
            "/backoffice/operators/invite".to_string(),
            vec![("email", "x@y.test"), ("name", "X"), ("role", "admin")],
        ),
    ] {
        let (status, _, _) = moderator.post(&t, &path, &fields).await;
        assert_eq!(status, 403, "{path}");
    }
    assert_eq!(crate::helpers::cart::stock(&t, option).await, before);
    assert_eq!(t.count("SELECT COUNT(*) FROM operators").await, 4);

    // Customer care watches an opening but changes no stock; the merchandiser does both,
    // but manages no operator and reads no audit log.
    let care = sign_in(&t, CARE).await;
    assert_eq!(
        care.get(&t, "/backoffice/sales/1001/dashboard").await.0,
        200
    );
    assert_eq!(
        care.post(
            &t,
            &format!("/backoffice/options/{option}/stock"),
            &[("change", "5"), ("reason", "count")]
        )
        .await
        .0,
        403
    );
    let merch = sign_in(&t, MERCH).await;
    assert_eq!(
        merch
            .post(
                &t,
                &format!("/backoffice/options/{option}/stock"),
                &[("change", "5"), ("reason", "count")]
            )
            .await
            .0,
        303
    );
    assert_eq!(merch.get(&t, "/backoffice/operators").await.0, 403);
    assert_eq!(merch.get(&t, "/backoffice/audit").await.0, 403);

    // A form without the session's own token changes nothing.
    let forged = Desk {
        cookie: merch.cookie.clone(),
        xsrf: "forged".into(),
    };
    assert_eq!(
        forged
            .post(
                &t,
                &format!("/backoffice/options/{option}/stock"),
                &[("change", "5"), ("reason", "count")]
            )
            .await
            .0,
        403
    );
    assert_eq!(
        crate::helpers::cart::stock(&t, option).await.0,
        before.0 + 5
    );

    // The menu shows what the role may open.
    let (_, html) = moderator.get(&t, "/backoffice/").await;
    assert!(
        html.contains(r#"href="/backoffice/sales""#)
            && !html.contains(r#"href="/backoffice/audit""#)
    );
    let admin = sign_in(&t, ADMIN).await;
    let (_, html) = admin.get(&t, "/backoffice/").await;
    assert!(
        html.contains(r#"href="/backoffice/audit""#)
            && html.contains(r#"href="/backoffice/operators""#)
    );
}
both!(
    every_route_refuses_who_may_not,
    roles_on_sqlite,
    roles_on_postgres
);

async fn admins_manage_operators_but_never_lose_the_last_admin(t: TestApp) {
    let admin = sign_in(&t, ADMIN).await;
    let admin_id = t
        .count("SELECT id FROM operators WHERE email = 'admin@rosace.test'")
        .await
        .to_string();
    let (status, _, html) = admin
        .post(
            &t,
            "/backoffice/operators/update",
            &[("id", &admin_id), ("action", "deactivate")],
        )
        .await;
    assert_eq!(status, 409);
    assert!(html.contains("You cannot deactivate yourself."));
    let (status, _, html) = admin
        .post(
            &t,
            "/backoffice/operators/update",
            &[("id", &admin_id), ("action", "role"), ("role", "moderator")],
        )
        .await;
    assert_eq!(status, 409);
    assert!(html.contains("The last admin"));
    assert_eq!(
        t.count("SELECT COUNT(*) FROM operators WHERE role = 'admin'")
            .await,
        1
    );

    // Deactivating the moderator ends their sessions at once.
    let moderator = sign_in(&t, MODERATOR).await;
    let id = t
        .count("SELECT id FROM operators WHERE email = 'moderator@rosace.test'")
        .await
        .to_string();
    let (status, location, _) = admin
        .post(
            &t,
            "/backoffice/operators/update",
            &[("id", &id), ("action", "deactivate")],
        )
        .await;
    assert_eq!(
        (status, location.as_str()),
        (303, "/backoffice/operators?done=saved")
    );
    assert_eq!(moderator.get(&t, "/backoffice/sales").await.0, 302);
    let (res, _) = password_step(&t, MODERATOR, server::backoffice::demo::PASSWORD).await;
    assert_eq!(res.status(), 401);

    // Every change is in the audit log, which admins search.
    let (status, html) = admin
        .get(
            &t,
            "/backoffice/audit?q=moderator%40rosace&object_kind=operator",
        )
        .await;
    assert_eq!(status, 200);
    assert!(html.contains("active: true → false"), "{html}");
    let (_, html) = admin.get(&t, "/backoffice/audit?q=nothing-like-this").await;
    assert!(html.contains("No entry matches."));
}
both!(
    admins_manage_operators_but_never_lose_the_last_admin,
    operators_on_sqlite,
    operators_on_postgres
);
