//! Both order lists fetched together (the tabs count the other list; after a refund the
//! result page counts both again), one order by its basketId (`/rosedeals/order/{id}`,
//! another member's 404), the contact form offering the vouchers of every order, a failed
//! list logged with the spec's words and shown as the post-sales error, the refund and
//! retry refusals carrying `errorCode` beside `error_code`, and the media basket on the
//! deals home.
use reqwest::Method;
use serde_json::{json, Value};

use super::{address, buy, deal_option, multipart, refund_form, API, GOOD_IBAN};
use crate::helpers::cart::shopper;
use crate::helpers::logs::Logs;
use crate::helpers::{both, TestApp};

async fn page(t: &TestApp, path: &str, cookie: &str) -> (u16, String) {
    let res = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(t.url(path))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.text().await.unwrap())
}

fn tab(kind: &str, count: i64) -> String {
    format!("data-testid=\"deal-tab-{kind}\" data-count=\"{count}\"")
}

async fn code_of(t: &TestApp, order_id: i64) -> String {
    sqlx::query_scalar(
        "SELECT code FROM rosedeal_vouchers WHERE order_id = $1 AND status = 'active' ORDER BY id LIMIT 1",
    )
    .bind(order_id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

async fn order_page_tabs_and_contact_vouchers(t: TestApp) {
    let a = shopper(&t, 2).await;
    let first = buy(&t, &a, deal_option(&t, 1, 10).await, 1).await;
    let second = buy(&t, &a, deal_option(&t, 2, 10).await, 1).await;
    let first_code = code_of(&t, first).await;
    let second_code = code_of(&t, second).await;

    // Ongoing: two orders, each linking to its own page; the tabs count both lists.
    let (status, html) = page(&t, "/rosedeals/ongoing", &a.cookie).await;
    assert_eq!(status, 200);
    assert!(html.contains(&tab("ongoing", 2)), "ongoing counted");
    assert!(html.contains(&tab("history", 0)), "history counted");
    for id in [first, second] {
        assert!(html.contains(&format!("href=\"/rosedeals/order/{id}\"")));
    }

    // The order's page: its vouchers with code, print, refund/retry and contact links.
    let (status, html) = page(&t, &format!("/rosedeals/order/{first}"), &a.cookie).await;
    assert_eq!(status, 200);
    assert!(html.contains(&first_code), "the voucher's code");
    assert!(!html.contains(&second_code), "only this order's vouchers");
    assert!(html.contains(&format!("/rosedeals/print/{first}")));
    assert!(html.contains(&format!("/rosedeals/refund?basketId={first}")));
    assert!(html.contains(&format!("/rosedeals/contact-form?basketId={first}")));

    // Another member's basket, and no basket at all: 404 with the not-found notice.
    let b = shopper(&t, 2).await;
    for path in [
        format!("/rosedeals/order/{first}"),
        "/rosedeals/order/987654321".to_string(),
    ] {
        let (status, html) = page(&t, &path, &b.cookie).await;
        assert_eq!(status, 404, "{path}");
        assert!(html.contains("data-testid=\"deal-not-found\""), "{path}");
        assert!(!html.contains(&first_code), "{path}");
    }
    // The other member's contact form offers none of the first member's vouchers.
    let (_, html) = page(&t, "/rosedeals/contact-form", &b.cookie).await;
    assert!(!html.contains(&first_code) && !html.contains(&second_code));

    // The refund, then its result counts both lists again: one ongoing, one archived.
    let path = format!("{API}/orders/{first}/refund");
    let (status, ok) = multipart(&t, &a, &path, &refund_form(GOOD_IBAN, false), &[]).await;
    assert_eq!(status, 200, "{ok}");
    let (_, html) = page(
        &t,
        &format!("/rosedeals/refund-result?basketId={first}"),
        &a.cookie,
    )
    .await;
    assert!(html.contains("data-testid=\"refund-amount\""));
    assert!(html.contains(&tab("ongoing", 1)) && html.contains(&tab("history", 1)));
    // The archived order's page: no refund link any more.
    let (status, html) = page(&t, &format!("/rosedeals/order/{first}"), &a.cookie).await;
    assert_eq!(status, 200);
    assert!(!html.contains(&format!("/rosedeals/refund?basketId={first}")));
    // History lists it and counts the ongoing one.
    let (_, html) = page(&t, "/rosedeals/history", &a.cookie).await;
    assert!(html.contains(&first_code));
    assert!(html.contains(&tab("ongoing", 1)) && html.contains(&tab("history", 1)));

    // The contact form offers the vouchers of both orders, the archived one too; an order's
    // contact link ticks that order's vouchers only.
    let (_, html) = page(
        &t,
        &format!("/rosedeals/contact-form?basketId={second}"),
        &a.cookie,
    )
    .await;
    assert!(html.contains(&first_code), "the archived order's voucher");
    assert!(html.contains(&second_code), "the current order's voucher");
    assert!(html.contains(&format!("value=\"{second_code}\" checked")));
    assert!(!html.contains(&format!("value=\"{first_code}\" checked")));
    // Newest order first.
    assert!(html.find(&second_code) < html.find(&first_code));
}

both!(
    order_page_tabs_and_contact_vouchers,
    order_page_tabs_and_contact_vouchers_on_sqlite,
    order_page_tabs_and_contact_vouchers_on_postgres
);

async fn a_failed_list_is_logged_and_shown_as_the_post_sales_error(t: TestApp) {
    let (logs, _guard) = Logs::capture();
    let a = shopper(&t, 2).await;
    let order_id = buy(&t, &a, deal_option(&t, 3, 10).await, 1).await;
    // Reading an order's vouchers joins its refund: without that table the current list
    // (one order) fails, the archived one (empty) does not.
    sqlx::query("DROP TABLE rosedeal_refunds")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    for path in ["/rosedeals/ongoing", "/rosedeals/history"] {
        let (status, html) = page(&t, path, &a.cookie).await;
        assert_eq!(status, 200, "{path}");
        assert!(html.contains("data-testid=\"ps-error\""), "{path}");
        assert!(!html.contains("data-testid=\"deal-order\""), "{path}");
    }
    // The order's own page: a failed load, not a 404.
    let (status, html) = page(&t, &format!("/rosedeals/order/{order_id}"), &a.cookie).await;
    assert_eq!(status, 200);
    assert!(html.contains("data-testid=\"ps-error\""));
    assert!(!html.contains("data-testid=\"deal-not-found\""));
    let logged = logs.text();
    assert_eq!(
        logged
            .matches("cannot fetch rosedeals current orders")
            .count(),
        2,
        "one per page: {logged}"
    );
    assert!(
        !logged.contains("cannot fetch rosedeals archived orders"),
        "{logged}"
    );
    assert!(logged.contains("ERROR"), "{logged}");
}

both!(
    a_failed_list_is_logged_and_shown_as_the_post_sales_error,
    a_failed_list_is_logged_and_shown_as_the_post_sales_error_on_sqlite,
    a_failed_list_is_logged_and_shown_as_the_post_sales_error_on_postgres
);

async fn refund_and_retry_refusals_carry_error_code_in_camel_case(t: TestApp) {
    let a = shopper(&t, 2).await;
    let order_id = buy(&t, &a, deal_option(&t, 4, 10).await, 1).await;
    let refund = format!("{API}/orders/{order_id}/refund");
    let retry = format!("{API}/orders/{order_id}/retry");
    let same = |v: &Value, code: &str| {
        assert_eq!(v["error_code"], code, "{v}");
        assert_eq!(v["errorCode"], code, "{v}");
    };
    let (status, err) = multipart(
        &t,
        &a,
        &refund,
        &refund_form("FR1520041010050500013M02606", false),
        &[],
    )
    .await;
    assert_eq!(status, 400);
    same(&err, "invalid_iban");
    assert_eq!(err["fieldErrors"][0]["field"], "iban");
    assert_eq!(err["error_description"], "rosedeals.errors.invalid_iban");
    let (status, err) = multipart(&t, &a, &refund, &refund_form("", false), &[]).await;
    assert_eq!(status, 400);
    same(&err, "no_iban");
    // Not multipart: the same body.
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            &refund,
            Some(json!({ "iban": GOOD_IBAN })),
        )
        .await;
    assert_eq!(status, 400);
    same(&err, "bad_request");
    // A retry naming no voucher, another member's basket.
    let texts = [("address", address()), ("vouchers", "[]".to_string())];
    let (status, err) = multipart(&t, &a, &retry, &texts, &[]).await;
    assert_eq!(status, 400);
    same(&err, "missing_values");
    let b = shopper(&t, 2).await;
    let (status, err) = multipart(&t, &b, &refund, &refund_form(GOOD_IBAN, false), &[]).await;
    assert_eq!(status, 404);
    same(&err, "not_found");
    let named = [
        ("address", address()),
        ("vouchers", "[\"RD-AAAA-BBBB-CCCC\"]".to_string()),
    ];
    let (status, err) = multipart(&t, &b, &retry, &named, &[]).await;
    assert_eq!(status, 404);
    same(&err, "not_found");
    // Refunded twice: the second is 409 with both spellings.
    let (status, _) = multipart(&t, &a, &refund, &refund_form(GOOD_IBAN, false), &[]).await;
    assert_eq!(status, 200);
    let (status, err) = multipart(&t, &a, &refund, &refund_form(GOOD_IBAN, false), &[]).await;
    assert_eq!(status, 409);
    same(&err, "already_refunded");

    // Every other call keeps the common body alone.
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            &format!("{API}/messages"),
            Some(json!({ "message": "x", "subject": "y", "vouchers": [] })),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(err["error_code"], "missing_values");
    assert!(err.get("errorCode").is_none(), "{err}");
    let (status, err) = a
        .call(&t, Method::GET, &format!("{API}/orders/987654321"), None)
        .await;
    assert_eq!(status, 404);
    assert!(err.get("errorCode").is_none(), "{err}");

    // The OpenAPI document says so: the refusals of refund and retry are DealErrorBody,
    // which has both; ErrorBody has no errorCode.
    let doc: Value = t.get("/api/openapi.json").await.json().await.unwrap();
    let schemas = &doc["components"]["schemas"];
    assert!(schemas["DealErrorBody"]["properties"]["errorCode"].is_object());
    assert!(schemas["DealErrorBody"]["properties"]["error_code"].is_object());
    assert!(schemas["ErrorBody"]["properties"]["errorCode"].is_null());
    for (path, status) in [
        ("/api/rosedeals/v1/orders/{basketId}/refund", "400"),
        ("/api/rosedeals/v1/orders/{basketId}/refund", "409"),
        ("/api/rosedeals/v1/orders/{basketId}/retry", "404"),
    ] {
        let schema = &doc["paths"][path]["post"]["responses"][status]["content"]
            ["application/json"]["schema"]["$ref"];
        assert_eq!(
            schema, "#/components/schemas/DealErrorBody",
            "{path} {status}"
        );
    }
}

both!(
    refund_and_retry_refusals_carry_error_code_in_camel_case,
    refund_and_retry_refusals_carry_error_code_in_camel_case_on_sqlite,
    refund_and_retry_refusals_carry_error_code_in_camel_case_on_postgres
);

async fn the_deals_home_shows_the_media_basket(t: TestApp) {
    let a = shopper(&t, 2).await;
    let (_, html) = page(&t, "/rosedeals", &a.cookie).await;
    assert!(!html.contains("data-testid=\"deal-basket\""), "empty cart");
    let option = deal_option(&t, 5, 10).await;
    let add = json!({ "product_id": option.to_string(), "quantity": 2, "cart_type": "fs" });
    let (status, body) = a
        .call(&t, Method::POST, "/api/cartproxy/v1/item", Some(add))
        .await;
    assert_eq!(status, 201, "{body}");
    // The REST call and the page agree.
    let (status, basket) = a
        .call(&t, Method::GET, &format!("{API}/basket"), None)
        .await;
    assert_eq!(status, 200, "{basket}");
    assert_eq!(basket["items"][0]["productId"], option.to_string());
    assert_eq!(basket["items"][0]["quantity"], 2);
    let total = basket["total"].as_i64().unwrap();
    assert!(total > 0);
    let (status, html) = page(&t, "/rosedeals", &a.cookie).await;
    assert_eq!(status, 200);
    assert!(html.contains("data-testid=\"deal-basket\""));
    assert!(html.contains(&format!(
        "data-testid=\"deal-basket-line\" data-product-id=\"{option}\""
    )));
    let money = app::site::format::money(app::site::by_id_or_default(1).locale, total);
    assert!(
        html.contains(&money) || html.contains(&money.replace('\u{202f}', "&nbsp;")),
        "{money} in the basket"
    );
    assert!(html.contains("href=\"/cart\" data-testid=\"deal-basket-cart\""));
    // Still the deals around it; another member's page has no basket.
    assert!(html.matches("data-testid=\"deal\"").count() >= 6);
    let b = shopper(&t, 2).await;
    let (_, html) = page(&t, "/rosedeals", &b.cookie).await;
    assert!(!html.contains("data-testid=\"deal-basket\""));
}

both!(
    the_deals_home_shows_the_media_basket,
    the_deals_home_shows_the_media_basket_on_sqlite,
    the_deals_home_shows_the_media_basket_on_postgres
);
