//! Navigation on SQLite and PostgreSQL: the header calls (content, home
//! headers, menu config) within the header limits, loggedIn filtering, the bell's newest
//! messages, the server-rendered header and `/menu` without scripts, and every entry of the
//! lateral and account menus answering a real page for a member.
use serde_json::Value;

use crate::helpers::{both, json, TestApp};

fn arr(v: &Value) -> &Vec<Value> {
    v.as_array().expect("an array")
}

async fn page(t: &TestApp, path: &str, cookie: &str) -> (u16, String) {
    let res = t.get_with_cookie(path, cookie).await;
    (res.status().as_u16(), res.text().await.unwrap_or_default())
}

async fn header_calls_menus_and_pages(t: TestApp) {
    // A visitor: home tabs (the default home first), categories within the limits.
    let (status, h) = json(&t, "/api/content/v1/header?siteId=1&userparam=x", "").await;
    assert_eq!(status, 200);
    assert_eq!(h["siteId"], 1);
    assert!(h["memberId"].is_null());
    assert_eq!(h["unreadCount"], 0);
    assert!(arr(&h["messages"]).is_empty());
    let tabs = arr(&h["homeTabs"]);
    assert!(tabs.len() >= 2);
    assert_eq!(tabs[0]["href"], "/");
    // The travel tab leads a visitor to the open-door `/voyages`, not to the sign-in page;
    // every tab of a visitor opens without signing in.
    assert_eq!(travel_tab(&h["homeTabs"])["href"], "/voyages");
    for tab in tabs {
        let href = tab["href"].as_str().unwrap();
        let (status, _) = page(&t, &format!("{href}?site=1"), "").await;
        assert_eq!(status, 200, "{href} opens to a visitor");
    }
    let cats = arr(&h["categories"]);
    assert!(
        !cats.is_empty() && cats.len() <= 8,
        "{} categories",
        cats.len()
    );
    for c in cats {
        assert!(!arr(&c["items"]).is_empty() && arr(&c["items"]).len() <= 5);
        assert!(!arr(&c["sales"]).is_empty() && arr(&c["sales"]).len() <= 4);
        // A visitor gets the open-door catalog (no sign-in wall).
        let links = std::iter::once(&c["href"])
            .chain(arr(&c["items"]).iter().map(|i| &i["href"]))
            .chain(arr(&c["sales"]).iter().map(|i| &i["href"]));
        for href in links {
            assert!(href.as_str().unwrap().starts_with("/c/"), "{href}");
        }
    }
    let first = cats[0]["items"][0]["href"].as_str().unwrap().to_string();
    let res = t.get(&format!("{first}?site=1")).await;
    assert_eq!(res.status().as_u16(), 200, "{first} opens to a visitor");
    // The site from the header when the query has none; another site, other homes.
    let res = t
        .client
        .get(t.url("/api/content/v1/header"))
        .header("x-vp-siteid", "66")
        .header("x-vp-device", "web")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let other: Value = res.json().await.unwrap();
    assert_eq!(other["siteId"], 66);
    assert_ne!(other["categories"], h["categories"]);
    // Previews are off here: a bad date is ignored, not an error.
    let (status, _) = json(&t, "/api/content/v1/header?siteId=1&previewDate=nope", "").await;
    assert_eq!(status, 200);

    let (status, homes) = json(&t, "/api/content/v1/homes/headers?siteId=1", "").await;
    assert_eq!(status, 200);
    assert_eq!(travel_tab(&homes)["href"], "/voyages");
    // A visitor reaching the members' travel home anyway (a home banner, a bookmark) is sent
    // to its open-door page, the query kept, not to the sign-in page.
    for path in [
        "/home/travel?site=1&from=banner",
        "/gr/home/travel?site=1&from=banner",
    ] {
        let res = t.get_with_cookie(path, "").await;
        assert!(res.status().is_redirection(), "{path}");
        let to = res.headers()["location"].to_str().unwrap();
        assert_eq!(to, "/voyages?site=1&from=banner", "{path}");
    }
    // Other members-only pages still lead to the sign-in page.
    let res = t.get_with_cookie("/my-orders?site=1", "").await;
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .contains("/authentication?ReturnUrl="));
    assert!(arr(&homes).iter().all(|h| arr(&h["modules"]).len() <= 7));
    assert!(arr(&homes)
        .iter()
        .flat_map(|h| arr(&h["modules"]).iter())
        .all(|m| m["href"].as_str().unwrap().contains("?part=")));

    // The menu config: a visitor has no loggedIn item; a member has all, and the account.
    let (status, menu) = json(&t, "/api/content/v1/menu/10?site=1", "").await;
    assert_eq!(status, 200);
    assert!(arr(&menu["items"]).iter().all(|i| i["loggedIn"] == false));
    assert!(arr(&menu["account"]).is_empty());
    assert_eq!(json(&t, "/api/content/v1/menu/9", "").await.0, 404);
    let member = t.member_session(1).await;
    let (_, menu) = json(&t, "/api/content/v1/menu/10?site=1", &member).await;
    let ids: Vec<&str> = arr(&menu["items"])
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"account") && ids.contains(&"disconnect") && ids.contains(&"offers"));
    let (_, mh) = json(&t, "/api/content/v1/header?siteId=1", &member).await;
    assert!(mh["memberId"].is_i64());
    // A member's travel tab is the members' travel home, in both calls.
    assert_eq!(travel_tab(&mh["homeTabs"])["href"], "/home/travel");
    let (_, member_homes) = json(&t, "/api/content/v1/homes/headers?siteId=1", &member).await;
    assert_eq!(travel_tab(&member_homes)["href"], "/home/travel");
    let (status, _) = page(&t, "/home/travel?site=1", &member).await;
    assert_eq!(status, 200);
    // A member gets the members' catalog.
    assert!(arr(&mh["categories"])
        .iter()
        .all(|c| c["href"].as_str().unwrap().starts_with("/catalog/")));
    let account: Vec<&str> = arr(&menu["account"])
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    assert!(account.contains(&"payment-methods") && account.contains(&"subscriptions"));
    assert!(ids.contains(&"news") && ids.contains(&"mobile-apps"));

    // Every entry of the member's menus answers a real page (no placeholder, no 404).
    let mut hrefs: Vec<String> = Vec::new();
    for list in [&menu["items"], &menu["account"]] {
        for i in arr(list) {
            hrefs.push(i["href"].as_str().unwrap().to_string());
            for c in arr(&i["children"]) {
                hrefs.push(c["href"].as_str().unwrap().to_string());
            }
        }
    }
    for href in hrefs
        .iter()
        .filter(|h| !h.starts_with('#') && !h.contains("logout"))
    {
        let (target, fragment) = href.split_once('#').unwrap_or((href, ""));
        let url = format!(
            "{target}{}site=1",
            if target.contains('?') { '&' } else { '?' }
        );
        // An entry that redirects (gifts, to the site's landing) leads to a real page.
        let res = t.get_with_cookie(&url, &member).await;
        let url = match res.status().as_u16() {
            302 => res.headers()["location"].to_str().unwrap().to_string(),
            _ => url,
        };
        let (status, html) = page(&t, &url, &member).await;
        assert_eq!(status, 200, "{href}");
        assert!(
            !html.contains("class=\"placeholder\""),
            "{href} is a placeholder"
        );
        // The section an anchor names is on the page.
        if !fragment.is_empty() {
            assert!(html.contains(&format!("id=\"{fragment}\"")), "{href}");
        }
    }

    // The server-rendered header and /menu, complete without scripts.
    let (status, html) = page(&t, "/?site=1", "").await;
    assert_eq!(status, 200);
    assert!(
        html.contains("data-testid=\"home-tab\"")
            && html.contains("data-testid=\"header-category\"")
    );
    assert!(html.contains("href=\"/menu\"") && html.contains("/js/shell"));
    assert!(
        !html.contains("data-item=\"account\""),
        "loggedIn item for a visitor"
    );
    let (status, html) = page(&t, "/menu?site=1", "").await;
    assert_eq!(status, 200, "/menu is open to visitors");
    assert!(
        html.contains("data-testid=\"mobile-menu\"")
            && html.contains("data-testid=\"mobile-menu-categories\"")
    );
    assert!(!html.contains("data-testid=\"mobile-menu-account\""));
    let (_, html) = page(&t, "/menu?site=1", &member).await;
    assert!(
        html.contains("data-testid=\"mobile-menu-account\"")
            && html.contains("data-item=\"account\"")
    );
    let (_, html) = page(&t, "/?site=1", &member).await;
    assert!(
        html.contains("data-testid=\"account-menu\"")
            && html.contains("data-testid=\"bell-panel\"")
    );
    // The mobile apps entry's section: the store links of the site's brand.
    let (_, html) = page(&t, "/menu?site=1", "").await;
    assert!(html.contains("id=\"apps\"") && html.contains("data-testid=\"app-store-link\""));
    assert!(html.contains("https://apps.apple.com/app/rosace/"));
}

/// The (href, text) of each home-module link of a page's HTML.
fn module_labels(html: &str) -> Vec<(String, String)> {
    html.split("<a ")
        .skip(1)
        .filter(|a| a.contains("data-testid=\"home-module\""))
        .map(|a| {
            let href = a
                .split("href=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            let inner = a.split_once('>').unwrap().1.split("</a>").next().unwrap();
            // The text without any markup the renderer adds around it.
            let mut text = String::new();
            let mut in_tag = false;
            for c in inner.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            (href.replace("&amp;", "&"), text.trim().to_string())
        })
        .collect()
}

/// The travel home's tab among `tabs`.
fn travel_tab(tabs: &Value) -> &Value {
    arr(tabs)
        .iter()
        .find(|h| h["type"] == "TRAVEL")
        .expect("a travel tab")
}

/// The hrefs of the links a page's HTML names by `data-item`, in order.
fn items_in(html: &str) -> Vec<String> {
    html.split("data-item=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

fn config_ids(list: &Value) -> Vec<String> {
    arr(list)
        .iter()
        .flat_map(|i| {
            std::iter::once(i["id"].as_str().unwrap().to_string()).chain(
                arr(&i["children"])
                    .iter()
                    .map(|c| c["id"].as_str().unwrap().to_string()),
            )
        })
        .collect()
}

async fn menu_switches_per_site(t: TestApp) {
    // Site 69 runs no sponsorship programme: off in the config call and in the HTML.
    for site in [69u16, 1] {
        let active = site != 69;
        let member = t.member_session(site).await;
        for cookie in ["", member.as_str()] {
            let (status, menu) =
                json(&t, &format!("/api/content/v1/menu/10?site={site}"), cookie).await;
            assert_eq!(status, 200);
            assert_eq!(menu["switches"]["sponsorshipActive"], active, "site {site}");
            assert_eq!(menu["switches"]["aboutUsActive"], true);
            let mut ids = config_ids(&menu["items"]);
            ids.extend(config_ids(&menu["account"]));
            let signed_in = !cookie.is_empty();
            assert_eq!(
                ids.iter().any(|i| i == "sponsorship"),
                active && signed_in,
                "site {site} {ids:?}"
            );
            assert_eq!(
                ids.iter().any(|i| i == "member-get-member"),
                active && signed_in
            );
            assert!(ids.iter().any(|i| i == "aboutus"));
            for path in ["/", "/menu"] {
                let (status, html) = page(&t, &format!("{path}?site={site}"), cookie).await;
                assert_eq!(status, 200);
                let drawn = items_in(&html);
                assert_eq!(
                    drawn.iter().any(|i| i == "sponsorship"),
                    active && signed_in,
                    "{path} site {site}"
                );
                assert_eq!(
                    drawn.iter().any(|i| i == "member-get-member"),
                    active && signed_in
                );
                assert!(drawn.iter().any(|i| i == "aboutus"), "{path}");
                // The menu page links sponsorship through its menus only; the home's banners
                // and pedagogical buttons do too, except where the site has none.
                if path == "/menu" || !active {
                    assert_eq!(
                        html.contains("href=\"/gr/sponsorship\""),
                        active && signed_in,
                        "{path} site {site}"
                    );
                }
            }
            // Its page exists only where the programme runs (members only: a visitor is
            // sent to sign in either way).
            if signed_in {
                for path in ["/gr/sponsorship", "/gr/home/summer"] {
                    let (status, html) = page(&t, &format!("{path}?site={site}"), cookie).await;
                    let expected = if path == "/gr/sponsorship" && !active {
                        404
                    } else {
                        200
                    };
                    assert_eq!(status, expected, "{path} site {site}");
                    if path == "/gr/home/summer" {
                        assert_eq!(
                            html.contains("href=\"/gr/sponsorship\""),
                            active,
                            "site {site}"
                        );
                    }
                }
            }
        }
    }

    // The experiments' entries: the call and the drawn menu decide them alike, by the same
    // function, for members who accepted the performance cookies (C0002).
    let consent = "OptanonConsent=groups=C0001:1,C0002:1,C0003:0,C0004:0,C0005:0";
    let members: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM members WHERE site_id = 1 ORDER BY id LIMIT 2")
            .fetch_all(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(members.len(), 2);
    for member_id in members {
        let token = app::platform::session::create(
            &t.app.state.db,
            member_id,
            false,
            app::platform::state::now(),
        )
        .await
        .unwrap();
        let cookie = format!("{}={token}; {consent}", app::platform::session::COOKIE);
        let expected = app::experiments::rules::Settings::default().experiments_for(
            app::experiments::rules::Audience::Member,
            &format!("m:{member_id}"),
        );
        use app::model::experiments::Feature;
        let (_, menu) = json(&t, "/api/content/v1/menu/10?site=1", &cookie).await;
        assert_eq!(
            menu["switches"]["rosedealsEntry"],
            expected.on(Feature::RosedealsMenu)
        );
        assert_eq!(
            menu["switches"]["favouritesEntry"],
            expected.on(Feature::FavouritesPage)
        );
        let (_, html) = page(&t, "/?site=1", &cookie).await;
        let start = html.find("id=\"lateral-menu\"").expect("lateral menu");
        // The revamped burger (`member_burger_menu_revamp`) adds the account menu's
        // sections after the lateral menu's own items, which are what the call describes.
        let end = ["</nav>", "class=\"lateral-menu__account\""]
            .iter()
            .filter_map(|m| html[start..].find(m))
            .min()
            .unwrap()
            + start;
        let mut drawn = items_in(&html[start..end]);
        let mut called = config_ids(&menu["items"]);
        drawn.sort();
        called.sort();
        assert_eq!(drawn, called, "member {member_id}");
    }
}

both!(
    menu_switches_per_site,
    menu_switches_on_sqlite,
    menu_switches_on_postgres
);

fn tomorrow() -> String {
    let c = app::site::format::civil_from_unix(
        app::platform::state::now() + 86_400,
        app::site::format::DISPLAY_OFFSET_SECS,
    );
    format!("{:04}-{:02}-{:02}", c.year, c.month, c.day)
}

async fn homes_transparency_modules_and_preview(t: TestApp) {
    // The summer home's hero band is dark: the header is transparent over it; the default
    // home has none.
    let (status, homes) = json(&t, "/api/content/v1/homes/headers?siteId=1", "").await;
    assert_eq!(status, 200);
    let by_name = |n: &str| {
        arr(&homes)
            .iter()
            .find(|h| h["name"] == n)
            .unwrap_or_else(|| panic!("home {n}"))
            .clone()
    };
    assert_eq!(by_name("summer")["transparent"], true);
    assert_eq!(by_name("summer")["heroColor"], "#2b2d42");
    assert_eq!(by_name("default")["transparent"], false);
    assert_eq!(by_name("default")["heroColor"], "");
    let (_, html) = page(&t, "/gr/home/summer?site=1", "").await;
    assert!(html.contains("header--transparent") && html.contains("header__nav--hero"));
    assert!(html.contains("--hero: #2b2d42"));
    let (_, html) = page(&t, "/?site=1", "").await;
    assert!(!html.contains("header--transparent") && !html.contains("header__nav--hero"));
    // A setting too light for white text keeps the header solid.
    sqlx::query("UPDATE homes SET header_hero = '#fff4e0' WHERE site_id = 1 AND name = 'summer'")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (_, homes) = json(&t, "/api/content/v1/homes/headers?siteId=1", "").await;
    let summer = arr(&homes).iter().find(|h| h["name"] == "summer").unwrap();
    assert_eq!(summer["transparent"], false);
    let (_, html) = page(&t, "/gr/home/summer?site=1", "").await;
    assert!(!html.contains("header--transparent"));
    // Another home made dark becomes transparent: the setting is the home's.
    sqlx::query("UPDATE homes SET header_hero = '#101010' WHERE site_id = 1 AND name = 'default'")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (_, html) = page(&t, "/?site=1", "").await;
    assert!(html.contains("header--transparent") && html.contains("--hero: #101010"));

    // Each home tab's modules (at most 7) under the tabs and on /menu, as ?part= links.
    for path in ["/?site=1", "/menu?site=1"] {
        let (_, html) = page(&t, path, "").await;
        let modules: Vec<&str> = html.split("data-testid=\"home-module\"").skip(1).collect();
        assert!(!modules.is_empty(), "{path}");
        for home in arr(&homes) {
            for m in arr(&home["modules"]) {
                let href = m["href"].as_str().unwrap().replace('&', "&amp;");
                assert!(html.contains(&format!("href=\"{href}\"")), "{path}: {href}");
            }
        }
    }
    let (_, html) = page(&t, "/?site=1", "").await;
    assert!(
        html.contains("data-testid=\"home-modules-toggle\"")
            && html.contains("aria-expanded=\"false\"")
    );
    // No module is labelled by its internal name: the untitled live-sales grid is named as
    // the home page heads it, in the site's language; the untitled text block (`about`)
    // has no heading, so no entry.
    for (site, sales) in [
        (1, "Ventes en cours"),
        (2, "Aktuelle Aktionen"),
        (3, "Ventas en curso"),
        (4, "Vendite in corso"),
        (76, "Lopende acties"),
    ] {
        let (_, homes) = json(
            &t,
            &format!("/api/content/v1/homes/headers?siteId={site}"),
            "",
        )
        .await;
        let default = arr(&homes).iter().find(|h| h["name"] == "default").unwrap();
        let modules = arr(&default["modules"]);
        let sales_link = modules
            .iter()
            .find(|m| m["href"] == "/gr/home/default?part=sales")
            .unwrap_or_else(|| panic!("site {site}: the live sales in the header"));
        assert_eq!(sales_link["label"], sales, "site {site}");
        assert!(
            !modules
                .iter()
                .any(|m| m["href"] == "/gr/home/default?part=about"),
            "site {site}"
        );
        for m in arr(&homes).iter().flat_map(|h| arr(&h["modules"]).iter()) {
            let label = m["label"].as_str().unwrap();
            let part = m["href"].as_str().unwrap().rsplit_once("?part=").unwrap().1;
            assert!(
                !label.trim().is_empty() && label != part,
                "site {site}: {m}"
            );
        }
        for path in ["/", "/menu"] {
            let (_, html) = page(&t, &format!("{path}?site={site}"), "").await;
            let labels = module_labels(&html);
            assert!(
                labels
                    .iter()
                    .any(|(h, l)| h == "/gr/home/default?part=sales" && l == sales),
                "{path} site {site}: {labels:?}"
            );
            assert!(
                !labels.iter().any(|(_, l)| l == "sales" || l == "about"),
                "{path} site {site}: {labels:?}"
            );
            assert!(!labels.iter().any(|(h, _)| h.ends_with("?part=about")));
        }
    }
    // More than 7 modules on a home: 7 in the header.
    for i in 0..9 {
        sqlx::query(
            "INSERT INTO home_modules (id, home_id, kind, name, title, position, settings)
             VALUES ($1, 1000, 'text', $2, $2, $3, '{}')",
        )
        .bind(990_000 + i)
        .bind(format!("extra-{i}"))
        .bind(100 + i)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    }
    let (_, homes) = json(&t, "/api/content/v1/homes/headers?siteId=1", "").await;
    let default = arr(&homes).iter().find(|h| h["name"] == "default").unwrap();
    assert_eq!(arr(&default["modules"]).len(), 7);

    // The header honours the page's previewDate as the home does: a sale opening tomorrow
    // is in the header of tomorrow's preview, not in today's.
    let tomorrow = tomorrow();
    let start = app::home::rules::parse_preview_date(&tomorrow).unwrap() + 12 * 3600;
    sqlx::query(
        "INSERT INTO sales (id, site_id, name, slug, offer_type, description, starts_at, ends_at, position)
         VALUES (1998, 1, 'Demain · Aurores boréales', 'aurores', 'FlashSale', 'Bientôt', $1, $2, -5)",
    )
    .bind(start)
    .bind(start + 3 * 86_400)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let (_, html) = page(&t, "/?site=1", "").await;
    assert!(!html.contains("Aurores boréales"));
    let (_, html) = page(&t, &format!("/?site=1&previewDate={tomorrow}"), "").await;
    assert!(html.contains("Aurores boréales"), "previewed header");
    let (_, html) = page(&t, &format!("/menu?site=1&previewDate={tomorrow}"), "").await;
    assert!(html.contains("Aurores boréales"), "previewed /menu");
    let (_, h) = json(
        &t,
        &format!("/api/content/v1/header?siteId=1&previewDate={tomorrow}&userparam=u1"),
        "",
    )
    .await;
    assert!(arr(&h["categories"])
        .iter()
        .any(|c| c["label"] == "Aurores boréales"));
}

both!(
    homes_transparency_modules_and_preview,
    header_homes_on_sqlite,
    header_homes_on_postgres,
    |c: &mut server::config::Config| c.settings.home.preview_dates = true
);

both!(
    header_calls_menus_and_pages,
    header_on_sqlite,
    header_on_postgres
);
