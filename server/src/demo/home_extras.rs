//! The homes' extras (spec 000 §3 "Home"): on every site the summer home has an
//! information toast, a new member's overlay, a sand background and a line for members, in
//! the site's language; the travel home does not report its scroll depth. The default
//! homes have none, as a shop's everyday home would.
use app::site::i18n::lang_of;
use app::site::SITES;
use sqlx::{Any, Transaction};

/// (toast, overlay title, overlay text, member information) in a language.
fn texts(lang: &str) -> [&'static str; 4] {
    match lang {
        "de" => [
            "Am Wochenende bestellt, am Montag verschickt.",
            "Willkommen bei uns",
            "Jeden Tag ab 7 Uhr neue Aktionen großer Marken, nur für wenige Tage. Was Sie in den Warenkorb legen, ist 15 Minuten für Sie reserviert.",
            "Ihre Sommeraktionen warten auf Sie.",
        ],
        "es" => [
            "Los pedidos del fin de semana salen el lunes.",
            "Bienvenido a nuestro club",
            "Cada día a partir de las 7:00, nuevas ventas de grandes marcas, solo durante unos días. Lo que añadas a la cesta queda reservado 15 minutos.",
            "tus ventas de verano te esperan.",
        ],
        "it" => [
            "Gli ordini del fine settimana partono lunedì.",
            "Benvenuto tra i nostri membri",
            "Ogni giorno dalle 7 nuove vendite di grandi brand, solo per pochi giorni. Ciò che metti nel carrello è riservato per te per 15 minuti.",
            "le tue vendite estive ti aspettano.",
        ],
        "nl" => [
            "Bestellingen van het weekend gaan maandag de deur uit.",
            "Welkom bij onze leden",
            "Elke dag vanaf 7 uur nieuwe acties van grote merken, maar een paar dagen lang. Wat je in je winkelwagen legt, is 15 minuten voor je gereserveerd.",
            "je zomeracties wachten op je.",
        ],
        _ => [
            "Les commandes du week-end partent lundi.",
            "Bienvenue parmi nos membres",
            "Chaque jour dès 7 h, de nouvelles ventes de grandes marques, pour quelques jours seulement. Ce que vous mettez au panier vous est réservé 15 minutes.",
            "vos ventes d'été vous attendent.",
        ],
    }
}

pub(super) async fn insert(tx: &mut Transaction<'_, Any>) -> Result<(), sqlx::Error> {
    for site in SITES.iter() {
        let [toast, title, text, member] = texts(lang_of(site.locale));
        sqlx::query(
            "UPDATE homes SET information_toast = $3, new_member_title = $4, new_member_text = $5,
                    background_theme = 'sand', member_information = $6
              WHERE site_id = $1 AND name = $2",
        )
        .bind(i64::from(site.site_id))
        .bind(super::homes::THEMED_HOME.0)
        .bind(toast)
        .bind(title)
        .bind(text)
        .bind(member)
        .execute(&mut **tx)
        .await?;
    }
    sqlx::query("UPDATE homes SET scroll_depth = 0 WHERE name = 'travel'")
        .execute(&mut **tx)
        .await?;
    Ok(())
}
