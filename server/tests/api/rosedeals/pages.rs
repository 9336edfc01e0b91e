//! The rose-deals pages as the server renders them (complete HTML before any script): the
//! deals home under both addresses, the ongoing order with its voucher, the refund form,
//! the refund's result with its amount, the history; members only.
use super::{buy, deal_option, multipart, refund_form, GOOD_IBAN};
use crate::helpers::cart::shopper;
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

async fn pages_render(t: TestApp) {
    let a = shopper(&t, 2).await;
    for path in ["/rosedeals", "/gr/home/rosedeals"] {
        let (status, html) = page(&t, path, &a.cookie).await;
        assert_eq!(status, 200, "{path}");
        assert!(html.matches("data-testid=\"deal\"").count() >= 6, "{path}");
        assert!(
            html.contains("data-testid=\"add-to-cart\""),
            "{path}: the cart button"
        );
        assert!(html.contains("data-enhance-region=\"rosedeals\""));
    }
    // Members only: a visitor is sent to sign in.
    let (status, html) = page(&t, "/rosedeals/ongoing", "").await;
    assert!(
        (300..400).contains(&status) || !html.contains("deal-order"),
        "{status}"
    );

    let (status, html) = page(&t, "/rosedeals/ongoing", &a.cookie).await;
    assert_eq!(status, 200);
    assert!(html.contains("data-testid=\"orders-empty\""));
    let opt = deal_option(&t, 6, 10).await;
    let order_id = buy(&t, &a, opt, 1).await;
    let code: String = sqlx::query_scalar("SELECT code FROM rosedeal_vouchers WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let (_, html) = page(&t, "/rosedeals/ongoing", &a.cookie).await;
    assert!(
        html.contains(&code),
        "the voucher's code on the ongoing page"
    );
    assert!(html.contains(&format!("/rosedeals/print/{order_id}")));
    let (_, html) = page(
        &t,
        &format!("/rosedeals/refund?basketId={order_id}"),
        &a.cookie,
    )
    .await;
    assert!(html.contains("data-testid=\"refund-form\""));
    assert!(html.contains("data-testid=\"retry-form\""));
    let (_, html) = page(&t, "/rosedeals/contact-form", &a.cookie).await;
    assert!(html.contains("data-testid=\"contact-form\"") && html.contains(&code));

    let path = format!("/api/rosedeals/v1/orders/{order_id}/refund");
    let (status, ok) = multipart(&t, &a, &path, &refund_form(GOOD_IBAN, false), &[]).await;
    assert_eq!(status, 200, "{ok}");
    let (_, html) = page(
        &t,
        &format!("/rosedeals/refund-result?basketId={order_id}"),
        &a.cookie,
    )
    .await;
    assert!(html.contains("data-testid=\"refund-amount\""));
    let amount = app::site::format::money(
        app::site::by_id_or_default(1).locale,
        ok["amount"].as_i64().unwrap(),
    );
    let (_, html_history) = page(&t, "/rosedeals/history", &a.cookie).await;
    assert!(html_history.contains(&code));
    assert!(
        html.contains(&amount) || html.contains(&amount.replace('\u{202f}', "&nbsp;")),
        "{amount} in the result page"
    );
}

both!(
    pages_render,
    pages_render_on_sqlite,
    pages_render_on_postgres
);
