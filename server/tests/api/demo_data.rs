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
    exec("DELETE FROM stock_history WHERE option_id IN (SELECT id FROM product_options WHERE product_id = 100160)").await;
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

/// The demo's catalogue comes in through the feed import (one path for data into the shop):
/// the import is on record, each option's stock history starts with it, and the demo keeps
/// the ids its links name.
async fn the_demo_catalogue_comes_through_the_feed(t: TestApp) {
    assert_eq!(
        t.count(
            "SELECT COUNT(*) FROM audit_log WHERE operator_email = 'demo data'
                AND action = 'import' AND object_kind = 'feed'"
        )
        .await,
        1
    );
    // The last travel sale of the last site, at the id the demo gives it.
    assert_eq!(
        t.count("SELECT COUNT(*) FROM sales WHERE id = 11027 AND campaign_kind = 'TRAVEL'")
            .await,
        1
    );
    // The last unit of sale 1001, what members race for at the opening.
    assert_eq!(
        t.count(
            "SELECT COUNT(*) FROM product_options o JOIN stock_history h ON h.option_id = o.id
              WHERE o.id = 1001600 AND o.label = 'TU' AND h.reason = 'feed import'
                AND h.delta = 1 AND h.stock_after = 1"
        )
        .await,
        1
    );
    assert_eq!(
        t.count(
            "SELECT COUNT(*) FROM product_options
              WHERE (product_id / 100) % 1000 BETWEEN 1 AND 27 AND product_id < 1200000
                AND id NOT IN (SELECT option_id FROM stock_history WHERE reason = 'feed import')"
        )
        .await,
        0,
        "every demo option's history starts with the import"
    );
    // Universes, placement and themes come from the feed too.
    assert_eq!(
        t.count("SELECT COUNT(*) FROM universes WHERE sale_id = 1001 AND parent_id IS NULL")
            .await,
        3
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM sales WHERE id = 1003 AND theme = 'recycle'")
            .await,
        1
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM products WHERE id = 100105 AND item_type = 10")
            .await,
        1
    );
}

both!(
    the_demo_catalogue_comes_through_the_feed,
    the_demo_catalogue_comes_through_the_feed_on_sqlite,
    the_demo_catalogue_comes_through_the_feed_on_postgres
);

/// Each site's demo products speak its language (colour
/// values were French everywhere), and a trip has no colour and no fashion copy (its page
/// has its highlights and tabs).
async fn each_site_speaks_its_language_in_its_data(t: TestApp) {
    let count = |site: i64, kind: &str, filter: &str| {
        format!(
            "SELECT COUNT(*) FROM products p JOIN sales s ON s.id = p.sale_id
              WHERE s.site_id = {site} AND s.campaign_kind {kind} AND {filter}"
        )
    };
    let french = "p.color IN ('rouge', 'bleu', 'noir', 'blanc', 'vert', 'rose')";
    for (site, colours) in [
        (2, "'rot', 'blau', 'schwarz', 'weiß', 'grün', 'rosa'"),
        (4, "'rosso', 'blu', 'nero', 'bianco', 'verde', 'rosa'"),
        (76, "'rood', 'blauw', 'zwart', 'wit', 'groen', 'roze'"),
    ] {
        assert_eq!(
            t.count(&count(site, "<> 'TRAVEL'", french)).await,
            0,
            "site {site}"
        );
        let own = format!("p.color IN ({colours})");
        assert!(
            t.count(&count(site, "<> 'TRAVEL'", &own)).await > 10,
            "site {site}"
        );
        let trips = t.count(&count(site, "= 'TRAVEL'", "1 = 1")).await;
        assert!(trips > 0, "site {site}");
        // Its highlights and tabs describe a trip: no clothes' sheet, no colour.
        let plain = "p.color = '' AND p.description_html = ''";
        assert_eq!(
            t.count(&count(site, "= 'TRAVEL'", plain)).await,
            trips,
            "site {site}: a trip has no colour nor fashion copy"
        );
    }
    // A travel sale's categories are trips, not clothes.
    let fashion = "SELECT COUNT(*) FROM universes u JOIN sales s ON s.id = u.sale_id
                    WHERE s.site_id = 2 AND s.campaign_kind = 'TRAVEL'
                      AND u.title IN ('Damen', 'Herren', 'Accessoires', 'Kleider', 'Oberteile')";
    assert_eq!(t.count(fashion).await, 0);
    let trips = "SELECT COUNT(*) FROM universes u JOIN sales s ON s.id = u.sale_id
                  WHERE s.site_id = 2 AND s.campaign_kind = 'TRAVEL' AND u.title = 'Rundreisen'";
    assert!(t.count(trips).await > 0);
}

both!(
    each_site_speaks_its_language_in_its_data,
    each_site_speaks_its_language_in_its_data_on_sqlite,
    each_site_speaks_its_language_in_its_data_on_postgres
);

/// A demo product's drawn picture shows what it is (a watch, a
/// belt, a hotel for a trip), on every site's language, not a T-shirt for everything.
#[tokio::test]
async fn each_product_picture_shows_what_it_is() {
    let t = crate::helpers::start(crate::helpers::Backend::Sqlite).await;
    let picture = |id: i64| {
        let t = &t;
        async move {
            let res = t.get(&format!("/img/product/{id}.svg")).await;
            assert_eq!(res.status(), 200);
            assert_eq!(res.headers()["content-type"], "image/svg+xml");
            res.text().await.unwrap()
        }
    };
    let first_of = |like: &'static str, site: i64| {
        let t = &t;
        async move {
            sqlx::query_scalar::<_, i64>(
                "SELECT pr.id FROM products pr JOIN sales s ON s.id = pr.sale_id
                  WHERE pr.name LIKE $1 AND s.site_id = $2 ORDER BY pr.id LIMIT 1",
            )
            .bind(like)
            .bind(site)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap()
        }
    };
    // A watch in French and in German: the same drawing (its face), in each product's hue.
    let montre = picture(first_of("Montre %", 1).await).await;
    let uhr = picture(first_of("Uhr %", 2).await).await;
    const FACE: &str = r#"<circle cx="200" cy="200" r="78""#;
    assert!(montre.contains(FACE) && uhr.contains(FACE));
    // A belt and a dress are not watches, nor each other.
    let belt = picture(first_of("Ceinture %", 1).await).await;
    let dress = picture(first_of("Robe %", 1).await).await;
    assert!(!belt.contains(FACE) && !dress.contains(FACE));
    let shapes = |svg: &str| {
        svg.split("</rect>")
            .last()
            .unwrap_or("")
            .replace(|c: char| c.is_ascii_digit(), "")
    };
    assert_ne!(shapes(&belt), shapes(&dress));
    // A trip is a hotel.
    let trip: i64 = sqlx::query_scalar(
        "SELECT pr.id FROM products pr JOIN sales s ON s.id = pr.sale_id
          WHERE s.campaign_kind = 'TRAVEL' AND s.site_id = 3 ORDER BY pr.id LIMIT 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let hotel = picture(trip).await;
    assert!(hotel.contains(r#"<rect x="120" y="90" width="160" height="230""#));
    // A product the demo did not name, and one that does not exist: a parcel.
    sqlx::query("UPDATE products SET name = 'Article 42' WHERE id = $1")
        .bind(first_of("Robe %", 1).await)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let parcel = r#"<path d="M200 70 L320 130"#;
    assert!(picture(first_of("Article 42", 1).await)
        .await
        .contains(parcel));
    assert!(picture(99_999_999).await.contains(parcel));
    assert_eq!(t.get("/img/product/nope.svg").await.status(), 404);
}

/// `server prepare` (scripts/run.sh runs it while the tools install): a new data folder gets
/// its migrated database and the demo data, without the shop listening (its address is
/// taken here and the command still succeeds), and a second run finds it all there.
#[tokio::test(flavor = "multi_thread")]
async fn prepare_command_creates_the_demo_data_without_serving() {
    let dir = std::env::temp_dir().join(format!(
        "rosace-prepare-{}-{}",
        std::process::id(),
        app::platform::state::now()
    ));
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let prepare = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_server"))
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("ROSACE_DATA_DIR", &dir)
            .env("ROSACE_ADDR", &addr)
            .env("LEPTOS_SITE_ADDR", &addr)
            .env("RUST_LOG", "info")
            .arg("prepare")
            .output()
            .expect("run the server binary")
    };
    let first = prepare();
    let log = String::from_utf8_lossy(&first.stdout).into_owned();
    assert_eq!(
        first.status.code(),
        Some(0),
        "{log}{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(log.contains("demo data created"), "{log}");
    assert!(log.contains("prepared"), "{log}");
    assert!(!log.contains("listening"), "{log}");

    let url = format!("sqlite://{}/rosace.db", dir.display());
    let db = app::platform::db::Db::connect(&url, 1).await.unwrap();
    let count = |sql: &'static str| {
        let pool = db.pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>(sql)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    // Both demo members, on each of the 11 sites.
    assert_eq!(
        count("SELECT COUNT(DISTINCT email) FROM members WHERE email IN ('demo@rosace.test', 'demo2@rosace.test')").await,
        2
    );
    assert_eq!(
        count("SELECT COUNT(DISTINCT site_id) FROM members WHERE email = 'demo2@rosace.test'")
            .await,
        11
    );
    assert!(count("SELECT COUNT(*) FROM products").await > 100);
    assert!(count("SELECT COUNT(DISTINCT site_id) FROM sales").await >= 11);
    let products = count("SELECT COUNT(*) FROM products").await;
    db.pool.close().await;

    let again = prepare();
    let log = String::from_utf8_lossy(&again.stdout).into_owned();
    assert_eq!(again.status.code(), Some(0), "{log}");
    assert!(!log.contains("demo data created"), "{log}");
    let db = app::platform::db::Db::connect(&url, 1).await.unwrap();
    let after: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM products")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(after, products);
    db.pool.close().await;
    drop(taken);
    let _ = std::fs::remove_dir_all(&dir);
}
