use super::*;

/// Two anonymous ids whose variation of `anonymous_dynamic_pricing` is pinned here: the
/// browser test (end2end/tests/experiments.spec.ts) forces them through the cookie.
pub const ANON_ON: &str = "00000000000000000000000000000001";
pub const ANON_OFF: &str = "00000000000000000000000000000004";
/// Pinned `anonymous_sponsored_banners` ids (a 10/90 holdback): `ANON_ON` is in the
/// variation with the banners (`var2_programmatic`), `ANON_NO_ADS` in its control.
pub const ANON_NO_ADS: &str = "00000000000000000000000000000018";

fn def(name: &str) -> &'static Definition {
    definition(name).unwrap()
}

#[test]
fn the_hash_is_pinned() {
    // Changing the hash would move every visitor to another variation mid-experiment.
    assert_eq!(hash(""), 17_665_956_581_633_026_203);
    assert_eq!(hash("a"), 198_367_012_849_983_736);
}

#[test]
fn bucketing_is_stable_and_pinned() {
    let s = Settings::default();
    let d = def("anonymous_dynamic_pricing");
    let key_on = Subject::Anonymous(ANON_ON.into()).key();
    let key_off = Subject::Anonymous(ANON_OFF.into()).key();
    assert_eq!(s.variation(d, &key_on), "on");
    assert_eq!(s.variation(d, &key_off), "off");
    // The same visitor gets the same variation on every call, and with its weights kept.
    for i in 0..1000 {
        let key = format!("a:{i:032x}");
        let first = s.variation(d, &key);
        assert_eq!(s.variation(d, &key), first);
        assert_eq!(assign(d, &[50, 50], &key), first);
    }
    assert_eq!(s.variation(def("member_rosedeals_menu"), "m:1"), "control");
    assert_eq!(s.variation(def("member_rosedeals_menu"), "m:2"), "control");
    assert_eq!(
        s.variation(def("member_rosedeals_menu"), "m:3"),
        "var1_enabled"
    );
}

/// Pearson's chi-square of observed counts against expected shares of `n`.
fn chi_square(observed: &[u64], weights: &[u32], n: u64) -> f64 {
    let total: f64 = weights.iter().map(|w| f64::from(*w)).sum();
    observed
        .iter()
        .zip(weights)
        .map(|(o, w)| {
            let e = n as f64 * f64::from(*w) / total;
            (*o as f64 - e).powi(2) / e
        })
        .sum()
}

fn counts(d: &Definition, weights: &[u32], n: u64, key: impl Fn(u64) -> String) -> Vec<u64> {
    let mut out = vec![0u64; d.variations.len()];
    for i in 0..n {
        let v = assign(d, weights, &key(i));
        let at = d
            .variations
            .iter()
            .position(|(name, _)| *name == v)
            .unwrap();
        out[at] += 1;
    }
    out
}

#[test]
fn the_split_follows_the_weights_chi_square_over_100_000_ids() {
    const N: u64 = 100_000;
    // Critical values at p = 0.001: 1 degree of freedom 10.83, 2 degrees 13.82.
    let d = def("anonymous_dynamic_pricing");
    let random_ids = counts(d, &[50, 50], N, |i| {
        format!(
            "a:{:032x}",
            u128::from(hash(&i.to_string())) << 64 | u128::from(i)
        )
    });
    let chi = chi_square(&random_ids, &[50, 50], N);
    assert!(
        chi < 10.83,
        "50/50 on random-looking ids: {random_ids:?}, chi² {chi}"
    );
    // Sequential member ids (the worst case for a weak hash) and uneven weights.
    let members = def("member_rosedeals_menu");
    let seq = counts(members, &[10, 90], N, |i| format!("m:{}", i + 1));
    let chi = chi_square(&seq, &[10, 90], N);
    assert!(chi < 10.83, "10/90 on sequential ids: {seq:?}, chi² {chi}");
    // Three variations (var1_enabled, on, var2_programmatic style), 20/30/50.
    const THREE: Definition = Definition {
        name: "test_three_way",
        audience: Audience::Anonymous,
        feature: Feature::DynamicPricing,
        variations: &[
            ("control", 20),
            ("var1_enabled", 30),
            ("var2_programmatic", 50),
        ],
    };
    let three = counts(&THREE, &[20, 30, 50], N, |i| format!("a:{i:032x}"));
    let chi = chi_square(&three, &[20, 30, 50], N);
    assert!(chi < 13.82, "20/30/50: {three:?}, chi² {chi}");
    // A visitor's buckets in two experiments are independent: the 2×2 table of
    // (dynamic pricing on, rose-deal menu on) over members follows 25% each.
    let mut table = [0u64; 4];
    let s = Settings::default();
    for i in 1..=N {
        let key = format!("m:{i}");
        let a = s.variation(def("member_dynamic_pricing"), &key) == "on";
        let b = s.variation(members, &key) == "var1_enabled";
        table[usize::from(a) * 2 + usize::from(b)] += 1;
    }
    let chi = chi_square(&table, &[1, 1, 1, 1], N);
    assert!(chi < 16.27, "independence: {table:?}, chi² {chi}"); // 3 df, p = 0.001
}

#[test]
fn zero_weights_and_disabled_settings_give_the_control() {
    let d = def("anonymous_dynamic_pricing");
    assert_eq!(assign(d, &[0, 0], "a:x"), "off");
    assert_eq!(assign(d, &[0, 1], "a:x"), "on");
    assert_eq!(assign(d, &[1], "a:x"), "off", "wrong length: control");
    let s = Settings {
        disabled: true,
        ..Default::default()
    };
    // Experiments off: nobody is in one; every feature at its default.
    for (audience, key) in [
        (Audience::Anonymous, format!("a:{ANON_NO_ADS}")),
        (Audience::Member, "m:3".to_string()),
    ] {
        let e = s.experiments_for(audience, &key);
        assert_eq!(e, Experiments::outside(), "{audience:?}");
    }
    // The variations call answers what such a visitor sees: the control of a new
    // feature, the variation with the feature of a holdback.
    assert_eq!(s.variation(d, &format!("a:{ANON_ON}")), "off");
    let ads = def("anonymous_sponsored_banners");
    assert_eq!(
        s.variation(ads, &format!("a:{ANON_NO_ADS}")),
        "var2_programmatic"
    );
    assert_eq!(
        s.variation(def("member_last_viewed"), "m:1"),
        "var1_enabled"
    );
}

#[test]
fn outside_any_experiment_launched_features_are_on_and_new_ones_off() {
    let outside = Experiments::outside();
    assert_eq!(outside, Experiments::default());
    for f in Feature::ALL {
        assert_eq!(outside.on(f), f.launched(), "{f:?}");
    }
    assert!(outside.on(Feature::LastViewed));
    assert!(outside.on(Feature::ContactFormAttachments));
    assert!(outside.on(Feature::SponsoredBanners));
    assert!(!outside.on(Feature::DynamicPricing));
    assert!(!outside.on(Feature::RosedealsMenu));
    assert!(!outside.on(Feature::FavouritesPage));
    assert!(!outside.on(Feature::VouchersRevamp));
    for revamp in [
        Feature::CommunicationsRevamp,
        Feature::MenuRevamp,
        Feature::BurgerMenuRevamp,
        Feature::BrandsPlaceDetails,
    ] {
        assert!(!outside.on(revamp), "{revamp:?}");
    }
    for launched in [
        Feature::AddressService,
        Feature::ContactForm,
        Feature::ProgrammaticNavigation,
    ] {
        assert!(outside.on(launched), "{launched:?}");
    }
    // The context a page carries when the server said nothing about experiments.
    let ctx: Experiments = serde_json::from_str("{}").unwrap();
    assert!(ctx.on(Feature::SponsoredBanners) && !ctx.on(Feature::DynamicPricing));
}

#[test]
fn every_feature_has_experiments_and_holdbacks_keep_a_small_control() {
    for f in Feature::ALL {
        assert!(EXPERIMENTS.iter().any(|d| d.feature == f), "{f:?}");
    }
    for d in EXPERIMENTS.iter() {
        // Names say their audience (spec 000 §6: anonymous and member names differ).
        let prefix = match d.audience {
            Audience::Anonymous => "anonymous_",
            Audience::Member => "member_",
        };
        assert!(d.name.starts_with(prefix), "{}", d.name);
        assert_eq!(EXPERIMENTS.iter().filter(|o| o.name == d.name).count(), 1);
        assert!(
            !d.shows_feature(d.control()),
            "{}: the control goes without",
            d.name
        );
        assert!(d.variations[1..].iter().all(|(v, _)| d.shows_feature(v)));
        assert!(
            d.variations.iter().all(|(v, _)| [
                "control",
                "off",
                "on",
                "var1_enabled",
                "var2_programmatic"
            ]
            .contains(v)),
            "{}: spec 000 §6 values",
            d.name
        );
        if d.is_holdback() {
            let control = d.variations[0].1;
            let rest: u32 = d.variations[1..].iter().map(|(_, w)| w).sum();
            assert!(
                control > 0 && control * 5 <= rest,
                "{}: small control",
                d.name
            );
            assert_eq!(d.outside_variation(), d.variations[1].0);
        } else {
            assert_eq!(d.outside_variation(), d.control());
        }
    }
    let holdbacks: Vec<&str> = EXPERIMENTS
        .iter()
        .filter(|d| d.is_holdback())
        .map(|d| d.name)
        .collect();
    assert_eq!(
        holdbacks,
        vec![
            "member_last_viewed",
            "member_contact_form_attachments",
            "anonymous_sponsored_banners",
            "member_sponsored_banners",
            "member_address_service",
            "member_contact_form",
            "member_programmatic_navigation"
        ]
    );
    assert_eq!(
        def("anonymous_sponsored_banners").variations,
        &[("control", 10), ("var2_programmatic", 90)]
    );
}

#[test]
fn a_holdback_control_goes_without_its_feature() {
    let s = Settings::default();
    let ads = def("anonymous_sponsored_banners");
    assert_eq!(s.variation(ads, &format!("a:{ANON_NO_ADS}")), "control");
    assert_eq!(
        s.variation(ads, &format!("a:{ANON_ON}")),
        "var2_programmatic"
    );
    assert_eq!(
        s.variation(ads, &format!("a:{ANON_OFF}")),
        "var2_programmatic"
    );
    let held = s.experiments_for(Audience::Anonymous, &format!("a:{ANON_NO_ADS}"));
    // (That id is also in dynamic pricing's "on": both features turn from their default.)
    assert_eq!(
        held.switched,
        vec![Feature::DynamicPricing, Feature::SponsoredBanners]
    );
    assert!(!held.on(Feature::SponsoredBanners));
    let with = s.experiments_for(Audience::Anonymous, &format!("a:{ANON_ON}"));
    assert!(with.on(Feature::SponsoredBanners) && with.on(Feature::DynamicPricing));
    assert_eq!(with.switched, vec![Feature::DynamicPricing]);
    // Members: the holdbacks decide their features; a feature with no experiment for the
    // audience keeps its default.
    let mut seen = [false; 2];
    for id in 1..=200 {
        let key = format!("m:{id}");
        let e = s.experiments_for(Audience::Member, &key);
        let v = e.variation("member_last_viewed").unwrap();
        assert_eq!(e.on(Feature::LastViewed), v == "var1_enabled", "{key}");
        let v = e.variation("member_contact_form_attachments").unwrap();
        assert_eq!(e.on(Feature::ContactFormAttachments), v == "var1_enabled");
        let v = e.variation("member_sponsored_banners").unwrap();
        assert_eq!(e.on(Feature::SponsoredBanners), v == "var2_programmatic");
        seen[usize::from(e.on(Feature::LastViewed))] = true;
    }
    assert_eq!(seen, [true, true], "both sides among 200 members");
    let anon = s.experiments_for(Audience::Anonymous, &format!("a:{ANON_ON}"));
    assert!(anon.on(Feature::LastViewed) && anon.on(Feature::ContactFormAttachments));
    // Configured weights move a holdback to all-control or all-feature.
    let w = parse_weights("anonymous_sponsored_banners=control:1,var2_programmatic:0").unwrap();
    let all_control = Settings {
        weights: w,
        ..Settings::default()
    };
    assert!(!all_control
        .experiments_for(Audience::Anonymous, &format!("a:{ANON_ON}"))
        .on(Feature::SponsoredBanners));
}

#[test]
fn experiments_for_an_audience_switch_their_features() {
    let s = Settings::default();
    let anon = s.experiments_for(Audience::Anonymous, &format!("a:{ANON_ON}"));
    assert_eq!(anon.variation("anonymous_dynamic_pricing"), Some("on"));
    assert!(anon.on(Feature::DynamicPricing));
    assert_eq!(anon.variation("member_dynamic_pricing"), None);
    let off = s.experiments_for(Audience::Anonymous, &format!("a:{ANON_OFF}"));
    assert!(!off.on(Feature::DynamicPricing));
    let member = s.experiments_for(Audience::Member, "m:3");
    assert_eq!(member.assigned.len(), 14);
    assert!(member.on(Feature::RosedealsMenu));
    assert_eq!(
        names_for(Audience::Anonymous),
        vec!["anonymous_dynamic_pricing", "anonymous_sponsored_banners"]
    );
    assert_eq!(
        names_for(Audience::Member),
        vec![
            "member_dynamic_pricing",
            "member_rosedeals_menu",
            "member_favourites_page",
            "member_last_viewed",
            "member_contact_form_attachments",
            "member_sponsored_banners",
            "member_vouchers_revamp",
            "member_communications_revamp",
            "member_menu_revamp",
            "member_burger_menu_revamp",
            "member_brands_place_details",
            "member_address_service",
            "member_contact_form",
            "member_programmatic_navigation"
        ]
    );
}

#[test]
fn weights_are_parsed_or_refused() {
    let w = parse_weights(
        "anonymous_dynamic_pricing=on:100,off:0; member_rosedeals_menu=control:1,var1_enabled:3",
    )
    .unwrap();
    assert_eq!(
        w,
        vec![
            ("anonymous_dynamic_pricing", vec![0, 100]),
            ("member_rosedeals_menu", vec![1, 3])
        ]
    );
    assert!(parse_weights("").unwrap().is_empty());
    for bad in [
        "nope=on:1",
        "anonymous_dynamic_pricing=on:1",
        "anonymous_dynamic_pricing=on:1,off:x",
        "anonymous_dynamic_pricing=on:0,off:0",
        "anonymous_dynamic_pricing=on:1,on:2",
        "anonymous_dynamic_pricing=maybe:1,off:1",
        "anonymous_dynamic_pricing",
        "anonymous_dynamic_pricing=on:1,off:1;anonymous_dynamic_pricing=on:1,off:1",
    ] {
        assert!(parse_weights(bad).is_err(), "{bad}");
    }
    let s = Settings::from_lookup(|k| {
        (k == "ROSACE_EXPERIMENT_WEIGHTS").then(|| "anonymous_dynamic_pricing=off:0,on:1".into())
    })
    .unwrap();
    let d = def("anonymous_dynamic_pricing");
    assert_eq!(s.variation(d, &format!("a:{ANON_OFF}")), "on");
    assert_eq!(s.weights_of(def("member_rosedeals_menu")), vec![50, 50]);
    assert!(
        Settings::from_lookup(|k| (k == "ROSACE_EXPERIMENTS").then(|| "off".into()))
            .unwrap()
            .disabled
    );
    assert!(
        Settings::from_lookup(|k| (k == "ROSACE_EXPERIMENTS").then(|| "maybe".into())).is_err()
    );
}

#[test]
fn subjects_and_calls_are_checked() {
    assert_eq!(Subject::parse("42"), Some(Subject::Member(42)));
    assert_eq!(
        Subject::parse(ANON_ON).map(|s| s.key()),
        Some(format!("a:{ANON_ON}"))
    );
    for bad in [
        "",
        "0",
        "-1",
        "abc",
        "4.2",
        "0000000000000000000000000000000G",
        "99999999999999999999",
    ] {
        assert_eq!(Subject::parse(bad), None, "{bad}");
    }
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (subject, defs) =
        check_call(true, "7", &names(&["member_rosedeals_menu"]), Some("vip")).unwrap();
    assert_eq!(subject, Subject::Member(7));
    assert_eq!(defs[0].name, "member_rosedeals_menu");
    assert!(check_call(true, ANON_ON, &names(&["anonymous_dynamic_pricing"]), None).is_ok());
    let refused = |site, id, n: &[&str], seg| check_call(site, id, &names(n), seg).unwrap_err();
    assert_eq!(
        refused(false, "7", &["member_rosedeals_menu"], None),
        Refusal::UnknownSite
    );
    assert_eq!(
        refused(true, "x", &["member_rosedeals_menu"], None),
        Refusal::BadMemberId
    );
    assert_eq!(refused(true, "7", &[], None), Refusal::NoExperiments);
    assert_eq!(
        refused(true, "7", &["anonymous_dynamic_pricing"], None),
        Refusal::UnknownExperiment,
        "anonymous names are not member names"
    );
    assert_eq!(
        refused(true, ANON_ON, &["member_rosedeals_menu"], None),
        Refusal::UnknownExperiment
    );
    assert_eq!(
        refused(true, ANON_ON, &["anonymous_dynamic_pricing"], Some("s")),
        Refusal::SegmentForAnonymous
    );
    let many: Vec<&str> = vec!["member_rosedeals_menu"; MAX_NAMES + 1];
    assert_eq!(refused(true, "7", &many, None), Refusal::NoExperiments);
}

#[test]
fn wilson_interval_matches_known_values() {
    // Reference values (Wilson 1927; e.g. Newcombe 1998, table I): 81/263 -> 0.2553-0.3662.
    let (lo, hi) = wilson(81, 263, Z95);
    assert!(
        (lo - 0.2553).abs() < 5e-4 && (hi - 0.3662).abs() < 5e-4,
        "{lo} {hi}"
    );
    // 0 of 10: [0, 0.2775]; 10 of 10: [0.7225, 1].
    let (lo, hi) = wilson(0, 10, Z95);
    assert!(lo == 0.0 && (hi - 0.2775).abs() < 5e-4, "{lo} {hi}");
    let (lo, hi) = wilson(10, 10, Z95);
    assert!((lo - 0.7225).abs() < 5e-4 && hi == 1.0, "{lo} {hi}");
    // 1 of 2: centred on one half.
    let (lo, hi) = wilson(1, 2, Z95);
    assert!(
        (lo + hi - 1.0).abs() < 1e-12 && (lo - 0.0945).abs() < 5e-4,
        "{lo} {hi}"
    );
    assert_eq!(wilson(0, 0, Z95), (0.0, 0.0));
    // Always inside [0, 1] and around the observed rate.
    for (s, n) in [(1u64, 3u64), (50, 100), (999, 1000), (3, 100_000)] {
        let (lo, hi) = wilson(s, n, Z95);
        let p = s as f64 / n as f64;
        assert!(
            0.0 <= lo && lo <= p && p <= hi && hi <= 1.0,
            "{s}/{n}: {lo} {hi}"
        );
    }
}

#[test]
fn only_the_variations_path_is_the_variations_call() {
    assert!(is_variations_path(
        "/api/abtesting/v1/sites/1/members/42/variations"
    ));
    assert!(is_variations_path(&format!(
        "/api/abtesting/v1/sites/66/members/{ANON_ON}/variations"
    )));
    for other in [
        "/api/abtesting/v1/sites/1/members/42/variations/x",
        "/api/abtesting/v1/sites//members/42/variations",
        "/api/abtesting/v1/sites/1/members/42",
        "/api/cartproxy/v1/sites/1/members/42/variations",
        "/api/abtesting/v1/sites/1/members/42/variations/",
    ] {
        assert!(!is_variations_path(other), "{other}");
    }
}

#[test]
fn the_menu_entries_follow_their_switches() {
    use crate::shell::rules::{lateral_menu_items, visible, MenuSwitches};
    let ids = |s: MenuSwitches| {
        visible(lateral_menu_items(s), true)
            .into_iter()
            .map(|i| i.id)
            .collect::<Vec<_>>()
    };
    let control = ids(MenuSwitches::default());
    assert!(!control
        .iter()
        .any(|i| i == "rosedeals" || i == "favourites"));
    let on = ids(MenuSwitches {
        rosedeals_entry: true,
        favourites_entry: true,
        ..MenuSwitches::default()
    });
    assert_eq!(on.len(), control.len() + 2);
    assert!(on.iter().any(|i| i == "rosedeals") && on.iter().any(|i| i == "favourites"));
}
