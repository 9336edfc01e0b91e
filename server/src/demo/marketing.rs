//! The sales' marketing (spec 000 §3 `marketing.banner`, `marketing.insert`): on each site,
//! the third sale has a banner and an insert, the sixth a banner only, in the site's
//! language; the others have none.
use app::site::i18n::lang_of;
use app::site::SITES;
use sqlx::{Any, Transaction};

/// (banner title, banner text, insert title, insert text) in a language.
fn texts(lang: &str) -> [&'static str; 4] {
    match lang {
        "de" => [
            "Versand gratis ab 2 Artikeln",
            "Nur in dieser Aktion, bis zu ihrem Ende.",
            "Neu in der Kollektion",
            "Die Stücke der Saison, solange der Vorrat reicht.",
        ],
        "es" => [
            "Envío gratis a partir de 2 artículos",
            "Solo en esta venta, hasta su cierre.",
            "Novedades de la colección",
            "Las piezas de la temporada, hasta agotar existencias.",
        ],
        "it" => [
            "Spedizione gratuita da 2 articoli",
            "Solo in questa vendita, fino alla sua chiusura.",
            "Novità della collezione",
            "I pezzi della stagione, fino a esaurimento scorte.",
        ],
        "nl" => [
            "Gratis verzending vanaf 2 artikelen",
            "Alleen in deze actie, tot het einde ervan.",
            "Nieuw in de collectie",
            "De stukken van het seizoen, zolang de voorraad strekt.",
        ],
        _ => [
            "Livraison offerte dès 2 articles",
            "Dans cette vente seulement, jusqu'à sa fin.",
            "Nouveautés de la collection",
            "Les pièces de la saison, dans la limite des stocks.",
        ],
    }
}

pub(super) async fn insert(tx: &mut Transaction<'_, Any>) -> Result<(), sqlx::Error> {
    for site in SITES.iter() {
        let [banner_title, banner_text, insert_title, insert_text] = texts(lang_of(site.locale));
        // The site's nth demo sale by `id % 1000`, as the catalog layouts pick theirs.
        for (nth, with_insert) in [(3i64, true), (6, false)] {
            let (title, text) = if with_insert {
                (insert_title, insert_text)
            } else {
                ("", "")
            };
            sqlx::query(
                "UPDATE sales SET marketing_banner_title = $3, marketing_banner_text = $4,
                        marketing_insert_title = $5, marketing_insert_text = $6
                  WHERE site_id = $1 AND id % 1000 = $2 AND id < $7 AND campaign_kind = 'DEFAULT'",
            )
            .bind(i64::from(site.site_id))
            .bind(nth)
            .bind(banner_title)
            .bind(banner_text)
            .bind(title)
            .bind(text)
            .bind(crate::backoffice::sales::store::FIRST_OPERATOR_SALE_ID)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}
