//! Sales with an intermediate step (spec 000 §3 `legal.productsListingCgu`,
//! `app::catalog::gate`): on every site the eleventh sale, a marketplace one, asks members
//! to accept its listing conditions before its catalog, in the site's language.
use app::site::i18n::lang_of;
use app::site::SITES;
use sqlx::{Any, Transaction};

/// The demo sale of each site with the step, by `id % 1000`.
pub const NTH: i64 = 11;

fn conditions(lang: &str) -> &'static str {
    match lang {
        "de" => "Die Artikel dieser Aktion werden von einem Partnerhändler verkauft und versandt, der auch für Rückgaben und Garantie zuständig ist.\n\nRückgaben sind innerhalb von 14 Tagen nach Erhalt möglich; die Erstattung erfolgt über dasselbe Zahlungsmittel.",
        "es" => "Los artículos de esta venta los vende y envía un vendedor asociado, que también se encarga de las devoluciones y la garantía.\n\nLas devoluciones son posibles en los 14 días siguientes a la recepción; el reembolso se hace con el mismo medio de pago.",
        "it" => "Gli articoli di questa vendita sono venduti e spediti da un venditore partner, che si occupa anche di resi e garanzia.\n\nI resi sono possibili entro 14 giorni dal ricevimento; il rimborso avviene con lo stesso mezzo di pagamento.",
        "nl" => "De artikelen van deze actie worden verkocht en verzonden door een partnerverkoper, die ook retouren en garantie afhandelt.\n\nRetourneren kan binnen 14 dagen na ontvangst; de terugbetaling gebeurt via hetzelfde betaalmiddel.",
        _ => "Les articles de cette vente sont vendus et expédiés par un vendeur partenaire, qui se charge aussi des retours et de la garantie.\n\nLes retours sont possibles dans les 14 jours suivant la réception ; le remboursement se fait par le même moyen de paiement.",
    }
}

pub(super) async fn insert(tx: &mut Transaction<'_, Any>) -> Result<(), sqlx::Error> {
    for site in SITES.iter() {
        sqlx::query(
            "UPDATE sales SET products_listing_cgu = $3
              WHERE site_id = $1 AND id % 1000 = $2 AND id < $4 AND campaign_kind = 'DEFAULT'",
        )
        .bind(i64::from(site.site_id))
        .bind(NTH)
        .bind(conditions(lang_of(site.locale)))
        .bind(crate::backoffice::sales::store::FIRST_OPERATOR_SALE_ID)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}
