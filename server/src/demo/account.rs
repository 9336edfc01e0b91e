//! Demo rows of the member account: two live promotions per site, and for
//! each demo member a personal voucher plus a participation in the welcome voucher, so
//! the vouchers page has both lists. Run at every start like the vouchers: what is there
//! stays; the promotions' dates move with "now" so they are always live.
use app::platform::db::Db;
use app::site::SITES;

use super::{DEMO_EMAIL, DEMO_EMAIL_2};

const DAY: i64 = 86_400;

// (code, discount type, scope, value, days left)
const PROMOTIONS: [(&str, &str, &str, i64, i64); 2] = [
    ("ETE20", "PERCENT", "PRODUCT", 20, 30),
    ("FLASH5", "FIXED", "PRODUCT", 500, 7),
];

pub(super) async fn ensure(db: &Db, now: i64) -> Result<(), sqlx::Error> {
    for site in SITES.iter().map(|s| i64::from(s.site_id)) {
        for (code, dtype, scope, value, days) in PROMOTIONS {
            sqlx::query(
                "INSERT INTO vouchers (site_id, code, kind, discount_type, scope, value, per_member_limit, total_limit)
                 VALUES ($1, $2, 'promotion', $3, $4, $5, 1, NULL) ON CONFLICT (site_id, code) DO NOTHING",
            )
            .bind(site)
            .bind(code)
            .bind(dtype)
            .bind(scope)
            .bind(value)
            .execute(&db.pool)
            .await?;
            sqlx::query(
                "UPDATE vouchers SET valid_from = $3, valid_until = $4 WHERE site_id = $1 AND code = $2",
            )
            .bind(site)
            .bind(code)
            .bind(now - DAY)
            .bind(now + days * DAY)
            .execute(&db.pool)
            .await?;
        }
    }
    let members: Vec<(i64, i64)> =
        sqlx::query_as("SELECT id, site_id FROM members WHERE email = $1 OR email = $2")
            .bind(DEMO_EMAIL)
            .bind(DEMO_EMAIL_2)
            .fetch_all(&db.pool)
            .await?;
    for (member_id, site_id) in members {
        let code = format!("MERCI{member_id}");
        sqlx::query(
            "INSERT INTO vouchers (site_id, code, kind, discount_type, scope, value, per_member_limit, total_limit, personal, valid_until)
             VALUES ($1, $2, 'voucher', 'FIXED', 'PRODUCT', 1500, 1, 1, 1, $3) ON CONFLICT (site_id, code) DO NOTHING",
        )
        .bind(site_id)
        .bind(&code)
        .bind(now + 60 * DAY)
        .execute(&db.pool)
        .await?;
        for granted in [code.as_str(), "BIENVENUE"] {
            sqlx::query(
                "INSERT INTO voucher_participations (member_id, voucher_id, created_at)
                 SELECT $1, id, $3 FROM vouchers WHERE site_id = $2 AND code = $4
                 ON CONFLICT (member_id, voucher_id) DO NOTHING",
            )
            .bind(member_id)
            .bind(site_id)
            .bind(now)
            .bind(granted)
            .execute(&db.pool)
            .await?;
        }
    }
    Ok(())
}
