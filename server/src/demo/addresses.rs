//! Demo addresses: the first demo member has a favourite delivery address on
//! every site; the second one only on the smaller sites (Austria, Belgium, Luxembourg, the
//! Netherlands), so signing in as them on the others shows the checkout asking for one.
//! Added once per database (recorded in `app_meta`): addresses a tester deletes stay deleted.
use app::address::model::AddressRequest;
use app::address::rules::check_address;
use app::platform::db::Db;
use app::site::SITES;

use super::{DEMO_EMAIL, DEMO_EMAIL_2};

const DONE: &str = "demo_addresses";
/// Sites where the second demo member has an address.
const SECOND_MEMBER_SITES: [u16; 5] = [7, 70, 71, 73, 76];

/// (street and number, zip code, city, phone) of a site.
fn place(site_id: u16) -> (&'static str, &'static str, &'static str, &'static str) {
    match site_id {
        2 => ("Unter den Linden 5", "10117", "Berlin", "01711234567"),
        3 | 66 => ("Calle Mayor 10", "28013", "Madrid", "612345678"),
        4 | 69 => ("Via Dante 7", "20121", "Milano", "3123456789"),
        7 => ("Kärntner Straße 12", "1010", "Wien", "06641234567"),
        70 => ("Rue Neuve 20", "1000", "Bruxelles", "0470123456"),
        71 => ("Meir 50", "2000", "Antwerpen", "0470123456"),
        73 => ("3, Grand-Rue", "1660", "Luxembourg", "621123456"),
        76 => ("Damrak 1", "1012 LG", "Amsterdam", "0612345678"),
        _ => ("12 rue de la Paix", "75002", "Paris", "0612345678"),
    }
}

pub(super) async fn ensure(
    db: &Db,
    now: i64,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let done: Option<String> = sqlx::query_scalar("SELECT value FROM app_meta WHERE key = $1")
        .bind(DONE)
        .fetch_optional(&db.pool)
        .await?;
    if done.is_some() {
        return Ok(());
    }
    let mut tx = db.pool.begin().await?;
    for site in SITES.iter() {
        let members = [(DEMO_EMAIL, "Camille")].into_iter().chain(
            SECOND_MEMBER_SITES
                .contains(&site.site_id)
                .then_some((DEMO_EMAIL_2, "Louis")),
        );
        for (email, first_name) in members {
            let member: Option<i64> =
                sqlx::query_scalar("SELECT id FROM members WHERE site_id = $1 AND email = $2")
                    .bind(i64::from(site.site_id))
                    .bind(email)
                    .fetch_optional(&mut *tx)
                    .await?;
            let Some(member_id) = member else { continue };
            let (details, zip_code, city, phone) = place(site.site_id);
            // Through the rules, so demo rows are stored as a member's would be.
            let req = AddressRequest {
                first_name: first_name.into(),
                last_name: "Demo".into(),
                details: details.into(),
                zip_code: zip_code.into(),
                city: city.into(),
                phone: phone.into(),
                ..Default::default()
            };
            let valid = check_address(site.site_id, &req)
                .map_err(|e| format!("demo address of site {} refused: {e:?}", site.site_id))?;
            app::address::store::set_favorite(&mut tx, member_id, None).await?;
            app::address::store::insert(&mut tx, member_id, &valid, true, now).await?;
        }
    }
    sqlx::query("INSERT INTO app_meta (key, value) VALUES ($1, '1') ON CONFLICT (key) DO NOTHING")
        .bind(DONE)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}
