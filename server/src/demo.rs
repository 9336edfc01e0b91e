//! Demo data for all 11 sites, generated deterministically (no downloads): sales with
//! universes, products, options and stock, brands, homes, a demo member, travel offers.
//! Sale dates are moved relative to "now" at every start so the shop always has live sales.
use sqlx::{Any, Transaction};

use app::platform::db::Db;
use app::site::format::civil_from_unix;
use app::site::SITES;

/// Raised when the demo data gains rows: an existing database then gets the missing
/// ones at the next start (rows it already has, and everything else in it, stay as they are).
pub const DEMO_VERSION: &str = "2";
pub const DEMO_EMAIL: &str = "demo@rosace.test";
pub const DEMO_EMAIL_2: &str = "demo2@rosace.test";
pub const DEMO_PASSWORD: &str = "Rosace-demo-2026";
/// Sales per site (flash sales); sale #1 of each site has 48 products (catalog benchmark).
pub const SALES_PER_SITE: i64 = 24;
pub const TRAVEL_SALES_PER_SITE: i64 = 2;

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

struct Words {
    themes: [&'static str; 8],
    universes: [&'static str; 3],
    subs: [&'static str; 2],
    items: [&'static str; 12],
    description: &'static str,
    hotel: &'static str,
    packages: [&'static str; 2],
    cities: [(&'static str, &'static str); 3],
    home_highlight: &'static str,
    pedagogical: &'static str,
    /// Display name of the demo's named home ("summer").
    summer: &'static str,
    ped_subtitle: &'static str,
    ped_cta: &'static str,
    ped_cta2: &'static str,
    deals: &'static str,
    universe_title: &'static str,
}

fn words(lang: &str) -> Words {
    match lang {
        "de" => Words {
            themes: [
                "Damenmode",
                "Herrenmode",
                "Wohnen & Deko",
                "Beauty",
                "Sport",
                "Kinder",
                "Küche",
                "Technik",
            ],
            universes: ["Damen", "Herren", "Accessoires"],
            subs: ["Kleider", "Oberteile"],
            items: [
                "Kleid", "Hemd", "Pullover", "Jacke", "Jeans", "Sneaker", "Tasche", "Uhr", "Schal",
                "Mantel", "Rock", "Gürtel",
            ],
            description: "Ausgewählte Stücke zu Mitgliederpreisen, nur für kurze Zeit.",
            hotel: "Hotel",
            packages: ["Doppelzimmer", "Suite"],
            cities: [("BER", "Berlin"), ("MUC", "München"), ("FRA", "Frankfurt")],
            home_highlight: "Die Highlights des Tages",
            pedagogical: "So funktioniert's",
            summer: "Sommer-Special",
            ped_subtitle: "Aktionen von 3 bis 7 Tagen, Mitgliederpreise bis zu -70 %, direkt zu Ihnen geliefert.",
            ped_cta: "Entdecken",
            ped_cta2: "Freunde einladen",
            deals: "Schnäppchen",
            universe_title: "Unsere Welten",
        },
        "es" => Words {
            themes: [
                "Moda mujer",
                "Moda hombre",
                "Casa y deco",
                "Belleza",
                "Deporte",
                "Niños",
                "Cocina",
                "Tecnología",
            ],
            universes: ["Mujer", "Hombre", "Accesorios"],
            subs: ["Vestidos", "Tops"],
            items: [
                "Vestido",
                "Camisa",
                "Jersey",
                "Chaqueta",
                "Vaqueros",
                "Zapatillas",
                "Bolso",
                "Reloj",
                "Bufanda",
                "Abrigo",
                "Falda",
                "Cinturón",
            ],
            description: "Piezas seleccionadas a precios de socio, solo por tiempo limitado.",
            hotel: "Hotel",
            packages: ["Habitación doble", "Suite"],
            cities: [("MAD", "Madrid"), ("BCN", "Barcelona"), ("VLC", "Valencia")],
            home_highlight: "Lo mejor del día",
            pedagogical: "Cómo funciona",
            summer: "Especial verano",
            ped_subtitle: "Ventas de 3 a 7 días, precios para socios de hasta -70 %, entregadas en casa.",
            ped_cta: "Descubrir",
            ped_cta2: "Invitar a un amigo",
            deals: "Chollos",
            universe_title: "Nuestros universos",
        },
        "it" => Words {
            themes: [
                "Moda donna",
                "Moda uomo",
                "Casa e deco",
                "Bellezza",
                "Sport",
                "Bambini",
                "Cucina",
                "Tecnologia",
            ],
            universes: ["Donna", "Uomo", "Accessori"],
            subs: ["Abiti", "Top"],
            items: [
                "Abito", "Camicia", "Maglione", "Giacca", "Jeans", "Sneakers", "Borsa", "Orologio",
                "Sciarpa", "Cappotto", "Gonna", "Cintura",
            ],
            description: "Pezzi selezionati a prezzi riservati ai soci, solo per poco tempo.",
            hotel: "Hotel",
            packages: ["Camera doppia", "Suite"],
            cities: [("ROM", "Roma"), ("MIL", "Milano"), ("NAP", "Napoli")],
            home_highlight: "I migliori del giorno",
            pedagogical: "Come funziona",
            summer: "Speciale estate",
            ped_subtitle: "Vendite da 3 a 7 giorni, prezzi riservati fino al -70 %, consegnate a casa tua.",
            ped_cta: "Scopri",
            ped_cta2: "Invita un amico",
            deals: "Occasioni",
            universe_title: "I nostri mondi",
        },
        "nl" => Words {
            themes: [
                "Damesmode",
                "Herenmode",
                "Wonen & deco",
                "Beauty",
                "Sport",
                "Kinderen",
                "Keuken",
                "Tech",
            ],
            universes: ["Dames", "Heren", "Accessoires"],
            subs: ["Jurken", "Tops"],
            items: [
                "Jurk", "Overhemd", "Trui", "Jas", "Jeans", "Sneakers", "Tas", "Horloge", "Sjaal",
                "Mantel", "Rok", "Riem",
            ],
            description: "Geselecteerde stukken tegen ledenprijzen, slechts korte tijd.",
            hotel: "Hotel",
            packages: ["Tweepersoonskamer", "Suite"],
            cities: [
                ("AMS", "Amsterdam"),
                ("BRU", "Brussel"),
                ("EIN", "Eindhoven"),
            ],
            home_highlight: "Toppers van de dag",
            pedagogical: "Zo werkt het",
            summer: "Zomerspecial",
            ped_subtitle: "Acties van 3 tot 7 dagen, ledenprijzen tot -70 %, bij je thuis bezorgd.",
            ped_cta: "Ontdekken",
            ped_cta2: "Vriend uitnodigen",
            deals: "Koopjes",
            universe_title: "Onze werelden",
        },
        _ => Words {
            themes: [
                "Mode femme",
                "Mode homme",
                "Maison & déco",
                "Beauté",
                "Sport",
                "Enfants",
                "Cuisine",
                "High-tech",
            ],
            universes: ["Femme", "Homme", "Accessoires"],
            subs: ["Robes", "Hauts"],
            items: [
                "Robe", "Chemise", "Pull", "Veste", "Jean", "Baskets", "Sac", "Montre", "Écharpe",
                "Manteau", "Jupe", "Ceinture",
            ],
            description: "Des pièces choisies à prix membres, pour un temps limité.",
            hotel: "Hôtel",
            packages: ["Chambre double", "Suite"],
            cities: [("PAR", "Paris"), ("LYS", "Lyon"), ("MRS", "Marseille")],
            home_highlight: "Les immanquables du jour",
            pedagogical: "Comment ça marche",
            summer: "Spécial été",
            ped_subtitle: "Des ventes de 3 à 7 jours, des prix membres jusqu'à -70 %, livrées chez vous.",
            ped_cta: "Découvrir",
            ped_cta2: "Parrainer un ami",
            deals: "Bons plans",
            universe_title: "Nos univers",
        },
    }
}

const BRANDS: [&str; 30] = [
    "Maison Aurore",
    "Léna Paris",
    "Nordvik",
    "Casa Brava",
    "Vento",
    "Bellamare",
    "Oakridge",
    "Kira",
    "Atelier Nuit",
    "Sunfield",
    "Monte Bianco",
    "Piccolo",
    "Blauw",
    "Hanse & Co",
    "Soleado",
    "Rivage",
    "Urban Fox",
    "Terra",
    "Lumen",
    "Azahar",
    "Fjell",
    "Cortina",
    "Delta Sport",
    "Mira",
    "Velours",
    "Kobalt",
    "Zefiro",
    "Arbor",
    "Noa",
    "Opaline",
];
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

use app::text::slug::slug;

async fn insert(
    tx: &mut Transaction<'_, Any>,
    table: &str,
    cols: &[&str],
    rows: Vec<Vec<V>>,
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

fn day_key(unix: i64) -> String {
    let c = civil_from_unix(unix, 0);
    format!("{:04}-{:02}-{:02}", c.year, c.month, c.day)
}

/// Seeds the database (version recorded in `app_meta`); a database seeded by an older
/// version gets the rows it lacks. Then refreshes sale dates.
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
    refresh_dates(db, now).await?;
    Ok(())
}

/// Sales end between 10 hours and 7 days from now; travel sales run for weeks.
pub async fn refresh_dates(db: &Db, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE sales SET starts_at = $1 - 86400 * (1 + id % 3),
                          ends_at = $1 + 3600 * (10 + (id * 37) % 158) + 86400 * (CASE WHEN campaign_kind = 'TRAVEL' THEN 21 ELSE 0 END)",
    )
    .bind(now)
    .execute(&db.pool)
    .await?;
    Ok(())
}

async fn seed(db: &Db, now: i64) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut rng = Rng(0x005E_ED0F_2026);
    let mut tx = db.pool.begin().await?;
    let brands = BRANDS
        .iter()
        .enumerate()
        .map(|(i, b)| vec![V::I(i as i64 + 1), t(*b), t(slug(b))])
        .collect();
    insert(&mut tx, "brands", &["id", "name", "slug"], brands).await?;

    let (mut sales, mut universes, mut products, mut options) = (vec![], vec![], vec![], vec![]);
    let (mut homes, mut modules, mut banners) = (vec![], vec![], vec![]);
    let (mut packages, mut cities, mut durations, mut calendar) = (vec![], vec![], vec![], vec![]);
    for (site_index, site) in SITES.iter().enumerate() {
        let w = words(app::site::i18n::lang_of(site.locale));
        let base = (site_index as i64 + 1) * 1000;
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
            sales.push(vec![
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
                3
            } else if n == 0 {
                // More than one 48-item page: paging and "load more" have something to do.
                60
            } else {
                12
            };
            let top: Vec<i64> = (0..3).map(|u| sale_id * 10 + u).collect();
            for (u, uid) in top.iter().enumerate() {
                universes.push(vec![
                    V::I(*uid),
                    V::I(sale_id),
                    V::NullI,
                    t(w.universes[u]),
                    V::I(u as i64),
                ]);
            }
            for (s, sub) in w.subs.iter().enumerate() {
                universes.push(vec![
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
                let pname = if travel {
                    format!("{} {} {}", w.hotel, BRANDS[(pbrand - 1) as usize], k + 1)
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
                let (lat, lng) = if travel {
                    // Micro-degrees: integers travel the same way through SQLite and PostgreSQL.
                    (
                        V::I(36_000_000 + rng.below(2000) * 10_000),
                        V::I(-8_000_000 + rng.below(2500) * 10_000),
                    )
                } else {
                    (V::NullI, V::NullI)
                };
                products.push(vec![
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
                    lat,
                    lng,
                    V::I(k),
                ]);
                if travel {
                    for p in 0..2i64 {
                        let pkg = pid * 10 + p;
                        packages.push(vec![
                            V::I(pkg),
                            V::I(pid),
                            t(w.packages[p as usize]),
                            V::I(p),
                        ]);
                        for (c, (code, city)) in w.cities.iter().enumerate() {
                            let city_id = pkg * 10 + c as i64;
                            cities.push(vec![V::I(city_id), V::I(pkg), t(*code), t(*city)]);
                            for (d, (days, nights)) in [(4i64, 3i64), (8, 7)].iter().enumerate() {
                                let dprice = price * days / 4 + (p * 15_000) + c as i64 * 2_000;
                                durations.push(vec![
                                    V::I(city_id * 10 + d as i64),
                                    V::I(city_id),
                                    V::I(*days),
                                    V::I(*nights),
                                    V::I(dprice),
                                ]);
                            }
                            for day in 7..52i64 {
                                let dp = price + p * 15_000 + rng.below(40) * 500;
                                calendar.push(vec![
                                    V::I(city_id),
                                    t(day_key(now + day * 86_400)),
                                    V::I(dp),
                                    V::I(dp * 100 / 65),
                                    V::I(if day % 11 == 0 { 0 } else { 2 + rng.below(8) }),
                                ]);
                            }
                        }
                    }
                } else if n == 0 && k == product_count - 1 {
                    // The last unit of the first sale: what members race for at opening.
                    options.push(vec![
                        V::I(pid * 10),
                        V::I(pid),
                        t("size"),
                        t("TU"),
                        V::I(1),
                        V::I(0),
                    ]);
                } else {
                    let sizes = 3 + rng.below(4);
                    for j in 0..sizes {
                        let stock = if rng.below(6) == 0 {
                            0
                        } else {
                            1 + rng.below(20)
                        };
                        options.push(vec![
                            V::I(pid * 10 + j),
                            V::I(pid),
                            t("size"),
                            t(SIZES[j as usize]),
                            V::I(stock),
                            V::I(j),
                        ]);
                    }
                }
            }
        }
        // Homes: the default one, the travel one and a named one ("summer"), with modules
        // of every kind and banners in every tile size and layout. Home ids: base + 0, 1, 2.
        let site_id = i64::from(site.site_id);
        for (h, (name, display, kind)) in [
            ("default", "default", "DEFAULT"),
            ("travel", "travel", "TRAVEL"),
            ("summer", w.summer, "DEFAULT"),
        ]
        .iter()
        .enumerate()
        {
            let home_id = base + h as i64;
            homes.push(vec![
                V::I(home_id),
                V::I(site_id),
                t(*name),
                t(*display),
                t(*kind),
            ]);
        }
        let json = |v: serde_json::Value| v.to_string();
        let cta = |label: &str, link: &str| serde_json::json!({ "label": label, "link": link });
        // (home, kind, name, title, settings)
        let module_defs: [(i64, &str, &str, &str, String); 10] = [
            (
                base,
                "highlight",
                "highlights",
                w.home_highlight,
                "{}".into(),
            ),
            (
                base,
                "pedagogical",
                "pedagogy",
                w.pedagogical,
                json(serde_json::json!({
                    "subtitle": w.ped_subtitle,
                    "webTextColor": "#FFFFFF",
                    "backgroundColor": "#2B2D42",
                    "primaryButton": cta(w.ped_cta, "/gr/home/summer"),
                    "twoPerPage": true
                })),
            ),
            (base, "universe", "universes", w.universe_title, "{}".into()),
            // Every live sale of the site, as the flat grid.
            (
                base,
                "group",
                "sales",
                "",
                json(serde_json::json!({ "source": "liveSales" })),
            ),
            (base, "deal", "deals", w.deals, "{}".into()),
            (
                base,
                "text",
                "about",
                "",
                json(serde_json::json!({ "text": w.description })),
            ),
            (
                base + 2,
                "sectionBanner",
                "summer-banner",
                w.summer,
                "{}".into(),
            ),
            (
                base + 2,
                "pedagogical",
                "summer-pedagogy",
                w.pedagogical,
                json(serde_json::json!({
                    "subtitle": w.ped_subtitle,
                    "webTextColor": "#1D1D1F",
                    "backgroundColor": "#FFF4E0",
                    "primaryButton": cta(w.ped_cta, "/gr/home/default"),
                    "secondaryButton": cta(w.ped_cta2, "/gr/sponsorship")
                })),
            ),
            (
                base + 2,
                "subNavigationCategory",
                "summer-categories",
                w.universe_title,
                "{}".into(),
            ),
            (
                base + 2,
                "group",
                "summer-sales",
                w.home_highlight,
                "{}".into(),
            ),
        ];
        // (kind, sale n (0: none), size, layout, mobile image, link)
        type B = (
            &'static str,
            i64,
            &'static str,
            &'static str,
            bool,
            &'static str,
        );
        let banner_defs: [&[B]; 10] = [
            &[
                ("SaleBanner", 1, "MEGAFAT", "2x2", true, ""),
                ("HighlightBanner", 2, "XL", "2x1", true, ""),
                ("CampaignBanner", 3, "XXL", "1x2", true, ""),
                ("SaleBanner", 4, "M", "1x1", true, ""),
                // No mobile image: the banner filter drops it.
                ("SplittedBanner", 5, "M", "1x1", false, ""),
                ("SaleBanner", 6, "M", "1x1", true, ""),
            ],
            &[
                ("HighlightBanner", 7, "M", "1x1", true, ""),
                ("HighlightBanner", 8, "M", "1x1", true, ""),
                ("HighlightBanner", 9, "M", "1x1", true, ""),
            ],
            &[
                ("UniverseBanner", 0, "XL", "2x1", true, "/gr/home/summer"),
                ("UniverseBanner", 0, "XL", "2x1", true, "/home/travel"),
            ],
            &[],
            &[
                ("DealBanner", 12, "XL", "2x1", true, ""),
                ("DealBanner", 13, "M", "1x1", true, ""),
                ("MediaAdsBanner", 0, "M", "1x1", true, "/gr/sponsorship"),
            ],
            &[],
            &[("CampaignBanner", 14, "MEGAFAT", "2x2", true, "")],
            &[("HighlightBanner", 15, "M", "1x1", true, "")],
            &[
                ("ProductBanner", 16, "M", "1x1", true, "product"),
                ("ProductBanner", 17, "M", "1x1", true, "product"),
            ],
            &[
                ("SaleBanner", 18, "XXL", "1x2", true, ""),
                ("SaleBanner", 19, "XL", "2x1", true, ""),
                ("SaleBanner", 20, "M", "1x1", true, ""),
                ("SaleBanner", 21, "M", "1x1", true, ""),
            ],
        ];
        for (m, ((home_id, kind, name, title, settings), defs)) in
            module_defs.iter().zip(banner_defs).enumerate()
        {
            let module_id = base * 10 + m as i64;
            modules.push(vec![
                V::I(module_id),
                V::I(*home_id),
                t(*kind),
                t(*name),
                t(*title),
                t(settings.clone()),
                V::I(m as i64),
            ]);
            for (b, (banner_kind, n, size, layout, mobile, link)) in defs.iter().enumerate() {
                let b = b as i64;
                // Pictures of the sale (or of a sale of the site for sale-less banners).
                let picture = if *n > 0 { base + n } else { base + 10 + b };
                let sale = if *n > 0 { V::I(base + n) } else { V::NullI };
                let link = if *link == "product" {
                    format!("/product/{0}/{0}01", base + n)
                } else {
                    link.to_string()
                };
                let title = if *banner_kind == "MediaAdsBanner" {
                    w.ped_cta2.to_string()
                } else if *n == 0 {
                    w.themes[(b % 8) as usize].to_string()
                } else {
                    String::new()
                };
                banners.push(vec![
                    V::I(module_id * 100 + b),
                    V::I(module_id),
                    t(*banner_kind),
                    sale,
                    t(title),
                    t(format!("/img/sale/{picture}/banner.svg")),
                    t(if *mobile {
                        format!("/img/sale/{picture}/mobile.svg")
                    } else {
                        String::new()
                    }),
                    t(link),
                    t(*size),
                    t(*layout),
                    V::I(b),
                ]);
            }
        }
    }
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
        "homes",
        &["id", "site_id", "name", "display_name", "type"],
        homes,
    )
    .await?;
    insert(
        &mut tx,
        "home_modules",
        &[
            "id", "home_id", "kind", "name", "title", "settings", "position",
        ],
        modules,
    )
    .await?;
    insert(
        &mut tx,
        "banners",
        &[
            "id",
            "module_id",
            "kind",
            "sale_id",
            "title",
            "image_url",
            "mobile_image_url",
            "link",
            "tile_size",
            "layout",
            "position",
        ],
        banners,
    )
    .await?;
    insert(
        &mut tx,
        "travel_packages",
        &["id", "product_id", "title", "position"],
        packages,
    )
    .await?;
    insert(
        &mut tx,
        "travel_departure_cities",
        &["id", "package_id", "code", "name"],
        cities,
    )
    .await?;
    insert(
        &mut tx,
        "travel_durations",
        &["id", "city_id", "days", "nights", "price_cents"],
        durations,
    )
    .await?;
    insert(
        &mut tx,
        "travel_calendar",
        &[
            "city_id",
            "day",
            "price_cents",
            "reference_price_cents",
            "stock",
        ],
        calendar,
    )
    .await?;

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
                    V::I(now),
                ]
            })
        })
        .collect();
    insert(
        &mut tx,
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
