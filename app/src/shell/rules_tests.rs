use super::*;

#[derive(Deserialize)]
struct Case {
    why: String,
    saved: CacheKey,
    now: CacheKey,
    stale: bool,
}

#[derive(Deserialize)]
struct Vectors {
    cases: Vec<Case>,
}

#[test]
fn cache_rule_matches_the_shared_vectors() {
    let v: Vectors =
        serde_json::from_str(include_str!("../../tests/vectors/header_cache.json")).unwrap();
    assert!(v.cases.len() >= 15);
    for c in &v.cases {
        assert_eq!(is_stale(&c.saved, &c.now), c.stale, "{}", c.why);
    }
}

fn key(date: i64) -> CacheKey {
    CacheKey {
        site_id: 1,
        member_id: None,
        path: "/".into(),
        date,
    }
}

#[test]
fn every_sale_hour_is_an_edge_and_nothing_else_is() {
    let day = 20_416 * DAY_MS;
    for hour in 0..24 {
        let edge = day + hour * HOUR_MS;
        let crossed = is_stale(&key(edge - 60_000), &key(edge + 60_000));
        assert_eq!(crossed, SALE_HOURS.contains(&hour), "hour {hour}");
        // Just before the edge nothing changed yet.
        assert!(!is_stale(&key(edge - 120_000), &key(edge - 1)));
    }
}

fn sale(id: i64, name: &str) -> LiveSale {
    LiveSale {
        id,
        name: name.into(),
        first_universe_id: id * 10,
    }
}

#[test]
fn categories_group_live_sales_by_their_category_name() {
    let sales = vec![
        sale(1, "Noa · Mode femme"),
        sale(2, "Vento · Sport"),
        sale(3, "Lumen · Mode femme"),
    ];
    let universes = vec![
        SaleUniverse {
            sale_id: 1,
            id: 10,
            title: "Robes".into(),
        },
        SaleUniverse {
            sale_id: 3,
            id: 30,
            title: "Robes".into(),
        },
        SaleUniverse {
            sale_id: 3,
            id: 31,
            title: "Hauts".into(),
        },
    ];
    let cats = header_categories(&sales, &universes);
    assert_eq!(cats.len(), 2);
    assert_eq!(cats[0].label, "Mode femme");
    assert_eq!(cats[0].href, "/catalog/1/10");
    assert_eq!(
        cats[0].sales.iter().map(|s| s.id).collect::<Vec<_>>(),
        [1, 3]
    );
    // Titles are distinct: the second "Robes" is not repeated.
    let items: Vec<_> = cats[0].items.iter().map(|i| i.href.as_str()).collect();
    assert_eq!(items, ["/catalog/1/10", "/catalog/3/31"]);
    assert_eq!(cats[1].label, "Sport");
    assert_eq!(category_of("Sans catégorie"), "Sans catégorie");
}

#[test]
fn categories_are_cut_to_the_header_limits() {
    let mut sales = Vec::new();
    let mut universes = Vec::new();
    for c in 0..12 {
        for s in 0..6 {
            let id = c * 100 + s;
            sales.push(sale(id, &format!("Marque {s} · Cat {c}")));
            for u in 0..3 {
                universes.push(SaleUniverse {
                    sale_id: id,
                    id: id * 10 + u,
                    title: format!("U{s}-{u}"),
                });
            }
        }
    }
    let cats = header_categories(&sales, &universes);
    assert_eq!(cats.len(), MAX_CATEGORIES);
    for c in &cats {
        assert_eq!(c.items.len(), MAX_CATEGORY_ITEMS);
        assert_eq!(c.sales.len(), MAX_SALES_ITEMS);
    }
    assert_eq!(
        (
            MAX_CATEGORIES,
            MAX_CATEGORY_ITEMS,
            MAX_SALES_ITEMS,
            MAX_HOME_MODULES
        ),
        (8, 5, 4, 7)
    );
}

fn ids(items: &[MenuItem]) -> Vec<&str> {
    items.iter().map(|i| i.id.as_str()).collect()
}

#[test]
fn visitors_see_no_logged_in_item_members_see_all() {
    let all = lateral_menu_items(MenuSwitches::default());
    let visitor = visible(all.clone(), false);
    assert_eq!(ids(&visitor), ["home", "information"]);
    assert!(visitor.iter().all(|i| !i.logged_in));
    let member = visible(all.clone(), true);
    assert_eq!(member, all);
    assert_eq!(
        ids(&member),
        [
            "home",
            "account",
            "orders",
            "alerts",
            "offers",
            "help",
            "sponsorship",
            "information",
            "disconnect"
        ]
    );
    // The legal side panel is the same for both.
    let legal = &visitor
        .iter()
        .find(|i| i.id == "information")
        .unwrap()
        .children;
    assert_eq!(
        ids(legal),
        ["aboutus", "privacy-policy", "general-conditions"]
    );
    let offers = member.iter().find(|i| i.id == "offers").unwrap();
    assert!(offers.clears_session);
    assert_eq!(member.iter().filter(|i| i.clears_session).count(), 1);
}

#[test]
fn sponsorship_and_about_us_only_when_active() {
    let off = MenuSwitches {
        sponsorship_active: false,
        about_us_active: false,
        ..MenuSwitches::default()
    };
    let items = lateral_menu_items(off);
    assert!(!ids(&items).contains(&"sponsorship"));
    let legal = &items
        .iter()
        .find(|i| i.id == "information")
        .unwrap()
        .children;
    assert!(!ids(legal).contains(&"aboutus"));
}

#[test]
fn account_sections_follow_the_spec_targets() {
    let sections = account_sections();
    let by_id = |id: &str| sections.iter().find(|s| s.id == id).unwrap().href.clone();
    assert_eq!(by_id("message-center"), "/gr/my-notifications/");
    assert_eq!(
        by_id("notifications-alerts"),
        "/memberaccount/communications"
    );
    assert_eq!(
        sections
            .iter()
            .find(|s| s.id == "general-conditions")
            .unwrap()
            .kind,
        LinkKind::Blank
    );
    assert_eq!(by_id("premium"), "/checkout/loyalty");
    assert!(!ids(&sections).contains(&"club"));
    // A visitor would only keep the public ones.
    assert_eq!(
        ids(&visible(sections.clone(), false)),
        ["brands", "general-conditions", "menu"]
    );
}

#[test]
fn every_entry_leads_to_a_page() {
    let mut all = lateral_menu_items(MenuSwitches::default());
    all.extend(account_sections());
    let legal: Vec<MenuItem> = all.iter().flat_map(|i| i.children.clone()).collect();
    all.extend(legal);
    for i in all.iter().filter(|i| !i.href.starts_with('#')) {
        // Every entry resolves in the route table; server/tests/api/header.rs requests each
        // and refuses the placeholder page.
        assert!(
            crate::routes::resolve(&i.href).is_some(),
            "{} -> {}",
            i.id,
            i.href
        );
        assert!(i.label_key.contains('.'), "{}", i.id);
    }
}
