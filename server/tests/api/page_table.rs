//! The translations a page carries: `<script id="i18n">` holds only the keys its
//! islands and widgets read.
//!
//! The check ([`check`]) does not trust what the render recorded: it finds the islands on
//! the page as the browser does (`<leptos-island data-component data-props>`), renders
//! each again on its own from those props under the page's own request context
//! (`data-ctx`) and collects what it looks up and declares it shows later
//! (`app::island_keys`), adds the keys of the React widgets whose elements are on
//! the page, and asks the table to be exactly that: a key shipped that nothing on the page
//! reads fails it, and so does a key an island reads that the page lacks. It runs on every
//! main page kind, for a visitor and a member, with the page cache and member templates on
//! (a member's home, catalog and product page are a template filled per request, whose
//! header holes are rendered after the template's table was written), and on their second
//! request (from the cache or the template).
//!
//! That the keys an island declares are the ones its browser code shows is checked in a
//! browser (end2end/tests/i18n.spec.ts); here also the catalog page's weight, the table's
//! language, and spot checks of what late islands and widgets read.
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use crate::helpers::{start, start_with, Backend, TestApp};

const KB: usize = 1024;

/// The page at `path`, after the redirects on the way (a visitor's catalog goes to its
/// open-door address).
async fn page(t: &TestApp, path: &str, cookie: &str) -> String {
    let mut path = path.to_string();
    for _ in 0..3 {
        let res = t.get_with_cookie(&path, cookie).await;
        if res.status().is_redirection() {
            path = res.headers()["location"].to_str().unwrap().to_string();
            continue;
        }
        assert_eq!(res.status(), 200, "{path}");
        let html = res.text().await.unwrap();
        if let Ok(dir) = std::env::var("ROSACE_DUMP_PAGES") {
            let name: String = path
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            let who = if cookie.is_empty() {
                "visitor"
            } else {
                "member"
            };
            std::fs::write(format!("{dir}/{who}{name}.html"), &html).unwrap();
        }
        return html;
    }
    panic!("{path}: too many redirects")
}

const TABLE_TAG: &str = r#"<script type="application/json" id="i18n">"#;

/// The page's table, if it has one.
fn table_of(html: &str) -> Option<BTreeMap<String, String>> {
    let start = html.find(TABLE_TAG)? + TABLE_TAG.len();
    let json = &html[start..];
    let json = &json[..json.find("</script>")?];
    Some(serde_json::from_str(json).expect("the table is JSON"))
}

fn gzip(text: &str) -> usize {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    gz.finish().unwrap().len()
}

/// The value of attribute `name` in the tag starting `tag` (unescaped).
fn attribute(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let value = &tag[start..];
    let value = &value[..value.find('"')?];
    Some(html_escape::decode_html_entities(value).into_owned())
}

/// The islands of `html`: each `<leptos-island>`'s component and props, as the browser's
/// loader reads them.
fn islands_of(html: &str) -> Vec<(String, Option<String>)> {
    html.split("<leptos-island ")
        .skip(1)
        .map(|rest| {
            let tag = &rest[..rest.find('>').expect("the island's tag ends")];
            let tag = format!(" {tag}");
            (
                attribute(&tag, "data-component").expect("an island names its component"),
                attribute(&tag, "data-props"),
            )
        })
        .collect()
}

/// The request context the page's islands hydrate with (`<html data-ctx>`).
fn ctx_of(html: &str) -> app::context::RequestCtx {
    let start = html.find("<html ").expect("an HTML document");
    let tag = &html[start + 5..];
    let tag = &tag[..tag.find('>').unwrap()];
    let json = attribute(tag, "data-ctx").expect("data-ctx");
    serde_json::from_str(&json).expect("data-ctx is a request context")
}

/// What the page's islands and widgets read, found again from the page alone.
fn read_by_page(html: &str) -> BTreeSet<String> {
    let ctx = ctx_of(html);
    let mut keys = BTreeSet::new();
    for (component, props) in islands_of(html) {
        let read = app::island_keys::island_keys(&component, props.as_deref(), &ctx)
            .unwrap_or_else(|e| panic!("cannot hydrate {component} again: {e}"));
        keys.extend(read.into_iter().map(String::from));
    }
    for widget in app::island_keys::widgets_in(html) {
        keys.extend(widget.keys().into_iter().map(String::from));
    }
    keys
}

/// The page's table holds exactly the keys its islands and widgets read, in the page's
/// language; a page without islands has no table.
fn check(label: &str, html: &str) -> Result<(), String> {
    let read = read_by_page(html);
    let Some(table) = table_of(html) else {
        return if islands_of(html).is_empty() {
            Ok(())
        } else {
            Err(format!("{label}: islands but no table"))
        };
    };
    let shipped: BTreeSet<String> = table.keys().cloned().collect();
    let unused: Vec<&String> = shipped.difference(&read).collect();
    let missing: Vec<&String> = read.difference(&shipped).collect();
    if !unused.is_empty() {
        return Err(format!(
            "{label}: ships keys no island or widget on it reads: {unused:?}"
        ));
    }
    if !missing.is_empty() {
        return Err(format!(
            "{label}: its islands or widgets read keys it does not ship: {missing:?}"
        ));
    }
    let lang = ctx_of(html).lang();
    for (key, text) in &table {
        if *text != app::site::i18n::t(lang, key) {
            return Err(format!(
                "{label}: {key} is not in the page's language ({lang})"
            ));
        }
    }
    Ok(())
}

/// Pages of every main kind, as a visitor and as a member sees them.
const VISITOR_PAGES: [&str; 9] = [
    "/?site=1",
    "/?site=2",
    "/c/vente/1001/0",
    "/seo-product/noa/1001/chemise-noa/100101",
    "/find",
    "/find?q=robe",
    "/voyages?site=1",
    "/brandsplace",
    "/gr/aboutus",
];

const MEMBER_PAGES: [&str; 20] = [
    "/",
    "/catalog/1001/0",
    "/catalog/1001/0?page=2",
    "/product/1001/100101",
    "/find",
    "/find?q=robe",
    "/cart",
    "/home/travel",
    "/t/c/1025",
    "/t/p/1025/102503",
    "/helpform",
    "/my-orders",
    "/myaccount",
    "/myaccount/memberdata",
    "/postsales/myaccount/addresses/",
    "/postsales/myaccount/wallet/",
    "/gr/my-notifications/",
    "/postsales/favourites",
    "/rosedeals",
    "/communications",
];

#[tokio::test]
async fn every_page_ships_exactly_what_its_islands_and_widgets_read() {
    // With the visitors' page cache and the member templates on, as in production.
    let t = start_with(Backend::Sqlite, |c| c.page_cache_ms = 60_000).await;
    let session = t.member_session(1).await;
    let mut failures = Vec::new();
    let mut checked = 0;
    for (who, cookie, paths) in [
        ("visitor", "", &VISITOR_PAGES[..]),
        ("member", session.as_str(), &MEMBER_PAGES[..]),
    ] {
        for path in paths {
            // Twice: the second comes from the cache or the template when the page has one.
            for round in ["first", "second"] {
                let html = page(&t, path, cookie).await;
                assert!(
                    table_of(&html).is_some(),
                    "{who} {path}: a page with islands carries its table"
                );
                if let Err(e) = check(&format!("{who} {path} ({round} request)"), &html) {
                    failures.push(e);
                }
                checked += 1;
            }
        }
    }
    // The travel checkout: its form is an island whose address step is server HTML.
    let shopper = crate::address::member_on(&t, 1).await;
    let (status, saved) = shopper
        .call(
            &t,
            reqwest::Method::POST,
            crate::address::A,
            Some(crate::address::paris()),
        )
        .await;
    assert_eq!(status, 201, "an address to book with: {saved}");
    let d = crate::travel::departure(&t, &shopper).await;
    let path = format!(
        "/t/p/{}/{}/checkout?package={}&city={}&days={}&nights={}&checkin={}&party=a,a",
        d.0, d.1, d.2, d.3, d.5, d.6, d.7
    );
    let html = page(&t, &path, &shopper.cookie).await;
    assert!(html.contains("CheckoutForm_"), "the checkout form island");
    if let Err(e) = check("member travel checkout", &html) {
        failures.push(e);
    }
    // The sign-in steps have no island: no table.
    let sign_in = page(&t, "/gr/authentication", "").await;
    assert!(table_of(&sign_in).is_none() && islands_of(&sign_in).is_empty());
    assert!(t.app.page_cache.renders() > 0, "member templates were used");
    assert!(
        failures.is_empty(),
        "{checked} pages:\n{}",
        failures.join("\n")
    );
}

#[tokio::test]
async fn the_check_catches_a_key_nothing_reads_and_one_missing() {
    let t = start(Backend::Sqlite).await;
    let session = t.member_session(1).await;
    let html = page(&t, "/catalog/1001/0", &session).await;
    check("catalog", &html).unwrap();
    let table = table_of(&html).unwrap();
    let start = html.find(TABLE_TAG).unwrap() + TABLE_TAG.len();
    let end = start + html[start..].find("</script>").unwrap();
    let with = |table: &BTreeMap<String, String>| {
        format!(
            "{}{}{}",
            &html[..start],
            serde_json::to_string(table).unwrap(),
            &html[end..]
        )
    };
    // A server-rendered text (the pager's) shipped as well.
    let mut more = table.clone();
    more.insert(
        "catalog.page.next".into(),
        app::site::i18n::t("fr", "catalog.page.next"),
    );
    let err = check("catalog", &with(&more)).unwrap_err();
    assert!(
        err.contains("no island") && err.contains("catalog.page.next"),
        "{err}"
    );
    // A key of the hearts left out.
    let mut less = table.clone();
    less.remove("favourite.error")
        .expect("the hearts' error text");
    let err = check("catalog", &with(&less)).unwrap_err();
    assert!(
        err.contains("does not ship") && err.contains("favourite.error"),
        "{err}"
    );
    // The whole language, as pages carried it before.
    let all: BTreeMap<String, String> = app::site::i18n::table("fr")
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    assert!(check("catalog", &with(&all)).is_err());
}

/// `html` with its language's whole table in place of its own.
fn with_whole_table(html: &str) -> String {
    let Some(start) = html.find(TABLE_TAG).map(|s| s + TABLE_TAG.len()) else {
        return html.to_string();
    };
    let end = start + html[start..].find("</script>").unwrap();
    let lang = ctx_of(html).lang();
    let mut keys: Vec<&str> = app::site::i18n::table("fr")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    let whole = app::site::i18n::page_table_json_for(lang, keys);
    format!("{}{whole}{}", &html[..start], &html[end..])
}

/// Sizes of the main pages (printed with `--nocapture`), and the catalog page of a member
/// within 16 KB compressed (the issue's budget) and 100 KB raw. The issue's raw budget, 90
/// KB, is not met yet: see the next test.
#[tokio::test]
async fn the_catalog_page_of_a_member_stays_within_its_weight() {
    let t = start(Backend::Sqlite).await;
    let session = t.member_session(1).await;
    for (label, path, cookie) in [
        ("home (member)", "/", session.as_str()),
        ("catalog (member)", "/catalog/1001/0", session.as_str()),
        ("product (member)", "/product/1001/100101", session.as_str()),
        (
            "travel product (member)",
            "/t/p/1025/102503",
            session.as_str(),
        ),
        ("home (visitor)", "/?site=1", ""),
        ("catalog (visitor)", "/c/vente/1001/0", ""),
    ] {
        let html = page(&t, path, cookie).await;
        let table = table_of(&html).unwrap_or_default();
        // The same page with its language's whole table, as pages carried it before.
        let whole = with_whole_table(&html);
        println!(
            "{label}: {:.1} KB raw, {:.1} KB gzip; table {} keys, {:.1} KB \
             (with the whole table: {:.1} KB raw, {:.1} KB gzip)",
            html.len() as f64 / KB as f64,
            gzip(&html) as f64 / KB as f64,
            table.len(),
            serde_json::to_string(&table).unwrap().len() as f64 / KB as f64,
            whole.len() as f64 / KB as f64,
            gzip(&whole) as f64 / KB as f64,
        );
    }
    let html = page(&t, "/catalog/1001/0", &session).await;
    let table = table_of(&html).expect("a page with islands carries its table");
    let (raw, zipped) = (html.len(), gzip(&html));
    // The issue's budget (the page was 171 KB with its language's whole table).
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
}
