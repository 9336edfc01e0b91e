//! Reopening an order without scripts: the order detail's form posts `action=reopen` to the
//! after-sale form target, which reopens it through the cart service and leads to the cart;
//! a second try (the order is no longer validated) comes back with the cart's message.
use super::{buy, option_of_sale, order_status};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

async fn reopen_without_scripts(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let o1 = option_of_sale(&t, 1001, 2, 10).await;
    let order = buy(&t, &a, &[(o1, 1)], "fs").await;
    let path = format!("/postsales/orders/{order}/aftersale/reopen");
    let post = |who: &crate::helpers::cart::Shopper, xsrf: &str| {
        let req = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
            .post(t.url(&path))
            .header("cookie", &who.cookie)
            .form(&[("_xsrf", xsrf), ("action", "reopen")]);
        async move {
            let res = req.send().await.unwrap();
            let to = res
                .headers()
                .get("location")
                .map(|v| v.to_str().unwrap().to_string())
                .unwrap_or_default();
            (res.status().as_u16(), to)
        }
    };
    // A stale token, or someone else's order: nothing moves.
    assert_eq!(post(&a, "nope").await.0, 403);
    let (status, to) = post(&b, &b.xsrf).await;
    assert!((300..400).contains(&status), "{status}");
    assert_eq!(to, "/my-orders");
    assert_eq!(order_status(&t, order).await, "validated");

    let (status, to) = post(&a, &a.xsrf).await;
    assert_eq!(status, 303);
    assert_eq!(to, "/cart");
    assert_ne!(order_status(&t, order).await, "validated");
    let held = t
        .count(&format!(
            "SELECT COUNT(*) FROM cart_items WHERE member_id = {} AND option_id = {o1}",
            a.member_id
        ))
        .await;
    assert_eq!(held, 1, "the order's line is back in the cart");

    // Again: the order is no longer validated; the cart's message, on the order's page.
    let (status, to) = post(&a, &a.xsrf).await;
    assert_eq!(status, 303);
    assert!(
        to.starts_with(&format!(
            "/my-orders/fs/{order}?aftersale_error=cart.errors.reopen"
        )),
        "{to}"
    );
}

both!(
    reopen_without_scripts,
    reopen_form_on_sqlite,
    reopen_form_on_postgres
);
