//! Bench only (ROSACE_BENCH_SEED=N): creates N members of site 1 with live sessions and
//! writes one line per member to ROSACE_BENCH_SEED_FILE: `member_id session_token xsrf`.
//! The first line is `# options <scarce> <plenty>`: two options of a live sale of site 1,
//! with ROSACE_BENCH_STOCK units (default 100) and a million units.
//! Never enabled unless the variable is set.
use std::io::Write;

use sqlx::Row;

use crate::AppCtx;

pub async fn seed(app: &AppCtx) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let n = app.config.bench_seed;
    if n == 0 {
        return Ok(());
    }
    let db = &app.state.db;
    let now = app::platform::state::now();
    let hash = app::platform::password::hash("Bench-password-2026")?;
    // Two options of products of a live sale of site 1: the scarce one gets
    // ROSACE_BENCH_STOCK units (default 100), the other a million.
    let rows = sqlx::query(
        "SELECT o.id FROM product_options o JOIN products p ON p.id = o.product_id JOIN sales s ON s.id = p.sale_id
          WHERE s.site_id = 1 AND s.starts_at <= $1 AND s.ends_at > $1 AND s.campaign_kind = 'DEFAULT'
          ORDER BY s.id, p.id, o.id LIMIT 20",
    )
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    let scarce: i64 = rows[0].try_get("id")?;
    let plenty: i64 = rows[rows.len() - 1].try_get("id")?;
    let units: i64 = std::env::var("ROSACE_BENCH_STOCK")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    for (id, stock) in [(scarce, units), (plenty, 1_000_000)] {
        sqlx::query("DELETE FROM cart_items WHERE option_id = $1")
            .bind(id)
            .execute(&db.pool)
            .await?;
        sqlx::query("UPDATE product_options SET stock = $2, held = 0, sold = 0 WHERE id = $1")
            .bind(id)
            .bind(stock)
            .execute(&db.pool)
            .await?;
    }
    let mut out = std::io::BufWriter::new(std::fs::File::create(&app.config.bench_seed_file)?);
    writeln!(out, "# options {scarce} {plenty}")?;
    let mut tx = db.pool.begin().await?;
    let secret = &app.state.settings.xsrf_secret;
    let run = rand::random::<u32>();
    for i in 0..n {
        let email = format!("bench-{run:08x}-{i}@rosace.test");
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO members (site_id, email, password_hash, civility, first_name, last_name, status, created_at, terms_version)
             VALUES (1, $1, $2, 0, 'Bench', 'Member', 1, $3, 99) RETURNING id",
        )
        .bind(&email)
        .bind(&hash)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        let token = app::platform::session::new_token();
        let token_hash = app::platform::session::hash_token(&token);
        let (idle, absolute) = app::platform::session::lifetimes(true);
        sqlx::query(
            "INSERT INTO sessions (token_hash, member_id, remember, created_at, last_seen_at, idle_expires_at, expires_at)
             VALUES ($1, $2, 1, $3, $3, $4, $5)",
        )
        .bind(&token_hash)
        .bind(id)
        .bind(now)
        .bind(now + idle)
        .bind(now + absolute)
        .execute(&mut *tx)
        .await?;
        let xsrf = app::platform::csrf::issue(secret, &token_hash);
        writeln!(out, "{id} {token} {xsrf}")?;
    }
    tx.commit().await?;
    out.flush()?;
    tracing::warn!(members = n, file = %app.config.bench_seed_file, "bench members and sessions created");
    Ok(())
}
