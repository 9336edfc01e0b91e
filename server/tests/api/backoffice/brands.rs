//! The brands page: found by a word of their name, a new brand added before its sale, a
//! name corrected; a name the shop has (in any case, with or without accents) or an empty
//! one refused, changing nothing; care operators read but do not write.
use super::*;
use crate::helpers::{both, TestApp};

async fn an_operator_adds_and_renames_a_brand(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let (status, html) = merch.get(&t, "/backoffice/brands").await;
    assert_eq!(status, 200);
    let brands = t.count("SELECT COUNT(*) FROM brands").await;
    assert!(html.contains(&format!(
        r#"<p id="brands-found">Brands found: {brands}</p>"#
    )));
    let known: String = sqlx::query_scalar("SELECT name FROM brands ORDER BY id LIMIT 1")
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let query = serde_urlencoded::to_string([("q", known.to_lowercase())]).unwrap();
    let (_, found) = merch.get(&t, &format!("/backoffice/brands?{query}")).await;
    assert!(found.contains(&format!(r#"value="{known}""#)), "{known}");

    // Refused, nothing added.
    for (name, message) in [
        (" ", "Enter a name of 1 to 80 characters."),
        (
            known.to_uppercase().as_str(),
            "The shop has a brand of this name already.",
        ),
    ] {
        let (status, _, html) = merch
            .post(&t, "/backoffice/brands", &[("name", name)])
            .await;
        assert_eq!(status, 422, "{name:?}");
        assert!(html.contains(message), "{message}");
    }
    assert_eq!(t.count("SELECT COUNT(*) FROM brands").await, brands);

    // Added, then offered by the product forms.
    let (status, location, _) = merch
        .post(&t, "/backoffice/brands", &[("name", "  Maison Éclat ")])
        .await;
    assert_eq!(
        (status, location.as_str()),
        (303, "/backoffice/brands?done=1")
    );
    let id = t
        .count("SELECT id FROM brands WHERE name = 'Maison Éclat'")
        .await;
    let (_, products) = merch.get(&t, "/backoffice/sales/1001/products").await;
    assert!(products.contains(&format!(r#"<option value="{id}">Maison Éclat</option>"#)));
    // The same name without its accent is the same brand.
    let (status, _, _) = merch
        .post(&t, "/backoffice/brands", &[("name", "maison eclat")])
        .await;
    assert_eq!(status, 422);

    // Renamed; another brand's name refused.
    let (status, _, _) = merch
        .post(
            &t,
            &format!("/backoffice/brands/{id}"),
            &[("name", "Maison Éclat Paris")],
        )
        .await;
    assert_eq!(status, 303);
    let (status, _, html) = merch
        .post(&t, &format!("/backoffice/brands/{id}"), &[("name", &known)])
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("The shop has a brand of this name already."));
    assert!(
        html.contains(&format!(r#"value="{known}""#)),
        "what was typed stays"
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM brands WHERE name = 'Maison Éclat Paris' AND slug = 'maison-eclat-paris'")
            .await,
        1
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM audit_log WHERE object_kind = 'brand' AND object_id = '{id}'"
        ))
        .await,
        2
    );
    let (status, _, _) = merch
        .post(&t, "/backoffice/brands/999999", &[("name", "Nulle part")])
        .await;
    assert_eq!(status, 404);

    // Customer care reads the list, without its forms, and may not add one.
    let care = sign_in(&t, CARE).await;
    let (status, html) = care.get(&t, "/backoffice/brands").await;
    assert_eq!(status, 200);
    assert!(!html.contains(r#"method="post" action="/backoffice/brands""#));
    let (status, _, _) = care
        .post(&t, "/backoffice/brands", &[("name", "Marque du service")])
        .await;
    assert_eq!(status, 403);
}
both!(
    an_operator_adds_and_renames_a_brand,
    brands_on_sqlite,
    brands_on_postgres
);
