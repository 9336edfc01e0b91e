//! Members for customer care: found by email or number; deactivated (sign-in answers code
//! 6), blacklisted (code 7) and given access back, each with a reason (none: refused) and
//! audited, the member signed out; their data exported as JSON without secrets; erased only
//! when the operator types the member's email; roles.
use serde_json::Value;

use super::*;
use crate::account::{login_result, member, PASSWORD};
use crate::helpers::{both, TestApp};

async fn care_manages_a_member(t: TestApp) {
    let m = member(&t, 2).await;
    let care = sign_in(&t, CARE).await;
    let row = format!(r#"<tr data-member="{}">"#, m.id);
    let (status, found) = care
        .get(&t, &format!("/backoffice/members?q={}", &m.email[..12]))
        .await;
    assert_eq!(status, 200);
    assert!(found.contains(&row));
    let (_, by_number) = care
        .get(&t, &format!("/backoffice/members?q=%23{}", m.id))
        .await;
    assert!(by_number.contains(&row));
    let (_, none) = care.get(&t, "/backoffice/members?q=%25").await;
    assert!(!none.contains(&row), "% is a character, not a wildcard");

    let path = format!("/backoffice/members/{}", m.id);
    let (status, page) = care.get(&t, &path).await;
    assert_eq!(status, 200);
    assert!(page.contains(&m.email));

    // A decision without a reason is refused; with one, sign-in answers its code.
    let (status, _, html) = care
        .post(
            &t,
            &format!("{path}/access"),
            &[("to", "deactivated"), ("reason", " ")],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("Give the reason."));
    assert_eq!(login_result(&t, &m.email, PASSWORD, 2).await, 1, "success");
    for (to, code) in [("deactivated", 6), ("blacklisted", 7), ("active", 1)] {
        let (status, _, _) = care
            .post(
                &t,
                &format!("{path}/access"),
                &[("to", to), ("reason", "Fraude à la carte signalée")],
            )
            .await;
        assert_eq!(status, 303, "{to}");
        assert_eq!(login_result(&t, &m.email, PASSWORD, 2).await, code, "{to}");
    }
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM audit_log WHERE object_kind = 'member' AND object_id = '{}'",
            m.id
        ))
        .await,
        3
    );

    // The export: the member's rows, no secret.
    let res = t
        .get_with_cookie(&format!("{path}/export"), &care.cookie)
        .await;
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment;"));
    let data: Value = res.json().await.unwrap();
    assert_eq!(data["tables"]["members"][0]["email"], m.email.as_str());
    assert!(data["tables"]["members"][0].get("password_hash").is_none());
    assert!(data["tables"]["sessions"].as_array().is_some());
    assert!(
        data["tables"]["member_deactivations"]
            .as_array()
            .unwrap()
            .len()
            >= 2
    );
    let text = data.to_string();
    assert!(!text.contains("$argon2"), "no password hash anywhere");

    // Erasure needs the member's email typed.
    let (status, _, html) = care
        .post(
            &t,
            &format!("{path}/erase"),
            &[("confirm", "someone@else.test")],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("nothing was erased"));
    let (status, _, _) = care
        .post(&t, &format!("{path}/erase"), &[("confirm", &m.email)])
        .await;
    assert_eq!(status, 303);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM members WHERE id = {} AND status = 4 AND first_name = ''",
            m.id
        ))
        .await,
        1
    );

    for who in [MODERATOR, MERCH] {
        let desk = sign_in(&t, who).await;
        assert_eq!(desk.get(&t, "/backoffice/members").await.0, 403, "{who}");
        assert_eq!(
            desk.get(&t, &format!("{path}/export")).await.0,
            403,
            "{who}"
        );
    }
}
both!(
    care_manages_a_member,
    members_on_sqlite,
    members_on_postgres
);

/// A member downloads their own data from My account: their rows only, as a file; a
/// visitor gets 401.
async fn a_member_downloads_their_data(t: TestApp) {
    let m = member(&t, 2).await;
    let other = member(&t, 2).await;
    let res = t
        .get_with_cookie("/api/postsales/v1/account/export", &m.cookie())
        .await;
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"my-data.json\""));
    let data: Value = res.json().await.unwrap();
    assert_eq!(data["memberId"], m.id);
    assert_eq!(data["tables"]["members"][0]["email"], m.email.as_str());
    assert!(!data.to_string().contains(&other.email));
    assert_eq!(
        t.get("/api/postsales/v1/account/export").await.status(),
        401
    );
    let page = t
        .get_with_cookie("/myaccount?tab=delete", &m.cookie())
        .await;
    assert!(page
        .text()
        .await
        .unwrap()
        .contains(r#"href="/api/postsales/v1/account/export""#));
}
both!(
    a_member_downloads_their_data,
    export_on_sqlite,
    export_on_postgres
);
