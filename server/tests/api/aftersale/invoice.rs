//! Invoices: the PDF read back with lopdf (order number, invoice number, each line, the
//! totals), numbers that never repeat, the same number for repeated and concurrent
//! requests, 404 for another member's order.
use reqwest::Method;

use super::{buy, option_of_sale};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

fn invoice_path(order_id: i64) -> String {
    format!("/api/postsale/v1/orders/{order_id}/invoice")
}

/// Every string the PDF shows (the operands of its text operators), WinAnsi decoded.
fn pdf_text(bytes: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(bytes).expect("a PDF lopdf reads");
    let mut out = String::new();
    for (_, page_id) in doc.get_pages() {
        let content = doc.get_page_content(page_id);
        let ops = lopdf::content::Content::decode(&content)
            .unwrap()
            .operations;
        for op in ops {
            if op.operator == "Tj" {
                for operand in op.operands {
                    if let lopdf::Object::String(bytes, _) = operand {
                        out.extend(bytes.iter().map(|b| match b {
                            0x80 => '€',
                            0xa0 => ' ',
                            b => char::from(*b),
                        }));
                        out.push('\n');
                    }
                }
            }
        }
    }
    out
}

async fn invoices(t: TestApp) {
    let a = shopper(&t, 2).await;
    let o1 = option_of_sale(&t, 1001, 1, 10).await;
    let o2 = option_of_sale(&t, 1001, 2, 10).await;
    let order = buy(&t, &a, &[(o1, 2), (o2, 1)], "fs").await;
    let other_order = buy(&t, &a, &[(o1, 1)], "fs").await;

    let (status, first) = a.call(&t, Method::POST, &invoice_path(order), None).await;
    assert_eq!(status, 200, "{first}");
    let number = first["invoiceNumber"].as_str().unwrap().to_string();
    assert!(
        number.starts_with("RS-20") && number.len() == 14,
        "{number}"
    );
    assert_eq!(first["url"], invoice_path(order));
    // A repeat gets the same number; another order a different one.
    let (_, again) = a.call(&t, Method::POST, &invoice_path(order), None).await;
    assert_eq!(again["invoiceNumber"], number.as_str());
    let (_, second) = a
        .call(&t, Method::POST, &invoice_path(other_order), None)
        .await;
    let number2 = second["invoiceNumber"].as_str().unwrap().to_string();
    assert_ne!(number2, number);

    // The PDF.
    let res = a
        .client
        .get(t.url(&invoice_path(order)))
        .header("cookie", &a.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    let disposition = res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(
        disposition,
        format!("attachment; filename=\"{number}.pdf\"")
    );
    let bytes = res.bytes().await.unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    let text = pdf_text(&bytes);
    assert!(text.contains(&number), "{text}");
    assert!(text.contains(&format!("Commande n° {order}")), "{text}");
    assert!(text.contains("Rosace SAS"), "{text}");
    let (names, total): (Vec<String>, i64) = {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT name, option_label FROM order_items WHERE order_id = $1 ORDER BY option_id",
        )
        .bind(order)
        .fetch_all(&t.app.state.db.pool)
        .await
        .unwrap();
        let total: i64 = sqlx::query_scalar("SELECT total FROM orders WHERE id = $1")
            .bind(order)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
        (rows.into_iter().map(|(n, _)| n).collect(), total)
    };
    assert_eq!(names.len(), 2);
    for name in &names {
        // Names are ASCII in the French demo data, or transliterated: compare the start.
        let head: String = name.chars().take(12).collect();
        assert!(text.contains(&head), "{head} missing in {text}");
    }
    let paid = app::site::format::money("fr-FR", total).replace(['\u{202f}', '\u{a0}'], " ");
    assert!(text.contains(&paid), "total {paid} missing in {text}");
    assert!(text.contains("Total TTC pay"), "{text}");
    assert!(text.contains("Total TVA"), "{text}");
    assert!(text.contains("20 %"), "{text}");

    // Another member: 404 for both calls; no session: 401; a bad id: 400.
    let b = shopper(&t, 2).await;
    assert_eq!(
        b.call(&t, Method::POST, &invoice_path(order), None).await.0,
        404
    );
    assert_eq!(
        b.call(&t, Method::GET, &invoice_path(order), None).await.0,
        404
    );
    let anonymous = t
        .client
        .get(t.url(&invoice_path(order)))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    let (status, body) = a
        .call(
            &t,
            Method::POST,
            "/api/postsale/v1/orders/abc/invoice",
            None,
        )
        .await;
    assert_eq!(
        (status, body["error_code"].as_str()),
        (400, Some("bad_path"))
    );
    assert_eq!(
        a.call(&t, Method::POST, &invoice_path(999_999), None)
            .await
            .0,
        404
    );
    // Two invoices in the table, one number each, never the same.
    assert_eq!(t.count("SELECT COUNT(*) FROM invoices").await, 2);
    assert_eq!(
        t.count("SELECT COUNT(DISTINCT number) FROM invoices").await,
        2
    );
}

both!(invoices, invoices_on_sqlite, invoices_on_postgres);

/// N members' browsers asking at once for one order's invoice get one number, and
/// concurrent requests for different orders never share one.
async fn concurrent_requests(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = option_of_sale(&t, 1001, 1, 50).await;
    let mut orders = Vec::new();
    for _ in 0..3 {
        orders.push(buy(&t, &a, &[(opt, 1)], "fs").await);
    }
    let mut calls = Vec::new();
    for i in 0..12 {
        let order = orders[i % 3];
        let client = a.client.clone();
        let url = t.url(&invoice_path(order));
        let (cookie, xsrf) = (a.cookie.clone(), a.xsrf.clone());
        calls.push(tokio::spawn(async move {
            let res = client
                .post(url)
                .header("cookie", cookie)
                .header("X-XSRF-TOKEN", xsrf)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200);
            let body: serde_json::Value = res.json().await.unwrap();
            (order, body["invoiceNumber"].as_str().unwrap().to_string())
        }));
    }
    let mut seen: std::collections::HashMap<i64, String> = Default::default();
    for c in calls {
        let (order, number) = c.await.unwrap();
        let kept = seen.entry(order).or_insert_with(|| number.clone());
        assert_eq!(*kept, number, "order {order} got two numbers");
    }
    let distinct: std::collections::HashSet<&String> = seen.values().collect();
    assert_eq!(distinct.len(), 3);
    assert_eq!(t.count("SELECT COUNT(*) FROM invoices").await, 3);
    // No gap: the year's counter is at 3.
    assert_eq!(
        t.count("SELECT MAX(last_value) FROM invoice_sequences")
            .await,
        3
    );
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    concurrent_requests,
    concurrent_invoices_on_sqlite,
    concurrent_invoices_on_postgres
);
