//! `bench_seed`: prepares a shop's database for `scripts/bench/bench-cart.sh`, off the
//! server's start path. Run it after the server has started (and migrated) on the same
//! database: `DATABASE_URL` (or `ROSACE_DATA_DIR`) as for the server.
//!
//! Creates ROSACE_BENCH_SEED members (default 5000) of site 1 with live sessions and writes
//! one line per member to ROSACE_BENCH_SEED_FILE (default `$ROSACE_DATA_DIR/bench-sessions.txt`):
//! `member_id session_token xsrf`. The first line is `# options <scarce> <plenty>`: two
//! options of a live sale of site 1, with ROSACE_BENCH_STOCK units (default 100) and a
//! million units.
use std::io::Write;

use sqlx::Row;

type Error = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt().init();
    if let Err(e) = run().await {
        eprintln!("bench_seed: {e}");
        std::process::exit(1);
    }
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> Result<T, Error> {
    match std::env::var(name) {
        Ok(v) if !v.trim().is_empty() => v
            .trim()
            .parse()
            .map_err(|_| format!("{name}: cannot parse {v:?}").into()),
        _ => Ok(default),
    }
}

async fn run() -> Result<(), Error> {
    let config = server::config::Config::from_env("127.0.0.1:3000".parse()?)?;
    let n: usize = env_or("ROSACE_BENCH_SEED", 5000)?;
    let out_file: String = env_or(
        "ROSACE_BENCH_SEED_FILE",
        format!("{}/bench-sessions.txt", config.data_dir),
    )?;
    let db = app::platform::db::Db::connect(&config.database_url, 4).await?;
    let db = &db;
    let secret = server::startup::xsrf_secret(db).await?;
    let now = app::platform::state::now();
    let hash = app::platform::password::hash("Bench-password-2026")?;
    // Two options of products of a live sale of site 1: the scarce one gets
    // ROSACE_BENCH_STOCK units (default 100), the other a million.
    let sql = format!(
        "SELECT o.id FROM product_options o JOIN products p ON p.id = o.product_id JOIN sales s ON s.id = p.sale_id
          WHERE {} ORDER BY s.id, p.id, o.id LIMIT 20",
        app::platform::sql::LIVE_SALE
    );
    let rows = sqlx::query(&sql)
        .bind(1_i64)
        .bind(now)
        .fetch_all(&db.pool)
        .await?;
    let scarce: i64 = rows[0].try_get("id")?;
    let plenty: i64 = rows[rows.len() - 1].try_get("id")?;
    let units: i64 = env_or("ROSACE_BENCH_STOCK", 100)?;
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
    let mut out = std::io::BufWriter::new(std::fs::File::create(&out_file)?);
    writeln!(out, "# options {scarce} {plenty}")?;
    let mut tx = db.pool.begin().await?;
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
        let xsrf = app::platform::csrf::issue(&secret, &token_hash);
        writeln!(out, "{id} {token} {xsrf}")?;
    }
    tx.commit().await?;
    out.flush()?;
    tracing::info!(members = n, file = %out_file, "bench members and sessions created");
    Ok(())
}
