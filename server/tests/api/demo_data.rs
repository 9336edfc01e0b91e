//! A database seeded by an older demo version gets the demo rows it lacks at the next
//! start; what is already there (members' own data, stock in use) stays as it is.
use crate::helpers::{both, TestApp};

async fn tops_up_an_older_demo_database(t: TestApp) {
    let db = &t.app.state.db;
    let exec = |sql: &'static str| async move {
        sqlx::query(sql).execute(&db.pool).await.unwrap();
    };
    let before_products = t.count("SELECT COUNT(*) FROM products").await;
    let before_members = t.count("SELECT COUNT(*) FROM members").await;
    // As an older version left it: no second demo member, no last-unit item of sale 1001.
    exec("DELETE FROM members WHERE email = 'demo2@rosace.test'").await;
    exec("DELETE FROM product_options WHERE product_id = 100160").await;
    exec("DELETE FROM products WHERE id = 100160").await;
    exec("UPDATE app_meta SET value = '1' WHERE key = 'demo_version'").await;
    // The owner's own use of the shop since then.
    let option = t
        .count("SELECT CAST(MIN(id) AS BIGINT) FROM product_options WHERE stock >= 2")
        .await;
    sqlx::query("UPDATE product_options SET sold = 2 WHERE id = $1")
        .bind(option)
        .execute(&db.pool)
        .await
        .unwrap();
    exec("UPDATE sales SET name = 'Renamed by the owner' WHERE id = 1002").await;
    exec(
        "INSERT INTO members (site_id, email, password_hash, first_name, last_name, status, created_at)
         VALUES (1, 'owner@example.test', 'x', 'Owner', 'Own', 1, 0)",
    )
    .await;

    server::demo::ensure(db, app::platform::state::now())
        .await
        .unwrap();

    assert_eq!(
        t.count("SELECT COUNT(*) FROM products").await,
        before_products
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM members").await,
        before_members + 1,
        "the demo members back, the owner's member kept"
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM members WHERE email = 'demo2@rosace.test'")
            .await,
        11
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM product_options WHERE product_id = 100160")
            .await,
        1
    );
    let sold: i64 = sqlx::query_scalar("SELECT sold FROM product_options WHERE id = $1")
        .bind(option)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(sold, 2, "stock in use is not reset");
    assert_eq!(
        t.count("SELECT COUNT(*) FROM sales WHERE name = 'Renamed by the owner'")
            .await,
        1
    );
    let version: String =
        sqlx::query_scalar("SELECT value FROM app_meta WHERE key = 'demo_version'")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(version, server::demo::DEMO_VERSION);
    // Once current, a start adds nothing.
    server::demo::ensure(db, app::platform::state::now())
        .await
        .unwrap();
    assert_eq!(
        t.count("SELECT COUNT(*) FROM members").await,
        before_members + 1
    );
}

both!(
    tops_up_an_older_demo_database,
    tops_up_an_older_demo_database_on_sqlite,
    tops_up_an_older_demo_database_on_postgres
);
