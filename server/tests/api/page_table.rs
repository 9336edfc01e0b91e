//! The translations a page carries (issue #29): `<script id="i18n">` holds only the keys its
//! islands and widgets read. That the shipped keys are exactly those the browser reads is
//! checked in a browser (end2end/tests/i18n.spec.ts, against what the WASM and the widgets
//! look up); here, on the server HTML: the catalog page's weight, the table's language, the
//! keys of islands whose data comes late, of widgets, none of server-only parts, and no
//! table on a page without islands.
use std::collections::BTreeMap;
use std::io::Write;

use crate::helpers::{start, Backend, TestApp};

const KB: usize = 1024;

async fn page(t: &TestApp, path: &str, cookie: &str) -> String {
    let res = t.get_with_cookie(path, cookie).await;
    assert_eq!(res.status(), 200, "{path}");
    res.text().await.unwrap()
}

/// The page's table, if it has one.
fn table_of(html: &str) -> Option<BTreeMap<String, String>> {
    let start = html.find(r#"<script type="application/json" id="i18n">"#)?;
    let json = &html[start..];
    let json = &json[json.find('>')? + 1..json.find("</script>")?];
    Some(serde_json::from_str(json).expect("the table is JSON"))
}

fn gzip(text: &str) -> usize {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    gz.finish().unwrap().len()
}

#[tokio::test]
async fn the_catalog_page_of_a_member_stays_within_its_weight() {
    let t = start(Backend::Sqlite).await;
    let session = t.member_session(1).await;
    let html = page(&t, "/catalog/1001/0", &session).await;
    let table = table_of(&html).expect("a page with islands carries its table");
    let (raw, zipped) = (html.len(), gzip(&html));
    println!(
        "catalog page (sale 1001, member): {:.1} KB raw, {:.1} KB gzip; table {} keys, {:.1} KB",
        raw as f64 / KB as f64,
        zipped as f64 / KB as f64,
        table.len(),
        serde_json::to_string(&table).unwrap().len() as f64 / KB as f64,
    );
    assert!(raw <= 90 * KB, "{raw} bytes raw");
    assert!(zipped <= 16 * KB, "{zipped} bytes gzip");
    // The islands' texts: the hearts, the column switch, "load more", the cart link.
    for key in [
        "favourite.add",
        "favourite.error",
        "catalog.layout",
        "common.loading",
        "header.cart",
    ] {
        assert!(table.contains_key(key), "{key} in {:?}", table.keys());
    }
    // Server HTML's texts stay out: the filters, the pager.
    for key in ["catalog.filter.brand", "catalog.page.next", "page.catalog"] {
        assert!(!table.contains_key(key), "{key} shipped");
    }
}

#[tokio::test]
async fn the_table_speaks_the_page_language_and_holds_what_late_islands_and_widgets_read() {
    let t = start(Backend::Sqlite).await;
    // A German visitor's home: German texts.
    let home = table_of(&page(&t, "/?site=2", "").await).expect("the home's table");
    assert_eq!(home["header.cart"], app::site::i18n::t("de", "header.cart"));
    assert_ne!(home["header.cart"], app::site::i18n::t("fr", "header.cart"));

    let session = t.member_session(1).await;
    // The product page: its buy island renders once the product has loaded (async route),
    // it refreshes its options in the browser, and the report form is a React widget.
    let product = table_of(&page(&t, "/product/1001/100101", &session).await).unwrap();
    for key in [
        "product.options",
        "product.options.loading",
        "cart.add",
        "cart.errors.out_of_stock",
        "dsaform.submit",
        "dsaform.reason.HATRED",
    ] {
        assert!(product.contains_key(key), "product page: {key}");
    }
    assert!(!product.contains_key("product.datasheet"), "server HTML");

    // The cart: the island renders a loading state; the rest comes once the browser has
    // the cart. Its delivery step is server HTML inside it (the island's children).
    let cart = table_of(&page(&t, "/cart", &session).await).unwrap();
    for key in [
        "cart.checkout",
        "cart.total",
        "cart.errors.expired",
        "errors.csrf.notification",
    ] {
        assert!(cart.contains_key(key), "cart page: {key}");
    }
    for key in [
        "address.checkout.title",
        "address.checkout.manage",
        "page.cart",
    ] {
        // `page.cart` is the island's title, rendered by it: shipped. The others not.
        assert_eq!(
            cart.contains_key(key),
            key == "page.cart",
            "cart page: {key}"
        );
    }

    // The travel product: the price calendar widget's keys, not the map's.
    let trip = table_of(&page(&t, "/t/p/1025/102503", &session).await).unwrap();
    assert!(trip.contains_key("travel.calendar.label"));
    assert!(!trip.keys().any(|k| k.starts_with("travel.map.")));

    // The sign-in steps have no island: no table.
    assert!(table_of(&page(&t, "/gr/authentication", "").await).is_none());
}
