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
        seo_slug: format!("vente-{id}"),
        logo_url: format!("/img/s/{id}?w=179"),
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
    let cats = header_categories(&sales, &universes, Audience::Member);
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
    // A visitor gets the open-door catalog of the same sales and universes (no sign-in
    // wall); a sale without a slug keeps the members' link.
    let open = header_categories(&sales, &universes, Audience::Visitor);
    assert_eq!(open[0].href, "/c/vente-1/1/10");
    assert_eq!(open[0].sales[1].href, "/c/vente-3/3/30");
    let items: Vec<_> = open[0].items.iter().map(|i| i.href.as_str()).collect();
    assert_eq!(items, ["/c/vente-1/1/10", "/c/vente-3/3/31"]);
    assert!(open
        .iter()
        .flat_map(|c| c.items.iter().map(|i| i.href.as_str()))
        .all(|h| crate::routes::resolve(h).unwrap().access() == crate::routes::Access::OpenDoor));
    let bare = LiveSale {
        seo_slug: " ".into(),
        ..sale(9, "X · Y")
    };
    assert_eq!(catalog_href(Audience::Visitor, &bare, 90), "/catalog/9/90");
}

fn module(name: &str, title: &str) -> HomeModule {
    HomeModule {
        name: name.into(),
        title: title.into(),
        live_sales: false,
    }
}

fn fr(key: &str) -> String {
    crate::site::i18n::t("fr", key)
}

#[test]
fn home_modules_are_cut_to_seven_part_links() {
    let modules: Vec<HomeModule> = (0..10).map(|i| module(&format!("m{i}"), "Titre")).collect();
    let links = home_module_links("/gr/home/summer", &modules, fr);
    assert_eq!(links.len(), MAX_HOME_MODULES);
    assert_eq!(links[0].href, "/gr/home/summer?part=m0");
    assert_eq!(links[0].label, "Titre");
    assert_eq!(links[6].href, "/gr/home/summer?part=m6");
    assert_eq!(home_module_links("/gr/home/x", &modules[..3], fr).len(), 3);
    assert!(home_module_links("/gr/home/x", &[], fr).is_empty());
}

/// The demo default home: `highlights`, `pedagogy`, `universes` titled, then the untitled
/// live-sales grid `sales`, the titled `deals` and the untitled text block `about`.
fn default_home() -> Vec<HomeModule> {
    vec![
        module("highlights", "Nos coups de cœur"),
        module("pedagogy", "Comment ça marche"),
        module("universes", "Univers"),
        HomeModule {
            live_sales: true,
            ..module("sales", "")
        },
        module("deals", "Bons plans"),
        module("about", " "),
    ]
}

#[test]
fn untitled_modules_never_show_their_internal_name() {
    for lang in crate::site::i18n::LANGS {
        let t = |key: &str| crate::site::i18n::t(lang, key);
        let links = home_module_links("/gr/home/default", &default_home(), t);
        let labels: Vec<&str> = links.iter().map(|l| l.label.as_str()).collect();
        // The live-sales grid is named as the home page heads it, in the site's language;
        // the text block has no heading on the page, so no entry in the header.
        let sales = t(LIVE_SALES_LABEL_KEY);
        assert_ne!(sales, LIVE_SALES_LABEL_KEY, "{lang}: a translated label");
        assert_eq!(
            labels,
            [
                "Nos coups de cœur",
                "Comment ça marche",
                "Univers",
                sales.as_str(),
                "Bons plans"
            ],
            "{lang}"
        );
        assert!(
            !labels.iter().any(|l| *l == "sales" || *l == "about"),
            "{lang}"
        );
        assert_eq!(links[3].href, "/gr/home/default?part=sales");
        assert!(links.iter().all(|l| !l.href.ends_with("part=about")));
    }
    let de = |key: &str| crate::site::i18n::t("de", key);
    assert_eq!(
        home_module_links("/", &default_home(), de)[3].label,
        "Aktuelle Aktionen"
    );
    assert_eq!(
        home_module_links("/", &default_home(), fr)[3].label,
        "Ventes en cours"
    );
    assert_eq!(untitled_module_label_key(&module("about", "")), None);
}

#[test]
fn modules_left_out_do_not_count_against_the_seven() {
    // Untitled modules without a label are skipped before the cut to 7.
    let mut modules: Vec<HomeModule> = (0..4).map(|i| module(&format!("text{i}"), "")).collect();
    modules.extend((0..8).map(|i| module(&format!("m{i}"), "Titre")));
    let links = home_module_links("/gr/home/x", &modules, fr);
    assert_eq!(links.len(), MAX_HOME_MODULES);
    assert_eq!(links[0].href, "/gr/home/x?part=m0");
    assert_eq!(links[6].href, "/gr/home/x?part=m6");
}

#[test]
fn home_tabs_lead_each_audience_to_a_page_it_may_open() {
    use crate::routes::{resolve, Access};
    use Audience::{Member, Visitor};
    assert_eq!(
        home_tab_href(Visitor, "default", "DEFAULT").as_deref(),
        Some("/")
    );
    assert_eq!(
        home_tab_href(Member, "default", "DEFAULT").as_deref(),
        Some("/")
    );
    // The travel home: members' `/home/travel`, the open-door `/voyages` for a visitor.
    assert_eq!(
        home_tab_href(Member, "travel", "TRAVEL").as_deref(),
        Some("/home/travel")
    );
    assert_eq!(
        home_tab_href(Visitor, "travel", "TRAVEL").as_deref(),
        Some("/voyages")
    );
    assert_eq!(
        home_tab_href(Visitor, "summer", "DEFAULT").as_deref(),
        Some("/gr/home/summer")
    );
    // A members-only home (the rose deals'): a member's tab, none for a visitor.
    assert_eq!(
        home_tab_href(Member, "rosedeals", "DEAL").as_deref(),
        Some("/gr/home/rosedeals")
    );
    assert_eq!(home_tab_href(Visitor, "rosedeals", "DEAL"), None);
    // Whatever a visitor's tab is, it opens without signing in.
    for (name, kind) in [
        ("default", "DEFAULT"),
        ("travel", "TRAVEL"),
        ("voyage", "TRAVEL"),
        ("summer", "DEFAULT"),
        ("rosedeals", "DEAL"),
    ] {
        if let Some(href) = home_tab_href(Visitor, name, kind) {
            assert_ne!(
                resolve(&href).unwrap().access(),
                Access::MembersOnly,
                "{name}: {href}"
            );
        }
    }
}

#[test]
fn the_header_is_transparent_only_over_a_dark_enough_hero() {
    // Dark bands: white text keeps at least 4.5:1.
    assert_eq!(transparent_hero("#2B2D42").as_deref(), Some("#2b2d42"));
    assert_eq!(transparent_hero(" #000 ").as_deref(), Some("#000000"));
    assert_eq!(transparent_hero("#767676").as_deref(), Some("#767676")); // 4.54:1
                                                                         // Too light, or not a colour: the header stays solid.
    assert_eq!(transparent_hero("#777777"), None); // 4.48:1
    assert_eq!(transparent_hero("#FFF4E0"), None);
    assert_eq!(transparent_hero("#0BA100"), None);
    for bad in ["", "2b2d42", "#2b2d4", "#gggggg", "red", "#2b2d42ff"] {
        assert_eq!(transparent_hero(bad), None, "{bad}");
    }
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
    let cats = header_categories(&sales, &universes, Audience::Member);
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
    assert_eq!(
        ids(&visitor),
        ["home", "gifts", "news", "mobile-apps", "information"]
    );
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
            "gifts",
            "news",
            "mobile-apps",
            "sponsorship",
            "information",
            "disconnect"
        ]
    );
    let by_id = |id: &str| all.iter().find(|i| i.id == id).unwrap().href.clone();
    assert_eq!(by_id("news"), "/gr/home/default?part=highlights");
    assert_eq!(by_id("mobile-apps"), "/menu#apps");
    // Gifts: the site's gift ideas landing, by its stable address, for visitors too.
    assert_eq!(by_id("gifts"), "/gr/gifts");
    let gifts = all.iter().find(|i| i.id == "gifts").unwrap();
    assert_eq!((gifts.kind, gifts.logged_in), (LinkKind::Default, false));
    assert_eq!(gifts.label_key, "shell.menu.gifts");
    // No community in the product: those spec items stay out.
    for absent in ["club", "forum"] {
        assert!(!ids(&all).contains(&absent), "{absent}");
    }
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
    assert!(!ids(&account_sections(off)).contains(&"member-get-member"));
    assert!(ids(&account_sections(MenuSwitches::default())).contains(&"member-get-member"));
    let legal = &items
        .iter()
        .find(|i| i.id == "information")
        .unwrap()
        .children;
    assert!(!ids(legal).contains(&"aboutus"));
}

#[test]
fn account_sections_follow_the_spec_targets() {
    let sections = account_sections(MenuSwitches::default());
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
    // Payment methods are the wallet's saved cards, subscriptions the newsletters of the
    // communications page: real sections of real pages.
    assert_eq!(
        by_id("payment-methods"),
        "/postsales/myaccount/wallet/#cards-title"
    );
    assert_eq!(
        by_id("subscriptions"),
        "/memberaccount/communications#newsletters-title"
    );
    for id in ["payment-methods", "subscriptions"] {
        let s = sections.iter().find(|s| s.id == id).unwrap();
        assert_eq!((s.kind, s.logged_in), (LinkKind::Default, true), "{id}");
    }
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
    all.extend(account_sections(MenuSwitches::default()));
    let legal: Vec<MenuItem> = all.iter().flat_map(|i| i.children.clone()).collect();
    all.extend(legal);
    for i in all.iter().filter(|i| !i.href.starts_with('#')) {
        // Every entry resolves in the route table (query and fragment aside);
        // server/tests/api/header.rs requests each and refuses the placeholder page.
        let path = target_path(&i.href);
        assert!(
            crate::routes::resolve(path).is_some(),
            "{} -> {}",
            i.id,
            i.href
        );
        assert!(i.label_key.contains('.'), "{}", i.id);
        // Every label exists in the five languages.
        for lang in ["fr", "de", "es", "it", "nl"] {
            assert_ne!(
                crate::site::i18n::t(lang, &i.label_key),
                i.label_key,
                "{lang}: {}",
                i.label_key
            );
        }
    }
    assert_eq!(target_path("/a/b?c=1#d"), "/a/b");
    assert_eq!(target_path("/a#d"), "/a");
}

#[test]
fn one_switch_function_per_site_and_experiments() {
    use crate::model::experiments::{Experiments, Feature};
    let outside = Experiments::outside();
    let on = menu_switches(1, &outside);
    assert!(on.sponsorship_active && on.about_us_active);
    assert!(!on.rosedeals_entry && !on.favourites_entry);
    // Site 69 runs no sponsorship programme: no entry in either menu.
    let off = menu_switches(69, &outside);
    assert!(!off.sponsorship_active && off.about_us_active);
    assert!(!ids(&lateral_menu_items(off)).contains(&"sponsorship"));
    assert!(!ids(&account_sections(off)).contains(&"member-get-member"));
    // The experiments' entries follow the request's variations.
    let switched = Experiments {
        assigned: Vec::new(),
        switched: vec![Feature::RosedealsMenu, Feature::FavouritesPage],
    };
    let s = menu_switches(69, &switched);
    assert!(s.rosedeals_entry && s.favourites_entry && !s.sponsorship_active);
    let items = ids(&lateral_menu_items(s))
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    assert!(items.contains(&"rosedeals".to_string()) && items.contains(&"favourites".to_string()));
    for site in crate::site::SITES.iter().map(|s| s.site_id) {
        assert_eq!(
            menu_switches(site, &outside).sponsorship_active,
            site != 69,
            "site {site}"
        );
    }
}

#[test]
fn every_brand_has_its_app_store_links() {
    for brand in [crate::site::Brand::Rosace, crate::site::Brand::Violeta] {
        let links = app_store_links(brand);
        assert_eq!(links[0].0, "App Store");
        assert!(links[0].1.starts_with("https://apps.apple.com/"));
        assert!(links[1]
            .1
            .starts_with("https://play.google.com/store/apps/details?id="));
    }
    assert_ne!(
        app_store_links(crate::site::Brand::Rosace),
        app_store_links(crate::site::Brand::Violeta)
    );
}

#[test]
fn the_revamped_account_menu_groups_every_section_once() {
    let switches = menu_switches(1, &crate::model::experiments::Experiments::outside());
    let sections = account_sections(switches);
    let ids: Vec<String> = sections.iter().map(|s| s.id.clone()).collect();
    let groups = account_groups(sections);
    let keys: Vec<&str> = groups.iter().map(|g| g.0).collect();
    assert_eq!(
        keys,
        [
            "shell.account.group.purchases",
            "shell.account.group.account",
            "shell.account.group.more"
        ]
    );
    let mut grouped: Vec<String> = groups
        .iter()
        .flat_map(|g| g.1.iter().map(|s| s.id.clone()))
        .collect();
    assert_eq!(groups[0].1[0].id, "my-orders");
    assert_eq!(groups[1].1[0].id, "my-account");
    assert!(groups[2].1.iter().any(|s| s.id == "help"));
    grouped.sort();
    let mut all = ids;
    all.sort();
    assert_eq!(grouped, all, "every section, once");
    // A section no group names still shows, last.
    let mut extra = account_sections(switches);
    extra.push(item("new-one", "k", "/x", true, LinkKind::Default));
    let groups = account_groups(extra);
    assert_eq!(groups[2].1.last().unwrap().id, "new-one");
    assert!(account_groups(Vec::new()).is_empty());
}
