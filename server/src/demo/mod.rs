//! Demo data for all 11 sites, generated deterministically (no downloads): brands, sales
//! with universes, products, options and stock (`catalog`), travel offers (`travel`), homes
//! with modules and banners (`homes`), two demo members per site (`members`) and vouchers
//! (`vouchers`), in the words of each site's language (`words`). Demo rows for every area
//! live in this folder and nowhere else. Sale dates are moved relative to "now" at every
//! start so the shop always has live sales.
use sqlx::{Any, Transaction};

use app::platform::db::Db;

use crate::backoffice::audit::Actor;
use crate::backoffice::feed::{Feed, Ids, Input, PictureFiles, Run};

mod account;
mod addresses;
mod bundles;
mod catalog;
mod content;
mod home_extras;
mod homes;
mod intermediate;
mod marketing;
mod members;
mod operations;
mod rosedeals;
mod travel;
mod travel_words;
mod vouchers;
pub mod words;

/// Raised when the demo data gains rows: an existing database then gets the missing
/// ones at the next start (rows it already has, and everything else in it, stay as they are).
pub const DEMO_VERSION: &str = "10";
pub const DEMO_EMAIL: &str = "demo@rosace.test";
pub const DEMO_EMAIL_2: &str = "demo2@rosace.test";
pub const DEMO_PASSWORD: &str = "Rosace-demo-2026";
/// Sales per site (flash sales); sale #1 of each site has 60 products (more than one
/// 48-item page, for paging and the catalog benchmark).
pub const SALES_PER_SITE: i64 = 24;
/// Travel sales per site, of `TRAVEL_OFFERS_PER_SALE` offers each.
pub const TRAVEL_SALES_PER_SITE: i64 = 3;
pub const TRAVEL_OFFERS_PER_SALE: i64 = 12;

/// A small deterministic generator (xorshift64*), so every machine gets the same shop.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }
}

#[derive(Clone, Debug)]
enum V {
    I(i64),
    T(String),
    NullI,
}

fn t(s: impl Into<String>) -> V {
    V::T(s.into())
}

/// Rows of one table, each value in the order of the insert's columns.
type Rows = Vec<Vec<V>>;
type Error = Box<dyn std::error::Error + Send + Sync>;

/// Inserts `rows` in chunks, skipping rows already there (by any unique key).
async fn insert(
    tx: &mut Transaction<'_, Any>,
    table: &str,
    cols: &[&str],
    rows: Rows,
) -> Result<(), sqlx::Error> {
    let per_chunk = (10_000 / cols.len()).max(1);
    for chunk in rows.chunks(per_chunk) {
        let mut sql = format!("INSERT INTO {table} ({}) VALUES ", cols.join(", "));
        let mut n = 0;
        for (i, _) in chunk.iter().enumerate() {
            if i > 0 {
                sql.push_str(", ");
            }
            sql.push('(');
            for c in 0..cols.len() {
                if c > 0 {
                    sql.push_str(", ");
                }
                n += 1;
                sql.push_str(&format!("${n}"));
            }
            sql.push(')');
        }
        // Topping up an older demo database inserts only the rows it lacks.
        sql.push_str(" ON CONFLICT DO NOTHING");
        let mut q = sqlx::query(&sql);
        for row in chunk {
            for v in row {
                q = match v {
                    V::I(i) => q.bind(*i),
                    V::T(s) => q.bind(s.clone()),
                    V::NullI => q.bind(None::<i64>),
                };
            }
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Seeds the database (version recorded in `app_meta`); a database seeded by an older
/// version gets the rows it lacks. Then refreshes sale dates, and adds the demo vouchers
/// any site lacks.
pub async fn ensure(db: &Db, now: i64) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let seeded: Option<String> =
        sqlx::query_scalar("SELECT value FROM app_meta WHERE key = 'demo_version'")
            .fetch_optional(&db.pool)
            .await?;
    if seeded.as_deref() != Some(DEMO_VERSION) {
        let started = std::time::Instant::now();
        seed(db, now).await?;
        tracing::info!(
            ms = started.elapsed().as_millis() as u64,
            from = seeded.as_deref().unwrap_or("none"),
            to = DEMO_VERSION,
            "demo data created"
        );
    }
    rosedeals::ensure(db, now).await?;
    refresh_dates(db, now).await?;
    homes::ensure_themes(db).await?;
    vouchers::ensure(db).await?;
    operations::ensure(db, now).await?;
    account::ensure(db, now).await?;
    addresses::ensure(db, now).await?;
    content::ensure(db).await?;
    Ok(())
}

/// Sales end between 10 hours and 7 days from now; travel sales run for weeks. Only the
/// demo's own sales: those made in the back office keep their dates, and an archived sale
/// stays closed.
pub async fn refresh_dates(db: &Db, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE sales SET starts_at = $1 - 86400 * (1 + id % 3),
                          ends_at = $1 + 3600 * (10 + (id * 37) % 158) + 86400 * (CASE WHEN campaign_kind = 'TRAVEL' THEN 21 ELSE 0 END)
         WHERE id < $2 AND archived_at IS NULL",
    )
    .bind(now)
    .bind(crate::backoffice::sales::store::FIRST_OPERATOR_SALE_ID)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Brings the demo's catalogue in through the feed import, keeping the ids its refs name;
/// entries the shop already has stay as they are.
async fn import(db: &Db, feed: Feed, now: i64) -> Result<(), Error> {
    let actor = Actor {
        operator_id: None,
        email: "demo data".into(),
        ip: "local".into(),
    };
    let run = Run {
        dry_run: false,
        lang: "en",
        now,
        ids: Ids::FromRefs {
            brands: &words::BRANDS,
        },
    };
    let files = PictureFiles::Sent(Default::default());
    let outcome =
        crate::backoffice::feed::import(db, &actor, Input::Json(feed), files, run).await?;
    if !outcome.errors.is_empty() {
        return Err(format!(
            "the demo feed does not import: {}",
            outcome.errors.join("; ")
        )
        .into());
    }
    tracing::debug!(summary = outcome.summary(), "demo feed imported");
    Ok(())
}

/// The catalogue through the feed import, then the other demo rows in one transaction.
async fn seed(db: &Db, now: i64) -> Result<(), Error> {
    // One generator for the catalog; travel offers draw from it among their products, so
    // generating them apart would change every name, price and stock after the first one.
    let mut rng = Rng(0x005E_ED0F_2026);
    let (feed, mut travel) = catalog::generate(&mut rng, now);
    // The trips name their destinations, the site's geography: in first.
    let mut tx = db.pool.begin().await?;
    travel.insert_destinations(&mut tx).await?;
    tx.commit().await?;
    import(db, feed, now).await?;
    let mut tx = db.pool.begin().await?;
    homes::generate().insert(&mut tx).await?;
    travel.insert_departures(&mut tx).await?;
    members::insert_all(&mut tx, now).await?;
    // Each site shows every catalog layout (spec 000 §3 catalog sale types): its fourth
    // sale is one page (2), its fifth filtered (3), its seventh a filtered catalog (4).
    sqlx::query(
        "UPDATE sales SET catalog_type = CASE id % 1000 WHEN 4 THEN 2 WHEN 5 THEN 3 WHEN 7 THEN 4 ELSE 1 END
         WHERE id < $1 AND campaign_kind = 'DEFAULT'",
    )
    .bind(crate::backoffice::sales::store::FIRST_OPERATOR_SALE_ID)
    .execute(&mut *tx)
    .await?;
    marketing::insert(&mut tx).await?;
    intermediate::insert(&mut tx).await?;
    bundles::insert(&mut tx).await?;
    // Media-ads banners say their advertising type (spec 000 PUBLICITY, SPONSORED): the
    // sister brand's sites show a brand's sponsored banner, the others publicity.
    sqlx::query(
        "UPDATE banners SET advertising_type = CASE WHEN module_id IN
                (SELECT m.id FROM home_modules m JOIN homes h ON h.id = m.home_id WHERE h.site_id IN (66, 69))
              THEN 'SPONSORED' ELSE 'PUBLICITY' END
          WHERE kind = 'MediaAdsBanner'",
    )
    .execute(&mut *tx)
    .await?;
    home_extras::insert(&mut tx).await?;
    sqlx::query(
        "INSERT INTO app_meta (key, value) VALUES ('demo_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    )
    .bind(DEMO_VERSION)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generator_is_deterministic() {
        let (mut a, mut b) = (Rng(7), Rng(7));
        let xs: Vec<u64> = (0..5).map(|_| a.next()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs[0], xs[1]);
    }
}
