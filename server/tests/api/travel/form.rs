//! The configurator form (spec 001 §4) through the product page: a change it sends comes
//! back as the same page with the change applied, and is the same visit (the product is not
//! recorded as viewed again); opening the page is a view.
use crate::helpers::{both, TestApp};

const PAGE: &str = "/t/p/1025/102503";

async fn viewed_at(t: &TestApp) -> Option<i64> {
    sqlx::query_scalar("SELECT viewed_at FROM travel_last_viewed WHERE product_id = 102503")
        .fetch_optional(&t.app.state.db.pool)
        .await
        .unwrap()
}

fn shown_package(html: &str) -> String {
    let start = html
        .find("name=\"shown_package\" value=\"")
        .expect("the form says what it showed")
        + "name=\"shown_package\" value=\"".len();
    html[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect()
}

async fn form_changes_are_the_same_visit(t: TestApp) {
    let member = t.member_session(1).await;
    let page = t.get_with_cookie(PAGE, &member).await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(viewed_at(&t).await.is_some(), "opening the page is a view");
    sqlx::query("UPDATE travel_last_viewed SET viewed_at = 1 WHERE product_id = 102503")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();

    // The form's + for a child: the same page, a birthday field more, no new view.
    let package = shown_package(&html);
    let query = format!(
        "package={package}&party=a,a&cheapest=1&shown_package={package}&shown_cheapest=1&step=add-c"
    );
    let page = t.get_with_cookie(&format!("{PAGE}?{query}"), &member).await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("name=\"bday2\""),
        "the child's birthday field"
    );
    assert!(
        html.contains("party=a,a,c"),
        "the state address carries the child"
    );
    assert_eq!(viewed_at(&t).await, Some(1), "a form change is no new view");

    // Opening the page again (its state address included) is a view.
    let page = t
        .get_with_cookie(&format!("{PAGE}?package={package}&party=a,a,c"), &member)
        .await;
    assert_eq!(page.status(), 200);
    assert!(viewed_at(&t).await.unwrap() > 1);
}

both!(
    form_changes_are_the_same_visit,
    configurator_form_changes_are_the_same_visit_on_sqlite,
    configurator_form_changes_are_the_same_visit_on_postgres,
);
