//! A media-ads banner's advertising type (spec 000 advertising types PUBLICITY and
//! SPONSORED): the home call says it, and the tile is labelled as what it is, in the site's
//! language; no other banner is advertising. The demo: Rosace's sites show publicity,
//! Violeta's a sponsored banner. SQLite and PostgreSQL.
use serde_json::Value;

use crate::helpers::{both, json, TestApp};

/// Every banner of a home call.
fn banners(home: &Value) -> Vec<Value> {
    home["modules"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["banners"].as_array().cloned().unwrap_or_default())
        .collect()
}

async fn advertising_types(t: TestApp) {
    for (site, kind, label) in [
        (1, "PUBLICITY", "Publicité"),
        (66, "SPONSORED", "Patrocinado"),
    ] {
        let (status, home) = json(
            &t,
            &format!("/api/content/v1/homes/default?siteId={site}"),
            "",
        )
        .await;
        assert_eq!(status, 200);
        let all = banners(&home);
        let ads: Vec<&Value> = all
            .iter()
            .filter(|b| b["kind"] == "MediaAdsBanner")
            .collect();
        assert!(!ads.is_empty(), "site {site} has an ad");
        assert!(
            ads.iter().all(|b| b["advertisingType"] == kind),
            "site {site}"
        );
        assert!(
            all.iter()
                .filter(|b| b["kind"] != "MediaAdsBanner")
                .all(|b| b.get("advertisingType").is_none()),
            "only ads say a type"
        );
        // A visitor who accepted advertising and nothing else (ads go only with that
        // consent, and outside the holdback experiments everyone has them).
        let page = t
            .get_with_cookie(
                &format!("/?site={site}"),
                "OptanonConsent=groups=C0001:1,C0002:0,C0003:0,C0004:1,C0005:0",
            )
            .await
            .text()
            .await
            .unwrap();
        let tag = format!("data-advertising-type=\"{kind}\"");
        let at = page
            .find(&tag)
            .unwrap_or_else(|| panic!("site {site}: the ad's label"));
        assert!(
            page[at..].split("</span>").next().unwrap().contains(label),
            "site {site}"
        );
    }
    // A type that is neither is read as publicity (home::rules `advertising_type`, unit-tested).
}

both!(
    advertising_types,
    advertising_types_on_sqlite,
    advertising_types_on_postgres
);
