//! Content pages and calls on SQLite and PostgreSQL: the documents as a browser
//! without scripts gets them (canonical, hreflang, sitemap), the footer call for a visitor
//! and a member, landing pages (selection, seoConfig, 404, 400), hreflang alternates that
//! answer, and the route table's page kinds each rendered by its own page (there is no
//! placeholder page any more: `app::render` names every kind).
use std::collections::HashSet;

use app::routes::PageKind;
use serde_json::Value;

use crate::helpers::{both, json, start, Backend, TestApp};

/// The not-found page's marker (app/src/ui/not_found.rs).
const NOT_FOUND: &str = "data-testid=\"not-found\"";

/// The "coming soon" page that is gone: its marker, in case anything brings it back.
fn coming_soon(html: &str) -> bool {
    html.contains("class=\"placeholder\" data-page-kind=")
}

/// A page's hreflang alternates: (hreflang, path and query on the test server).
fn alternates(html: &str) -> Vec<(String, String)> {
    html.split("<link ")
        .skip(1)
        .filter_map(|l| l.split('>').next())
        .filter(|l| l.contains("rel=\"alternate\""))
        .filter_map(|l| {
            let attr = |name: &str| {
                let key = format!("{name}=\"");
                let at = l.find(&key)? + key.len();
                l[at..].split('"').next().map(str::to_string)
            };
            let href = attr("href")?
                .replace("&amp;", "&")
                .replace("http://shop.test", "");
            Some((attr("hreflang")?, href))
        })
        .collect()
}

async fn page(t: &TestApp, path: &str, cookie: &str) -> (u16, String) {
    let res = t.get_with_cookie(path, cookie).await;
    (res.status().as_u16(), res.text().await.unwrap_or_default())
}

async fn documents_footer_landings_and_sitemap(t: TestApp) {
    // The documents: complete HTML, canonical path, hreflang alternates of the brand's sites.
    for (path, canonical, title) in [
        ("/gr/aboutus", "/gr/aboutus", "Qui sommes-nous ?"),
        ("/aboutus", "/gr/aboutus", "Qui sommes-nous ?"),
        (
            "/registration/privacypolicy",
            "/registration/privacypolicy",
            "Politique de confidentialité",
        ),
        (
            "/registration/generalconditions",
            "/registration/generalconditions",
            "Conditions générales de vente",
        ),
    ] {
        let (status, html) = page(&t, path, "").await;
        assert_eq!(status, 200, "{path}");
        assert!(html.contains(title), "{path} title");
        assert!(html.contains("data-testid=\"content-doc\""), "{path}");
        assert!(html.contains("rel=\"canonical\""), "{path} canonical");
        assert!(
            html.contains(&format!("{canonical}\"")),
            "{path} canonical path"
        );
        assert!(
            html.matches("rel=\"alternate\"").count() >= 2 && html.contains("hreflang=\"fr-BE\""),
            "{path} hreflang"
        );
        assert!(!html.contains("noindex"), "{path} is indexable");
        assert!(!coming_soon(&html), "{path}");
    }
    // A first visit (no consent answered) has the consent banner: the privacy policy's
    // sections have ids of their own, so the banner's heading id stays unique and the
    // table of contents points at the sections.
    let (_, html) = page(&t, "/registration/privacypolicy", "").await;
    assert!(html.contains("data-testid=\"consent-banner\""));
    assert_eq!(html.matches("id=\"consent-title\"").count(), 1);
    assert!(html.contains("id=\"doc-consent\"") && html.contains("href=\"#doc-consent\""));
    assert!(html.contains("id=\"doc-consent-title\""));
    // Another language and the sister brand.
    let (_, html) = page(&t, "/registration/privacypolicy?site=2", "").await;
    assert!(html.contains("Datenschutzerklärung") && html.contains("OptanonConsent"));
    let (_, html) = page(&t, "/gr/aboutus?site=69", "").await;
    assert!(html.contains("Violeta") && html.contains("Chi siamo"));

    // The footer call: visitors get no members-only link, members get their sections.
    let (status, visitor) = json(&t, "/api/content/v1/footer?site=1", "").await;
    assert_eq!(status, 200);
    let hrefs = |f: &Value| -> Vec<String> {
        f["sections"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["links"].as_array().unwrap().iter())
            .map(|l| l["href"].as_str().unwrap().to_string())
            .collect()
    };
    let v = hrefs(&visitor);
    assert!(
        v.contains(&"/registration/privacypolicy".to_string()),
        "{v:?}"
    );
    assert!(v.contains(&"/l/ventes-de-la-semaine".to_string()), "{v:?}");
    assert!(!v.contains(&"/gr/my-orders".to_string()), "{v:?}");
    // The brands place (open door, crawlable) is linked for visitors, and is theirs.
    assert!(v.contains(&"/brandsplace".to_string()), "{v:?}");
    let (status, html) = page(&t, "/brandsplace?site=1", "").await;
    assert_eq!(status, 200);
    assert!(html.contains("data-testid=\"brandsplace\"") && !html.contains("noindex"));
    let member = t.member_session(1).await;
    let (_, m) = json(&t, "/api/content/v1/footer?site=1", &member).await;
    let m = hrefs(&m);
    assert!(m.contains(&"/gr/my-orders".to_string()) && m.contains(&"/postsales".to_string()));
    assert!(!m.contains(&"/gr/registration".to_string()));
    // Every footer link of a member answers a real page.
    for href in m.iter().filter(|h| !h.ends_with(".xml")) {
        let (status, html) = page(&t, href, &member).await;
        assert_eq!(status, 200, "{href}");
        assert!(!coming_soon(&html) && !html.contains(NOT_FOUND), "{href}");
    }
    // The home page's footer is the call's footer.
    let (_, home) = page(&t, "/?site=3", "").await;
    assert!(
        home.contains("data-testid=\"footer-links\"") && home.contains("/l/ventas-de-la-semana")
    );

    // Landing pages: every site has at least two, each with its selection.
    for site in app::site::SITES {
        let (status, list) = json(
            &t,
            &format!("/api/content/v1/landings?site={}", site.site_id),
            "",
        )
        .await;
        assert_eq!(status, 200);
        let list = list.as_array().unwrap().clone();
        assert!(
            list.len() >= 2,
            "site {} has {} landings",
            site.site_id,
            list.len()
        );
        for l in &list {
            let slug = l["slug"].as_str().unwrap();
            let (status, body) = json(
                &t,
                &format!("/api/content/v1/landings/{slug}?site={}", site.site_id),
                "",
            )
            .await;
            assert_eq!(status, 200, "{slug}");
            let shown = body["sales"].as_array().unwrap().len()
                + body["products"].as_array().unwrap().len();
            assert!(
                shown > 0,
                "site {} landing {slug} shows nothing",
                site.site_id
            );
            assert_eq!(
                body["seoConfig"]["footerParagraphs"]
                    .as_array()
                    .unwrap()
                    .len(),
                2
            );
        }
    }
    let (status, body) = json(&t, "/api/content/v1/landings/nothing-here?site=1", "").await;
    assert_eq!(
        (
            status,
            body["error_code"].as_str().or(body["errorCode"].as_str())
        ),
        (404, Some("not_found"))
    );
    let (status, body) = json(&t, "/api/content/v1/landings/Not%20A%20Slug?site=1", "").await;
    assert_eq!(
        (
            status,
            body["error_code"].as_str().or(body["errorCode"].as_str())
        ),
        (400, Some("invalid_slug"))
    );
    // Another site's landing is not this site's.
    let (status, _) = json(
        &t,
        "/api/content/v1/landings/ventas-de-la-semana?site=1",
        "",
    )
    .await;
    assert_eq!(status, 404);

    // The landing page: seoConfig title, blocks, sales linking to open-door catalogs.
    let (status, html) = page(&t, "/l/ventes-de-la-semaine?site=1", "").await;
    assert_eq!(status, 200);
    assert!(
        html.contains("<title>Mode de marque et voyages à prix de vente privée | Rosace</title>"),
        "seo title"
    );
    assert!(html.contains("data-testid=\"landing-sales\"") && html.contains("href=\"/c/"));
    assert!(html.contains("data-testid=\"landing-seo-footer\""));
    let (status, html) = page(&t, "/l/marque-a-la-une?site=1", "").await;
    assert_eq!(status, 200);
    assert!(html.contains("data-testid=\"landing-products\"") && html.contains("/seo-product/"));
    for path in [
        "/l/nothing-here",
        "/l/ventas-de-la-semana",
        "/l/Bad%20slug",
        "/l/a/b",
    ] {
        let (status, html) = page(&t, path, "").await;
        assert_eq!(status, 404, "{path}");
        assert!(html.contains("data-testid=\"not-found\""), "{path}");
    }

    // The sitemap lists the documents and the site's landings, not another site's.
    let xml = t.get("/sitemap.xml?site=1").await.text().await.unwrap();
    for path in [
        "/gr/aboutus",
        "/registration/privacypolicy",
        "/registration/generalconditions",
        "/l/ventes-de-la-semaine",
        "/l/marque-a-la-une",
        "/brandsplace",
    ] {
        assert!(xml.contains(path), "sitemap lacks {path}");
    }
    assert!(!xml.contains("/l/ventas-de-la-semana"));

    // The after-sale hub and the premium page are members' pages.
    let (status, html) = page(&t, "/postsales", &member).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("data-testid=\"postsales-hub\"") && html.contains("href=\"/gr/my-orders\"")
    );
    let (status, html) = page(&t, "/checkout/loyalty", &member).await;
    assert_eq!(status, 200);
    assert!(html.contains("data-testid=\"loyalty-page\""));
    // Its link to the conditions' loyalty section lands on that section's id.
    assert!(html.contains("href=\"/registration/generalconditions#doc-loyalty\""));
    let (_, conditions) = page(&t, "/registration/generalconditions", "").await;
    assert!(conditions.contains("id=\"doc-loyalty\""));
    let (status, _) = page(&t, "/postsales", "").await;
    assert_eq!(status, 302, "members only");
}

both!(
    documents_footer_landings_and_sitemap,
    content_on_sqlite,
    content_on_postgres
);

/// Requests `path` once (remembered in `checked`): it must answer 200 with `marker`.
async fn answers(t: &TestApp, path: String, marker: &str, checked: &mut HashSet<String>) {
    if checked.insert(path.clone()) {
        let (status, html) = page(t, &path, "").await;
        assert_eq!(status, 200, "{path}");
        assert!(html.contains(marker), "{path} is not the page ({marker})");
    }
}

/// Every hreflang alternate of a landing page (on every site) and of the documents answers
/// the same page on its site: landings link each translation at its own slug, and only the
/// translations that exist. Order ids that are not numbers and paths under the brands place
/// name nothing (404), where they used to answer a "coming soon" page or a duplicate.
async fn hreflang_alternates_answer_and_unknown_paths_are_404(t: TestApp) {
    let mut checked: HashSet<String> = HashSet::new();
    let mut landings_with_translations = 0;
    for site in app::site::SITES {
        let (_, list) = json(
            &t,
            &format!("/api/content/v1/landings?site={}", site.site_id),
            "",
        )
        .await;
        for l in list.as_array().unwrap() {
            let own = format!("/l/{}?site={}", l["slug"].as_str().unwrap(), site.site_id);
            let (status, html) = page(&t, &own, "").await;
            assert_eq!(status, 200, "{own}");
            let alts = alternates(&html);
            // The page itself is among its alternates, each language once, same brand only.
            assert!(
                alts.iter()
                    .any(|(lang, href)| lang == site.locale && *href == own),
                "{own}: {alts:?}"
            );
            let langs: HashSet<&String> = alts.iter().map(|(lang, _)| lang).collect();
            assert_eq!(langs.len(), alts.len(), "{own}: {alts:?}");
            assert!(alts.len() <= site.siblings().count(), "{own}: {alts:?}");
            if alts.len() >= 2 {
                landings_with_translations += 1;
            }
            for (_, href) in alts {
                answers(&t, href, "data-testid=\"landing\"", &mut checked).await;
            }
        }
    }
    // Both demo pages exist on the nine Rosace sites (and on both Violeta sites).
    assert!(
        landings_with_translations >= 18,
        "{landings_with_translations} landings with translations"
    );
    // The API names the translations too: site 1's weekly sales in German on site 2.
    let (_, body) = json(
        &t,
        "/api/content/v1/landings/ventes-de-la-semaine?site=1",
        "",
    )
    .await;
    let translations = body["translations"].as_array().unwrap();
    assert!(translations
        .iter()
        .any(|tr| tr["siteId"] == 2 && tr["slug"] == "aktionen-der-woche"));
    assert!(!translations.iter().any(|tr| tr["siteId"] == 66));

    // The documents: the same path on every site of the brand.
    for path in [
        "/gr/aboutus",
        "/registration/privacypolicy",
        "/registration/generalconditions",
    ] {
        for site in [1, 66] {
            let (_, html) = page(&t, &format!("{path}?site={site}"), "").await;
            let alts = alternates(&html);
            assert!(alts.len() >= 2, "{path} on {site}: {alts:?}");
            for (_, href) in alts {
                answers(&t, href, "data-testid=\"content-doc\"", &mut checked).await;
            }
        }
    }

    // Non-numeric order ids and deeper brands-place paths: the 404 page, even for a member.
    let member = t.member_session(1).await;
    for path in [
        "/my-orders/fs/abc",
        "/gr/my-orders/fs/abc",
        "/details/abc",
        "/gr/details/abc",
        "/postsales/abc/details",
        "/brandsplace/anything",
        "/gr/brandsplace/a/b",
    ] {
        let (status, html) = page(&t, path, &member).await;
        assert_eq!(status, 404, "{path}");
        assert!(html.contains(NOT_FOUND) && !coming_soon(&html), "{path}");
    }
    for path in ["/brandsplace", "/brandsplace/", "/gr/brandsplace"] {
        let (status, html) = page(&t, path, "").await;
        assert_eq!(status, 200, "{path}");
        assert!(html.contains("data-testid=\"brandsplace\""), "{path}");
        // One canonical whatever the variant: no duplicate of the page.
        let canonical = html
            .split("<link ")
            .find(|l| l.contains("rel=\"canonical\""))
            .and_then(|l| l.split("href=\"").nth(1))
            .and_then(|h| h.split('"').next())
            .unwrap_or_default();
        assert_eq!(
            canonical.replace("http://shop.test", "").split('?').next(),
            Some("/brandsplace"),
            "{path}"
        );
    }
}

both!(
    hreflang_alternates_answer_and_unknown_paths_are_404,
    hreflang_on_sqlite,
    hreflang_on_postgres
);

/// One path per page kind: the match is exhaustive, so a new kind needs a sample here.
fn sample(kind: PageKind, ids: &Ids) -> String {
    use PageKind::*;
    let s = |p: &str| p.to_string();
    match kind {
        AboutUs => s("/gr/aboutus"),
        Authentication => s("/gr/authentication"),
        Portal => s("/gr/portal"),
        Registration => s("/gr/registration"),
        PrivacyPolicy => s("/registration/privacypolicy"),
        GeneralConditions => s("/registration/generalconditions"),
        Home => s("/"),
        Landing => s("/l/ventes-de-la-semaine"),
        BrandsPlace => s("/brandsplace"),
        Catalog => format!("/gr/catalog/{}", ids.sale),
        Product => format!("/product/{}/{}", ids.sale, ids.product),
        Brand => format!("/b/{}", ids.brand),
        Search => s("/find?q=robe"),
        Sponsorship => s("/gr/sponsorship"),
        Cart => s("/cart"),
        Logout => s("/gr/authentication/logout"),
        Operation => s("/operation"),
        OperationSelection => s("/operation/SELECTION/selection"),
        MyAccount => s("/gr/myaccount"),
        PersonalData => s("/myaccount/memberdata"),
        MyOrders => s("/gr/my-orders"),
        OrderDetails => format!("/my-orders/fs/{}", ids.order),
        MyNotifications => s("/gr/my-notifications/"),
        VouchersPromos => s("/vouchers-promotions"),
        HelpForm => s("/helpform"),
        MobileMenu => s("/menu"),
        Communications => s("/memberaccount/communications"),
        PostSales => s("/postsales"),
        ContactSelector => s("/postsales/contactselector"),
        Favourites => s("/postsales/favourites"),
        Addresses => s("/postsales/myaccount/addresses/"),
        Wallet => s("/postsales/myaccount/wallet/"),
        PostSalesError => s("/ps/errors"),
        Chat => s("/chat"),
        Loyalty => s("/checkout/loyalty"),
        Deals => s("/rosedeals"),
        Travel => s("/home/travel"),
        TravelSearch => s("/t/s"),
        TravelResults => s("/t/r"),
        TravelCatalog => format!("/t/c/{}", ids.travel_sale),
        TravelProduct => format!("/t/p/{}/{}", ids.travel_sale, ids.travel_product),
        TravelCheckout => format!("/t/p/{}/{}/checkout", ids.travel_sale, ids.travel_product),
        TravelError => s("/t/error"),
        Sales => s("/sales"),
        Navigation => s("/navigation"),
    }
}

const KINDS: [PageKind; 44] = {
    use PageKind::*;
    [
        AboutUs,
        Authentication,
        Portal,
        Registration,
        PrivacyPolicy,
        GeneralConditions,
        Home,
        Landing,
        BrandsPlace,
        Catalog,
        Product,
        Brand,
        Search,
        Sponsorship,
        Cart,
        Operation,
        MyAccount,
        PersonalData,
        MyOrders,
        OrderDetails,
        MyNotifications,
        VouchersPromos,
        HelpForm,
        MobileMenu,
        Communications,
        PostSales,
        ContactSelector,
        Favourites,
        Addresses,
        Wallet,
        PostSalesError,
        Chat,
        Loyalty,
        Deals,
        Travel,
        TravelSearch,
        TravelResults,
        TravelCatalog,
        TravelProduct,
        TravelCheckout,
        TravelError,
        Sales,
        Navigation,
        // Last: it ends the session the other pages are requested with.
        Logout,
    ]
};

struct Ids {
    sale: i64,
    product: i64,
    brand: i64,
    order: i64,
    travel_sale: i64,
    travel_product: i64,
}

async fn scalar(t: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(sql)
        .fetch_optional(&t.app.state.db.pool)
        .await
        .unwrap()
        .unwrap_or(0)
}

/// Every page kind of the route table, requested as the site's demo member with a sample
/// path naming something that exists, renders its own page (or its redirect): no server
/// error, no 404 page, no "coming soon" page. Fails with the list of the kinds that do not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_kind_renders_a_page_not_the_placeholder() {
    let t = start(Backend::Sqlite).await;
    let member = t.member_session(1).await;
    let member_id = scalar(&t, "SELECT MIN(id) FROM members WHERE site_id = 1").await;
    let ids = Ids {
        sale: scalar(
            &t,
            "SELECT MIN(id) FROM sales WHERE site_id = 1 AND campaign_kind = 'DEFAULT'",
        )
        .await,
        product: 0,
        brand: 0,
        order: scalar(
            &t,
            &format!("SELECT COALESCE(MIN(id), 1) FROM orders WHERE member_id = {member_id}"),
        )
        .await,
        travel_sale: scalar(
            &t,
            "SELECT MIN(id) FROM sales WHERE site_id = 1 AND campaign_kind = 'TRAVEL'",
        )
        .await,
        travel_product: 0,
    };
    let ids = Ids {
        product: scalar(
            &t,
            &format!("SELECT MIN(id) FROM products WHERE sale_id = {}", ids.sale),
        )
        .await,
        brand: scalar(
            &t,
            &format!(
                "SELECT MIN(brand_id) FROM products WHERE sale_id = {}",
                ids.sale
            ),
        )
        .await,
        travel_product: scalar(
            &t,
            &format!(
                "SELECT MIN(id) FROM products WHERE sale_id = {}",
                ids.travel_sale
            ),
        )
        .await,
        ..ids
    };
    let mut not_their_page = Vec::new();
    let mut failing = Vec::new();
    for kind in KINDS {
        let path = sample(kind, &ids);
        let resolved = app::routes::resolve(path.split('?').next().unwrap()).map(|r| r.kind);
        assert_eq!(resolved, Some(kind), "{path} resolves to its kind");
        let (status, html) = page(&t, &path, &member).await;
        if status >= 500 {
            failing.push(format!("{kind:?} {path} → {status}"));
        }
        // The travel checkout needs a departure chosen on the product page (its query):
        // without one, the 404 page is that page's own answer.
        let answered =
            matches!(status, 200 | 302) || (status == 404 && kind == PageKind::TravelCheckout);
        if !answered || (status == 200 && html.contains(NOT_FOUND)) || coming_soon(&html) {
            not_their_page.push(format!("{kind:?} {path} → {status}"));
        }
    }
    assert!(failing.is_empty(), "server errors: {failing:#?}");
    assert!(
        not_their_page.is_empty(),
        "page kinds not rendered by their page: {not_their_page:#?}"
    );
}
