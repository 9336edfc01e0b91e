//! Brands, and per site the sales with their universes, products, size options and stock.
//! Travel sales draw their packages, departure cities and calendar among their products
//! (see `travel.rs`): the generator's draws follow the products in order.
use sqlx::{Any, Transaction};

use app::site::i18n::lang_of;
use app::site::SITES;
use app::text::slug::slug;

use super::travel::{city_name, destination_of, stay_name, Travel};
use super::words::{words, BRANDS};
use super::{
    insert, t, Rng, Rows, SALES_PER_SITE, TRAVEL_OFFERS_PER_SALE, TRAVEL_SALES_PER_SITE, V,
};

const OFFER_TYPES: [&str; 7] = [
    "FlashSale",
    "FlashSale",
    "SecondHand",
    "Marketplace",
    "Premium",
    "Vbi",
    "Rosace",
];
const SIZES: [&str; 6] = ["XS", "S", "M", "L", "XL", "XXL"];
const COLOURS: [&str; 6] = ["rouge", "bleu", "noir", "blanc", "vert", "rose"];

/// The catalog rows of every site, in the order they are inserted.
#[derive(Default)]
pub(super) struct Catalog {
    sales: Rows,
    universes: Rows,
    products: Rows,
    options: Rows,
}

/// Generates the catalog of all sites, and the travel rows of its travel sales.
pub(super) fn generate(rng: &mut Rng, now: i64) -> (Catalog, Travel) {
    let mut c = Catalog::default();
    let mut travel_rows = Travel::default();
    for (site_index, site) in SITES.iter().enumerate() {
        let lang = lang_of(site.locale);
        let w = words(lang);
        let base = (site_index as i64 + 1) * 1000;
        travel_rows.site(site_index, i64::from(site.site_id), lang);
        for n in 0..SALES_PER_SITE + TRAVEL_SALES_PER_SITE {
            let sale_id = base + n + 1;
            let travel = n >= SALES_PER_SITE;
            let brand = rng.below(30) + 1;
            let theme = w.themes[(n % 8) as usize];
            let name = if travel {
                format!(
                    "{} {} · {}",
                    w.hotel,
                    BRANDS[(brand - 1) as usize],
                    w.cities[(n % 3) as usize].1
                )
            } else {
                format!("{} · {theme}", BRANDS[(brand - 1) as usize])
            };
            c.sales.push(vec![
                V::I(sale_id),
                V::I(i64::from(site.site_id)),
                t(name.clone()),
                t(slug(&name)),
                t(if travel {
                    "FlashSale"
                } else {
                    OFFER_TYPES[(n % 7) as usize]
                }),
                t(if travel { "TRAVEL" } else { "DEFAULT" }),
                V::I(if n % 5 == 4 { 3 } else { 1 }),
                t(if n % 7 == 3 { "marketplace" } else { "fs" }),
                t(["ORDINARY", "PREMIUM", "ORDINARY", "SOON"][(n % 4) as usize]),
                t(w.description),
                t(format!("{} SAS", BRANDS[(brand - 1) as usize])),
                V::I(now - 86_400),
                V::I(now + 86_400),
                V::I(i64::from(travel)),
                V::I(i64::from(travel)),
                V::I(n),
            ]);
            let product_count = if travel {
                TRAVEL_OFFERS_PER_SALE
            } else if n == 0 {
                // More than one 48-item page: paging and "load more" have something to do.
                60
            } else {
                12
            };
            let top: Vec<i64> = (0..3).map(|u| sale_id * 10 + u).collect();
            for (u, uid) in top.iter().enumerate() {
                c.universes.push(vec![
                    V::I(*uid),
                    V::I(sale_id),
                    V::NullI,
                    t(w.universes[u]),
                    V::I(u as i64),
                ]);
            }
            for (s, sub) in w.subs.iter().enumerate() {
                c.universes.push(vec![
                    V::I(sale_id * 10 + 3 + s as i64),
                    V::I(sale_id),
                    V::I(top[0]),
                    t(*sub),
                    V::I(s as i64),
                ]);
            }
            for k in 0..product_count {
                let pid = sale_id * 100 + k + 1;
                let item = w.items[rng.below(12) as usize];
                let pbrand = if rng.below(3) == 0 {
                    rng.below(30) + 1
                } else {
                    brand
                };
                let dest = destination_of(site_index, n, k);
                let pname = if travel {
                    format!(
                        "{} {} · {}",
                        stay_name(lang, k),
                        BRANDS[(pbrand - 1) as usize],
                        city_name(lang, dest)
                    )
                } else {
                    format!("{item} {}", BRANDS[(pbrand - 1) as usize])
                };
                let retail = if travel {
                    40_000 + rng.below(120) * 1000
                } else {
                    2_000 + rng.below(180) * 100 - 1
                };
                let price = retail * (30 + rng.below(50)) / 100 / 10 * 10 + 9;
                let colour = COLOURS[rng.below(6) as usize];
                c.products.push(vec![
                    V::I(pid),
                    V::I(sale_id),
                    V::I(top[(k % 3) as usize]),
                    V::I(pbrand),
                    t(pname.clone()),
                    t(slug(&pname)),
                    t(colour),
                    t(format!(
                        "<p>{}</p><ul><li>{colour}</li></ul>",
                        w.description
                    )),
                    V::I(price),
                    V::I(retail),
                    V::I(rng.below(4)),
                    t(match k {
                        _ if k % 9 == 0 => "PREMIUM",
                        _ if k % 13 == 6 => "SOON",
                        _ => "ORDINARY",
                    }),
                    t(if n % 7 == 3 { "marketplace" } else { "fs" }),
                    // Item types in lists (spec 000 §3): Normal 1, Carrousel 7, Ad 10.
                    V::I(match (n, k) {
                        (0, 4) => 10,
                        (0, 7) => 7,
                        _ => 1,
                    }),
                    // Travel offers keep their coordinates in travel_offers.
                    V::NullI,
                    V::NullI,
                    V::I(k),
                ]);
                if travel {
                    travel_rows.product(&w, lang, site_index, dest, pid, k, price, retail, now);
                } else if n == 0 && k == product_count - 1 {
                    // The last unit of the first sale: what members race for at opening.
                    c.options.push(vec![
                        V::I(pid * 10),
                        V::I(pid),
                        t("size"),
                        t("TU"),
                        V::I(1),
                        V::I(0),
                        V::NullI,
                        V::NullI,
                    ]);
                } else {
                    let sizes = 3 + rng.below(4);
                    for j in 0..sizes {
                        let stock = if rng.below(6) == 0 {
                            0
                        } else {
                            1 + rng.below(20)
                        };
                        // Every fourth product's XXL costs more (coverage P9: an option's
                        // own price); XXL is last, so the page shows it only once chosen.
                        let own = k % 4 == 1 && j == 5;
                        let own_price = |cents: i64| if own { V::I(cents) } else { V::NullI };
                        c.options.push(vec![
                            V::I(pid * 10 + j),
                            V::I(pid),
                            t("size"),
                            t(SIZES[j as usize]),
                            V::I(stock),
                            V::I(j),
                            own_price(price + 500),
                            own_price(retail + 1000),
                        ]);
                    }
                }
            }
        }
    }
    (c, travel_rows)
}

impl Catalog {
    /// Inserts the brands, then the sales, universes, products and options.
    pub(super) async fn insert(self, tx: &mut Transaction<'_, Any>) -> Result<(), sqlx::Error> {
        let brands = BRANDS
            .iter()
            .enumerate()
            .map(|(i, b)| vec![V::I(i as i64 + 1), t(*b), t(slug(b))])
            .collect();
        insert(tx, "brands", &["id", "name", "slug"], brands).await?;
        insert(
            tx,
            "sales",
            &[
                "id",
                "site_id",
                "name",
                "slug",
                "offer_type",
                "campaign_kind",
                "catalog_type",
                "seller_kind",
                "tier",
                "description",
                "legal_merchant",
                "starts_at",
                "ends_at",
                "with_quotation_price",
                "with_map",
                "position",
            ],
            self.sales,
        )
        .await?;
        insert(
            tx,
            "universes",
            &["id", "sale_id", "parent_id", "title", "position"],
            self.universes,
        )
        .await?;
        insert(
            tx,
            "products",
            &[
                "id",
                "sale_id",
                "universe_id",
                "brand_id",
                "name",
                "slug",
                "color",
                "description_html",
                "price_cents",
                "retail_price_cents",
                "delivery_mode",
                "tier",
                "seller_kind",
                "item_type",
                "lat_e6",
                "lng_e6",
                "position",
            ],
            self.products,
        )
        .await?;
        insert(
            tx,
            "product_options",
            &[
                "id",
                "product_id",
                "kind",
                "label",
                "stock",
                "position",
                "price_cents",
                "retail_price_cents",
            ],
            self.options,
        )
        .await?;
        Ok(())
    }
}

/// The demo sales that ask for a theme (spec 000 §9): on every site, the third sale (a
/// second-hand one, from a recycling seller) is green "recycle" and the sixth black and
/// white. An UPDATE, so a database seeded before themes existed gets them too; a theme an
/// editor changed since is left alone.
pub(super) async fn ensure_themes(db: &app::platform::db::Db) -> Result<(), sqlx::Error> {
    for (position, theme) in [
        (THEMED_SALES[0], app::site::theme::RECYCLE),
        (THEMED_SALES[1], app::site::theme::BLACK_AND_WHITE),
    ] {
        sqlx::query(
            "UPDATE sales SET theme = $1
              WHERE campaign_kind = 'DEFAULT' AND theme = '' AND id % 1000 = $2",
        )
        .bind(theme)
        .bind(position)
        .execute(&db.pool)
        .await?;
    }
    Ok(())
}

/// The position on its site (sale id modulo 1000) of the recycle and the black-and-white sale.
pub const THEMED_SALES: [i64; 2] = [3, 6];
