//! The demo members: two per site, with the demo password (see `DEMO_PASSWORD`).
use sqlx::{Any, Transaction};

use app::site::SITES;

use super::{insert, t, Error, DEMO_EMAIL, DEMO_EMAIL_2, DEMO_PASSWORD, V};

/// Inserts the demo members, members for more than a year (a home's new-member overlay is
/// for a newly registered member); ids come from the database, in this order:
/// the first member of every site, then the second one of every site.
pub(super) async fn insert_all(tx: &mut Transaction<'_, Any>, now: i64) -> Result<(), Error> {
    let hash = app::platform::password::hash(DEMO_PASSWORD)?;
    // Two demo members per site (the second one to try what another member sees).
    let members = [(DEMO_EMAIL, "Camille", 2), (DEMO_EMAIL_2, "Louis", 1)]
        .iter()
        .flat_map(|(email, first_name, civility)| {
            let hash = hash.clone();
            SITES.iter().map(move |s| {
                vec![
                    V::I(i64::from(s.site_id)),
                    t(*email),
                    t(hash.clone()),
                    V::I(*civility),
                    t(*first_name),
                    t("Demo"),
                    V::I(1),
                    V::I(now - 400 * 86_400),
                ]
            })
        })
        .collect();
    insert(
        tx,
        "members",
        &[
            "site_id",
            "email",
            "password_hash",
            "civility",
            "first_name",
            "last_name",
            "status",
            "created_at",
        ],
        members,
    )
    .await?;
    Ok(())
}
