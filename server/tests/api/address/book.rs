//! The address service's calls, their refusals and their owner checks.
use reqwest::Method;
use serde_json::{json, Value};

use super::{faults, member_on, paris, raw, rows, with, A};
use crate::helpers::{both, TestApp};

async fn calls(t: TestApp) {
    let a = member_on(&t, 1).await;
    let (status, list) = a.call(&t, Method::GET, A, None).await;
    assert_eq!(
        (status, list["addresses"].as_array().map(Vec::len)),
        (200, Some(0))
    );
    assert_eq!(
        a.call(&t, Method::GET, &format!("{A}/favorite"), None)
            .await
            .0,
        404
    );

    // The first address is the favourite, normalized as stored.
    let (status, first) = a
        .call(
            &t,
            Method::POST,
            A,
            Some(with(paris(), "city", json!("  Paris  "))),
        )
        .await;
    assert_eq!(status, 201, "{first}");
    assert_eq!(
        (first["isFavorite"].as_bool(), first["city"].as_str()),
        (Some(true), Some("Paris"))
    );
    assert_eq!(first["phone"], "0612345678");
    let id1 = first["id"].as_i64().unwrap();
    let (status, got) = a.call(&t, Method::GET, &format!("{A}/{id1}"), None).await;
    assert_eq!((status, &got), (200, &first));

    // A second one is not, until the member says so.
    let lyon = json!({ "firstName": "Zoë", "lastName": "O'Neil", "details": "3 place Bellecour",
        "zipCode": "69002", "city": "Lyon", "phone": "+33 4 78 00 00 00" });
    let (status, second) = a.call(&t, Method::POST, A, Some(lyon.clone())).await;
    assert_eq!(
        (
            status,
            second["isFavorite"].as_bool(),
            second["country"].as_str()
        ),
        (201, Some(false), Some("FR"))
    );
    assert_eq!(second["phone"], "+33478000000");
    let id2 = second["id"].as_i64().unwrap();
    assert_eq!(
        a.call(&t, Method::GET, &format!("{A}/favorite"), None)
            .await
            .1["id"],
        id1
    );

    // PUT with the id in the body; isFavorite moves the favourite.
    let change = with(with(lyon, "id", json!(id2)), "isFavorite", json!(true));
    let (status, changed) = a
        .call(
            &t,
            Method::PUT,
            A,
            Some(with(change, "extras", json!("3e étage"))),
        )
        .await;
    assert_eq!(
        (
            status,
            changed["isFavorite"].as_bool(),
            changed["extras"].as_str()
        ),
        (200, Some(true), Some("3e étage"))
    );
    let (_, list) = a.call(&t, Method::GET, A, None).await;
    let flags: Vec<(i64, bool)> = list["addresses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["id"].as_i64().unwrap(),
                x["isFavorite"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(flags, [(id1, false), (id2, true)]);
    assert_eq!(
        a.call(&t, Method::GET, &format!("{A}/favorite"), None)
            .await
            .1["id"],
        id2
    );
    // Leaving it out keeps the flag; false leaves the member without one: the first is used.
    let (_, same) = a
        .call(&t, Method::PUT, A, Some(with(paris(), "id", json!(id2))))
        .await;
    assert_eq!(same["isFavorite"], true);
    let (_, unset) = a
        .call(
            &t,
            Method::PUT,
            A,
            Some(with(
                with(paris(), "id", json!(id2)),
                "isFavorite",
                json!(false),
            )),
        )
        .await;
    assert_eq!(unset["isFavorite"], false);
    assert_eq!(
        a.call(&t, Method::GET, &format!("{A}/favorite"), None)
            .await
            .1["id"],
        id1
    );

    // Delete: gone for good; deleting again is a 404.
    assert_eq!(
        a.call(&t, Method::DELETE, &format!("{A}/{id1}"), None)
            .await
            .0,
        204
    );
    assert_eq!(
        a.call(&t, Method::GET, &format!("{A}/{id1}"), None).await.0,
        404
    );
    assert_eq!(
        a.call(&t, Method::DELETE, &format!("{A}/{id1}"), None)
            .await
            .0,
        404
    );
    assert_eq!(
        a.call(&t, Method::GET, &format!("{A}/favorite"), None)
            .await
            .1["id"],
        id2
    );
    assert_eq!(rows(&t, a.member_id).await, 1);
}

both!(calls, calls_on_sqlite, calls_on_postgres);

async fn refusals(t: TestApp) {
    let a = member_on(&t, 1).await;
    let refused = |body: Value| {
        let (a, t) = (&a, &t);
        async move { a.call(t, Method::POST, A, Some(body)).await }
    };
    // Spec 001 §5: a single zip code error 4 → forbidden, 5 → wrong.
    let (status, body) = refused(with(paris(), "zipCode", json!("97400"))).await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error_description"],
        "errors.address.forbidden_zipcode.notification"
    );
    assert_eq!(faults(&body), [("zipCode".to_string(), 4)]);
    assert_eq!(body["message"], "Nous ne livrons pas à ce code postal.");
    assert_eq!(
        body["fieldErrors"][0]["messageKey"],
        "address.errors.zip_forbidden"
    );
    let (_, body) = refused(with(paris(), "zipCode", json!("7500"))).await;
    assert_eq!(
        body["error_description"],
        "errors.address.wrong_zipcode.notification"
    );
    assert_eq!(faults(&body), [("zipCode".to_string(), 5)]);
    // Another single field is named; several fields are "several".
    let (_, body) = refused(with(paris(), "phone", json!("12"))).await;
    assert_eq!(
        body["error_description"],
        "errors.address.wrong_field.notification"
    );
    assert_eq!(body["message"], "Le champ « Téléphone » n'est pas valide.");
    let (_, body) = refused(json!({ "zipCode": "75002" })).await;
    assert_eq!(
        body["error_description"],
        "errors.address.wrong_fields.notification"
    );
    assert_eq!(
        faults(&body),
        ["firstName", "lastName", "details", "city", "phone"].map(|f| (f.to_string(), 1))
    );
    // Other alphabets, emoji, 60 KB of text, a country this site does not deliver to.
    let (_, body) = refused(with(paris(), "lastName", json!("Иванов"))).await;
    assert_eq!(faults(&body), [("lastName".to_string(), 3)]);
    let (_, body) = refused(with(
        with(paris(), "firstName", json!("😀")),
        "city",
        json!("x".repeat(60_000)),
    ))
    .await;
    assert_eq!(
        faults(&body),
        [("firstName".to_string(), 3), ("city".to_string(), 2)]
    );
    let (_, body) = refused(with(
        with(paris(), "country", json!("DE")),
        "zipCode",
        json!("10115"),
    ))
    .await;
    assert_eq!(faults(&body), [("country".to_string(), 4)]);
    // Wrong types, bodies that are no object, broken JSON: "not saved".
    for bad in [
        "{\"firstName\": 5}",
        "[]",
        "\"x\"",
        "null",
        "{",
        "",
        "{\"zipCode\": {\"a\": 1}}",
    ] {
        let (status, body) = raw(&t, &a, Method::POST, A, bad).await;
        assert_eq!(
            (status, body["error_description"].as_str()),
            (400, Some("errors.address.not_saved.notification")),
            "{bad}"
        );
    }
    assert_eq!(rows(&t, a.member_id).await, 0, "nothing stored");

    // A refused change changes nothing.
    let (_, saved) = a.call(&t, Method::POST, A, Some(paris())).await;
    let id = saved["id"].as_i64().unwrap();
    let (status, body) = a
        .call(
            &t,
            Method::PUT,
            A,
            Some(with(
                with(paris(), "id", json!(id)),
                "zipCode",
                json!("98000"),
            )),
        )
        .await;
    assert_eq!(
        (status, body["error_description"].as_str()),
        (400, Some("errors.address.forbidden_zipcode.notification"))
    );
    assert_eq!(
        a.call(&t, Method::PUT, A, Some(paris())).await.0,
        400,
        "PUT needs the id"
    );
    assert_eq!(
        a.call(&t, Method::GET, &format!("{A}/{id}"), None).await.1,
        saved
    );

    // The book holds 20 addresses.
    for _ in 1..20 {
        assert_eq!(a.call(&t, Method::POST, A, Some(paris())).await.0, 201);
    }
    let (status, body) = a.call(&t, Method::POST, A, Some(paris())).await;
    assert_eq!(
        (status, body["error_code"].as_str()),
        (400, Some("too_many_addresses"))
    );
    assert_eq!(rows(&t, a.member_id).await, 20);

    // Each site's own rules: Spanish codes and phones on site 3, Dutch on 76.
    let es = member_on(&t, 3).await;
    let madrid = json!({ "firstName": "Lucía", "lastName": "García", "details": "Calle Mayor 1", "zipCode": "35001",
        "city": "Las Palmas", "phone": "612345678" });
    let (_, body) = es.call(&t, Method::POST, A, Some(madrid.clone())).await;
    assert_eq!(
        body["message"],
        "No realizamos entregas a este código postal."
    );
    assert_eq!(
        es.call(
            &t,
            Method::POST,
            A,
            Some(with(madrid, "zipCode", json!("28013")))
        )
        .await
        .0,
        201
    );
    let nl = member_on(&t, 76).await;
    let (status, body) = nl
        .call(
            &t,
            Method::POST,
            A,
            Some(json!({ "firstName": "Sanne", "lastName": "de Vries",
        "details": "Damrak 1", "zipCode": "1012lg", "city": "Amsterdam", "phone": "06-12345678" })),
        )
        .await;
    assert_eq!(
        (status, body["zipCode"].as_str(), body["country"].as_str()),
        (201, Some("1012 LG"), Some("NL"))
    );
}

both!(refusals, refusals_on_sqlite, refusals_on_postgres);

async fn owners(t: TestApp) {
    let a = member_on(&t, 1).await;
    let b = member_on(&t, 1).await;
    let (_, saved) = a.call(&t, Method::POST, A, Some(paris())).await;
    let id = saved["id"].as_i64().unwrap();
    // Another member's id is no address of theirs.
    assert_eq!(
        b.call(&t, Method::GET, &format!("{A}/{id}"), None).await.0,
        404
    );
    let (status, body) = b
        .call(
            &t,
            Method::PUT,
            A,
            Some(with(with(paris(), "id", json!(id)), "city", json!("Lille"))),
        )
        .await;
    assert_eq!(
        (status, body["error_code"].as_str()),
        (404, Some("not_found"))
    );
    assert_eq!(
        b.call(&t, Method::DELETE, &format!("{A}/{id}"), None)
            .await
            .0,
        404
    );
    assert_eq!(
        b.call(&t, Method::GET, &format!("{A}/favorite"), None)
            .await
            .0,
        404
    );
    assert_eq!(
        b.call(&t, Method::GET, A, None).await.1["addresses"],
        json!([])
    );
    assert_eq!(
        a.call(&t, Method::GET, &format!("{A}/{id}"), None).await.1,
        saved,
        "unchanged"
    );
    // Ids that are no ids.
    for bad in [
        "0",
        "-1",
        "99999999999999999999",
        "abc",
        "1.5",
        "%F0%9F%98%80",
    ] {
        assert_eq!(
            a.call(&t, Method::GET, &format!("{A}/{bad}"), None).await.0,
            404,
            "{bad}"
        );
        assert_eq!(
            a.call(&t, Method::DELETE, &format!("{A}/{bad}"), None)
                .await
                .0,
            404,
            "{bad}"
        );
    }
    let (status, _) = a
        .call(&t, Method::PUT, A, Some(with(paris(), "id", json!(-5))))
        .await;
    assert_eq!(status, 404);

    // Signed out: 401. No XSRF token: 403, nothing stored.
    assert_eq!(t.get(A).await.status(), 401);
    let res = t
        .client
        .post(t.url(A))
        .header("cookie", &a.cookie)
        .json(&paris())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let res = t
        .client
        .delete(t.url(&format!("{A}/{id}")))
        .header("cookie", &a.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(rows(&t, a.member_id).await, 1);
}

both!(owners, owners_on_sqlite, owners_on_postgres);

async fn specificities(t: TestApp) {
    let f = "/api/postsales/config/v1/features";
    let (status, es) = crate::helpers::json(
        &t,
        &format!("{f}?target=postsales-web&feature=address-specificities&siteId=3"),
        "",
    )
    .await;
    assert_eq!(status, 200, "{es}");
    let spec = &es["configurationDetails"]["addressFieldSpecificities"];
    assert_eq!(es["siteId"], 3);
    assert_eq!(spec["countries"][0]["code"], "ES");
    assert_eq!(spec["countries"][0]["zipCodeExample"], "28013");
    assert!(spec["countries"][0]["forbiddenZipCodes"]
        .as_array()
        .unwrap()
        .contains(&json!("35")));
    assert_eq!(
        (
            spec["phoneFormat"]["first"].as_u64(),
            spec["phoneFormat"]["rest"].as_u64()
        ),
        (Some(3), Some(3))
    );
    assert_eq!(spec["phoneFormat"]["example"], "612 345 678");
    assert!(!spec["requiredFields"]
        .as_array()
        .unwrap()
        .contains(&json!("extras")));
    let (_, it) = crate::helpers::json(&t, &format!("{f}?siteId=4"), "").await;
    let phone = &it["configurationDetails"]["addressFieldSpecificities"]["phoneFormat"];
    assert_eq!(
        (phone["first"].as_u64(), &phone["rest"]),
        (Some(3), &Value::Null)
    );
    let (_, de) = crate::helpers::json(&t, f, "").await;
    assert_eq!(de["siteId"], 1, "the request's site by default");
    assert_eq!(
        crate::helpers::json(&t, &format!("{f}?target=other"), "")
            .await
            .0,
        404
    );
    assert_eq!(
        crate::helpers::json(&t, &format!("{f}?feature=wallet"), "")
            .await
            .0,
        404
    );
    assert_eq!(
        crate::helpers::json(&t, &format!("{f}?siteId=999"), "")
            .await
            .1["siteId"],
        1
    );
}

both!(
    specificities,
    specificities_on_sqlite,
    specificities_on_postgres
);
