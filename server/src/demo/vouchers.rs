//! Demo vouchers on every site: ROSE10 (10 % off products), LIVRAISON (free shipping),
//! LIMIT1 (5 € off, one use in total), BIENVENUE (10 € off).
//! All demo rows live in this folder, the vouchers too.
use app::platform::db::Db;
use app::site::SITES;

// (code, kind, discount type, scope, value, per-member limit, total limit)
type Demo = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    i64,
    i64,
    Option<i64>,
);
const DEMO: [Demo; 4] = [
    ("ROSE10", "voucher", "PERCENT", "PRODUCT", 10, 3, None),
    (
        "LIVRAISON",
        "promotion",
        "PERCENT",
        "SHIPPING",
        100,
        5,
        None,
    ),
    ("LIMIT1", "voucher", "FIXED", "PRODUCT", 500, 1, Some(1)),
    ("BIENVENUE", "voucher", "FIXED", "PRODUCT", 1000, 1, None),
];

/// Adds the demo vouchers a site lacks, site by site in `SITES` order (ids come from the
/// database). Runs at every start, not only with a new `DEMO_VERSION`: a voucher already
/// there (and its use count) stays as it is.
pub(super) async fn ensure(db: &Db) -> Result<(), sqlx::Error> {
    for site in SITES.iter().map(|s| i64::from(s.site_id)) {
        for (code, kind, dtype, scope, value, per_member, total) in DEMO {
            sqlx::query(
                "INSERT INTO vouchers (site_id, code, kind, discount_type, scope, value, per_member_limit, total_limit)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (site_id, code) DO NOTHING",
            )
            .bind(site)
            .bind(code)
            .bind(kind)
            .bind(dtype)
            .bind(scope)
            .bind(value)
            .bind(per_member)
            .bind(total)
            .execute(&db.pool)
            .await?;
        }
    }
    Ok(())
}
