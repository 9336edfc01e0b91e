//! Rose deals on every site: one ROSEDEAL sale per site (id `site × 1000 +
//! 900`) of eight deals, each a partner brand's voucher (face value, price, validity,
//! stock) with one option the cart takes. Runs at every start, like the vouchers: a
//! database that lacks them gets them; rows already there (and their stock) stay.
use app::platform::db::Db;
use app::site::i18n::lang_of;
use app::site::SITES;
use app::text::slug::slug;

use super::{insert, t, Rows, V};

/// Offset of the rose-deals sale among a site's sale ids.
pub const SALE_OFFSET: i64 = 900;

/// (partner, face value in cents, price in cents, validity in days, stock)
const DEALS: [(&str, i64, i64, i64, i64); 8] = [
    ("Cinéma Lumière", 2_000, 1_000, 180, 120),
    ("Librairie Papyrus", 3_000, 1_500, 365, 80),
    ("Spa Azur", 5_000, 2_500, 180, 60),
    ("Café Moka", 2_000, 1_200, 90, 150),
    ("Voyages Alizé", 15_000, 9_000, 365, 25),
    ("Épicerie Olive", 4_000, 2_400, 120, 90),
    ("Sport Élan", 8_000, 4_800, 365, 40),
    ("Musique Tempo", 5_000, 3_000, 180, 70),
];

/// The sale's name and the word for a voucher, per language.
fn words(lang: &str) -> (&'static str, &'static str, &'static str) {
    match lang {
        "de" => (
            "Rose deals: Gutscheine unserer Partner",
            "Gutschein",
            "Kaufen Sie Gutscheine unserer Partnermarken unter ihrem Wert.",
        ),
        "es" => (
            "Rose deals: vales de nuestros socios",
            "vale",
            "Compre vales de nuestras marcas asociadas por menos de su valor.",
        ),
        "it" => (
            "Rose deals: buoni dei nostri partner",
            "buono",
            "Acquista i buoni dei nostri marchi partner a meno del loro valore.",
        ),
        "nl" => (
            "Rose deals: bonnen van onze partners",
            "bon",
            "Koop bonnen van onze partnermerken onder hun waarde.",
        ),
        _ => (
            "Rose deals : bons d'achat de nos partenaires",
            "bon d'achat",
            "Achetez les bons d'achat de nos marques partenaires sous leur valeur.",
        ),
    }
}

pub(super) async fn ensure(db: &Db, now: i64) -> Result<(), sqlx::Error> {
    let (mut sales, mut universes, mut products, mut options, mut deals): (
        Rows,
        Rows,
        Rows,
        Rows,
        Rows,
    ) = Default::default();
    for (site_index, site) in SITES.iter().enumerate() {
        let lang = lang_of(site.locale);
        let (sale_name, voucher, description) = words(lang);
        let sale_id = (site_index as i64 + 1) * 1000 + SALE_OFFSET;
        sales.push(vec![
            V::I(sale_id),
            V::I(i64::from(site.site_id)),
            t(sale_name),
            t(slug(sale_name)),
            t("Rosace"),
            t("ROSEDEAL"),
            t(description),
            t("Rosace SAS"),
            V::I(now - 86_400),
            V::I(now + 7 * 86_400),
            V::I(0),
        ]);
        let universe = sale_id * 10;
        universes.push(vec![
            V::I(universe),
            V::I(sale_id),
            V::NullI,
            t(sale_name),
            V::I(0),
        ]);
        for (k, (partner, face, price, days, stock)) in DEALS.iter().enumerate() {
            let pid = sale_id * 100 + k as i64 + 1;
            let name = format!(
                "{partner} · {voucher} {}",
                app::site::format::money(site.locale, *face)
            );
            products.push(vec![
                V::I(pid),
                V::I(sale_id),
                V::I(universe),
                t(name.clone()),
                t(slug(&name)),
                t(format!("<p>{description}</p>")),
                V::I(*price),
                V::I(*face),
                V::I(k as i64),
            ]);
            options.push(vec![
                V::I(pid * 10),
                V::I(pid),
                t("voucher"),
                t("TU"),
                V::I(*stock),
                V::I(0),
            ]);
            deals.push(vec![V::I(pid), t(*partner), V::I(*face), V::I(*days)]);
        }
    }
    let mut tx = db.pool.begin().await?;
    insert(
        &mut tx,
        "sales",
        &[
            "id",
            "site_id",
            "name",
            "slug",
            "offer_type",
            "campaign_kind",
            "description",
            "legal_merchant",
            "starts_at",
            "ends_at",
            "position",
        ],
        sales,
    )
    .await?;
    insert(
        &mut tx,
        "universes",
        &["id", "sale_id", "parent_id", "title", "position"],
        universes,
    )
    .await?;
    insert(
        &mut tx,
        "products",
        &[
            "id",
            "sale_id",
            "universe_id",
            "name",
            "slug",
            "description_html",
            "price_cents",
            "retail_price_cents",
            "position",
        ],
        products,
    )
    .await?;
    insert(
        &mut tx,
        "product_options",
        &["id", "product_id", "kind", "label", "stock", "position"],
        options,
    )
    .await?;
    insert(
        &mut tx,
        "rosedeal_deals",
        &["product_id", "partner", "face_value", "validity_days"],
        deals,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
