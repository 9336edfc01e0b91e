//! `bench_seed`: prepares a shop's database for the benches under `scripts/bench/`, off the
//! server's start path. Run it after the server has started (and migrated) on the same
//! database: `DATABASE_URL` (or `ROSACE_DATA_DIR`) as for the server.
//!
//! Creates ROSACE_BENCH_SEED members (default 5000) of site 1 with live sessions and a
//! delivery address (checkout pays only with one) and writes one line per member to
//! ROSACE_BENCH_SEED_FILE (default `$ROSACE_DATA_DIR/bench-sessions.txt`):
//! `member_id session_token xsrf`. The first line is `# options <scarce> <plenty>`: two
//! options of two products of a live sale of site 1, with ROSACE_BENCH_STOCK units (default
//! 100) and a million units.
//!
//! For a sale opening (`scripts/bench/bench-sale-opening.sh`):
//! - ROSACE_BENCH_OPENS_IN=S: once the members exist, the sale of those two options opens
//!   S seconds from now (its `starts_at`; it stays open for a day); unset, it is left live.
//! - ROSACE_BENCH_SALE_FILE=PATH: writes one line there,
//!   `sale <sale_id> <scarce_product> <plenty_product> <opens_at>` (`opens_at` in Unix
//!   seconds: the sale's `starts_at`).
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
    // Two options of two products of a live sale of site 1: the scarce one gets
    // ROSACE_BENCH_STOCK units (default 100), the other a million.
    let sql = format!(
        "SELECT o.id, o.product_id, p.sale_id FROM product_options o JOIN products p ON p.id = o.product_id
           JOIN sales s ON s.id = p.sale_id
          WHERE {} ORDER BY s.id, p.id, o.id LIMIT 20",
        app::platform::sql::LIVE_SALE
    );
    let rows = sqlx::query(&sql)
        .bind(1_i64)
        .bind(now)
        .fetch_all(&db.pool)
        .await?;
    let first = rows.first().ok_or("no live sale with options on site 1")?;
    let scarce: i64 = first.try_get("id")?;
    let scarce_product: i64 = first.try_get("product_id")?;
    let sale: i64 = first.try_get("sale_id")?;
    // The last of those options in the same sale, of another product.
    let mut plenty = (scarce, scarce_product);
    for r in &rows {
        let (o, p, s): (i64, i64, i64) = (
            r.try_get("id")?,
            r.try_get("product_id")?,
            r.try_get("sale_id")?,
        );
        if s == sale && p != scarce_product {
            plenty = (o, p);
        }
    }
    let (plenty, plenty_product) = plenty;
    if plenty == scarce {
        return Err(format!("sale {sale}: no second product with options").into());
    }
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
        // Checkout needs a delivery address (the member's favourite).
        sqlx::query(
            "INSERT INTO member_addresses (member_id, first_name, last_name, details, extras, zip_code, city, country, phone,
                                           is_favorite, created_at, updated_at)
             VALUES ($1, 'Bench', 'Member', '1 rue de la Paix', '', '75002', 'Paris', 'FR', '0612345678', 1, $2, $2)",
        )
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let xsrf = app::platform::csrf::issue(&secret, &token_hash);
        writeln!(out, "{id} {token} {xsrf}")?;
    }
    tx.commit().await?;
    out.flush()?;
    tracing::info!(members = n, file = %out_file, "bench members and sessions created");
    // The opening, set last so that seeding time does not eat into the wait.
    let mut opens_at = None;
    if let Ok(v) = std::env::var("ROSACE_BENCH_OPENS_IN") {
        if !v.trim().is_empty() {
            let secs: i64 = env_or("ROSACE_BENCH_OPENS_IN", 0)?;
            let at = app::platform::state::now() + secs;
            sqlx::query("UPDATE sales SET starts_at = $2, ends_at = $3 WHERE id = $1")
                .bind(sale)
                .bind(at)
                .bind(at + 86_400)
                .execute(&db.pool)
                .await?;
            tracing::info!(sale, opens_at = at, "the sale opens in {secs} s");
            opens_at = Some(at);
        }
    }
    if let Ok(path) = std::env::var("ROSACE_BENCH_SALE_FILE") {
        let opens_at = match opens_at {
            Some(at) => at,
            None => {
                sqlx::query_scalar("SELECT starts_at FROM sales WHERE id = $1")
                    .bind(sale)
                    .fetch_one(&db.pool)
                    .await?
            }
        };
        std::fs::write(
            &path,
            format!("sale {sale} {scarce_product} {plenty_product} {opens_at}\n"),
        )?;
    }
    Ok(())
}
