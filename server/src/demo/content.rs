//! Demo landing pages (`/l/{slug}`): on every site, in its language, one page
//! showing the site's live sales and one showing the items of the brand with the most
//! items in them, and a gift ideas page (the site's premium sales, the menu's gifts
//! entry). Runs at every start: a page already there stays as it is (it only gets
//! its translation key when it had none).
use app::platform::db::Db;
use app::site::{i18n, SITES};

/// The gift ideas page's selection: the site's live premium sales.
const GIFTS_OFFER_TYPE: &str = "Premium";

/// A landing page's words in one language: slug, heading, SEO title and description,
/// blocks (heading, text) and footer paragraphs. `{brand}` is the site's brand.
struct Words {
    slug: &'static str,
    heading: &'static str,
    title: &'static str,
    description: &'static str,
    blocks: [(&'static str, &'static str); 2],
    footer: [&'static str; 2],
}

fn sales_page(lang: &str) -> Words {
    match lang {
        "de" => Words {
            slug: "aktionen-der-woche",
            heading: "Die Aktionen der Woche",
            title: "Markenmode und Reisen zu Aktionspreisen",
            description: "Die laufenden Aktionen von {brand}: Marken bis zu 70 % günstiger, nur für Mitglieder und nur für wenige Tage.",
            blocks: [
                ("Jeden Tag neue Aktionen", "Jeden Morgen um 7 Uhr öffnen neue Aktionen: Mode, Haus, Beauty, Sport und Reisen. Jede läuft nur wenige Tage, solange der Vorrat reicht."),
                ("So funktioniert es", "Die Mitgliedschaft ist kostenlos. Legen Sie Artikel in den Warenkorb, sie bleiben für Sie reserviert, während Sie weiter stöbern."),
            ],
            footer: [
                "{brand} verkauft Marken zu Aktionspreisen in zeitlich begrenzten Aktionen, die nur Mitgliedern offenstehen.",
                "Lieferung nach Hause oder an eine Abholstelle; Rücksendung innerhalb von 14 Tagen über Ihr Konto.",
            ],
        },
        "es" => Words {
            slug: "ventas-de-la-semana",
            heading: "Las ventas de la semana",
            title: "Moda de marca y viajes a precios de venta privada",
            description: "Las ventas en curso de {brand}: marcas hasta un 70 % más baratas, solo para socios y solo durante unos días.",
            blocks: [
                ("Ventas nuevas cada día", "Cada mañana a las 7 abren ventas nuevas: moda, hogar, belleza, deporte y viajes. Cada una dura pocos días, hasta agotar existencias."),
                ("Cómo funciona", "Hacerse socio es gratis. Añade artículos a la cesta: quedan reservados para ti mientras sigues mirando."),
            ],
            footer: [
                "{brand} vende marcas a precios reducidos en ventas de duración limitada, abiertas solo a sus socios.",
                "Entrega a domicilio o en punto de recogida; devolución en 14 días desde tu cuenta.",
            ],
        },
        "it" => Words {
            slug: "vendite-della-settimana",
            heading: "Le vendite della settimana",
            title: "Moda di marca e viaggi a prezzi da vendita privata",
            description: "Le vendite in corso su {brand}: marchi fino al 70 % in meno, solo per i soci e solo per pochi giorni.",
            blocks: [
                ("Nuove vendite ogni giorno", "Ogni mattina alle 7 aprono nuove vendite: moda, casa, bellezza, sport e viaggi. Ognuna dura pochi giorni, fino a esaurimento scorte."),
                ("Come funziona", "L'iscrizione è gratuita. Aggiungi gli articoli al carrello: restano riservati per te mentre continui a guardare."),
            ],
            footer: [
                "{brand} vende marchi a prezzi scontati in vendite a tempo limitato, riservate ai soci.",
                "Consegna a domicilio o in un punto di ritiro; reso entro 14 giorni dal tuo account.",
            ],
        },
        "nl" => Words {
            slug: "verkopen-van-de-week",
            heading: "De verkopen van de week",
            title: "Merkmode en reizen tegen ledenprijzen",
            description: "De lopende verkopen van {brand}: merken tot 70 % goedkoper, alleen voor leden en maar een paar dagen.",
            blocks: [
                ("Elke dag nieuwe verkopen", "Elke ochtend om 7 uur openen nieuwe verkopen: mode, wonen, beauty, sport en reizen. Elke verkoop duurt een paar dagen, zolang de voorraad strekt."),
                ("Zo werkt het", "Lid worden is gratis. Leg artikelen in je winkelwagen: ze blijven voor je gereserveerd terwijl je verder kijkt."),
            ],
            footer: [
                "{brand} verkoopt merken tegen verlaagde prijzen in verkopen van beperkte duur, alleen voor leden.",
                "Bezorging thuis of bij een afhaalpunt; retour binnen 14 dagen via je account.",
            ],
        },
        _ => Words {
            slug: "ventes-de-la-semaine",
            heading: "Les ventes de la semaine",
            title: "Mode de marque et voyages à prix de vente privée",
            description: "Les ventes en cours sur {brand} : des marques jusqu'à -70 %, réservées aux membres et pour quelques jours seulement.",
            blocks: [
                ("De nouvelles ventes chaque jour", "Chaque matin à 7 h, de nouvelles ventes ouvrent : mode, maison, beauté, sport et voyages. Chacune dure quelques jours, dans la limite des stocks."),
                ("Comment ça marche", "L'inscription est gratuite. Ajoutez des articles au panier : ils vous sont réservés pendant que vous continuez vos achats."),
            ],
            footer: [
                "{brand} vend des marques à prix réduits lors de ventes à durée limitée, réservées à ses membres.",
                "Livraison à domicile ou en point relais ; retour sous 14 jours depuis votre compte.",
            ],
        },
    }
}

fn brand_page(lang: &str) -> Words {
    match lang {
        "de" => Words {
            slug: "marke-im-fokus",
            heading: "Marke im Fokus",
            title: "Eine Marke, alle ihre Artikel in unseren Aktionen",
            description: "Alle Artikel einer beliebten Marke in den laufenden Aktionen von {brand}, zu Mitgliederpreisen.",
            blocks: [
                ("Ausgewählt für Sie", "Diese Woche stellen wir die Marke mit den meisten Artikeln in unseren Aktionen vor: alle Größen und Farben auf einer Seite."),
                ("Solange der Vorrat reicht", "Die Mengen sind begrenzt: Ein Artikel im Warenkorb ist für einige Minuten für Sie reserviert."),
            ],
            footer: [
                "Markenartikel zu Aktionspreisen, ausgewählt von den Einkäufern von {brand}.",
                "Originalware, direkt von der Marke oder ihrem Vertriebspartner.",
            ],
        },
        "es" => Words {
            slug: "marca-destacada",
            heading: "Marca destacada",
            title: "Una marca, todos sus artículos en nuestras ventas",
            description: "Todos los artículos de una marca popular en las ventas en curso de {brand}, a precio de socio.",
            blocks: [
                ("Elegida para ti", "Esta semana destacamos la marca con más artículos en nuestras ventas: todas las tallas y colores en una sola página."),
                ("Hasta agotar existencias", "Las cantidades son limitadas: un artículo en la cesta queda reservado para ti durante unos minutos."),
            ],
            footer: [
                "Artículos de marca a precios de venta privada, seleccionados por los compradores de {brand}.",
                "Productos originales, directamente de la marca o de su distribuidor.",
            ],
        },
        "it" => Words {
            slug: "marchio-in-evidenza",
            heading: "Marchio in evidenza",
            title: "Un marchio, tutti i suoi articoli nelle nostre vendite",
            description: "Tutti gli articoli di un marchio amato nelle vendite in corso su {brand}, a prezzo soci.",
            blocks: [
                ("Scelto per te", "Questa settimana mettiamo in evidenza il marchio con più articoli nelle nostre vendite: tutte le taglie e i colori in una pagina."),
                ("Fino a esaurimento scorte", "Le quantità sono limitate: un articolo nel carrello resta riservato per te per qualche minuto."),
            ],
            footer: [
                "Articoli di marca a prezzi da vendita privata, scelti dai buyer di {brand}.",
                "Prodotti originali, direttamente dal marchio o dal suo distributore.",
            ],
        },
        "nl" => Words {
            slug: "merk-in-de-kijker",
            heading: "Merk in de kijker",
            title: "Eén merk, al zijn artikelen in onze verkopen",
            description: "Alle artikelen van een geliefd merk in de lopende verkopen van {brand}, tegen ledenprijzen.",
            blocks: [
                ("Voor jou gekozen", "Deze week zetten we het merk met de meeste artikelen in onze verkopen in de kijker: alle maten en kleuren op één pagina."),
                ("Zolang de voorraad strekt", "De aantallen zijn beperkt: een artikel in je winkelwagen blijft een paar minuten voor je gereserveerd."),
            ],
            footer: [
                "Merkartikelen tegen ledenprijzen, gekozen door de inkopers van {brand}.",
                "Originele producten, rechtstreeks van het merk of zijn verdeler.",
            ],
        },
        _ => Words {
            slug: "marque-a-la-une",
            heading: "La marque à la une",
            title: "Une marque, tous ses articles en vente privée",
            description: "Tous les articles d'une marque appréciée dans les ventes en cours sur {brand}, au prix membre.",
            blocks: [
                ("Choisie pour vous", "Cette semaine, nous mettons en avant la marque qui compte le plus d'articles dans nos ventes : toutes les tailles et couleurs sur une page."),
                ("Dans la limite des stocks", "Les quantités sont limitées : un article ajouté au panier vous est réservé quelques minutes."),
            ],
            footer: [
                "Des articles de marque à prix de vente privée, choisis par les acheteurs de {brand}.",
                "Des produits authentiques, venus directement de la marque ou de son distributeur.",
            ],
        },
    }
}

fn gifts_page(lang: &str) -> Words {
    match lang {
        "de" => Words {
            slug: "geschenkideen",
            heading: "Geschenkideen",
            title: "Geschenkideen: Premium-Marken zu Mitgliederpreisen",
            description: "Geschenkideen bei {brand}: Premium-Marken, Mode, Beauty und Wohnen zu Aktionspreisen, für jeden Anlass und jedes Budget.",
            blocks: [
                ("Ein Geschenk für jeden Anlass", "Geburtstag, Hochzeit, Weihnachten oder einfach so: Unsere Premium-Aktionen vereinen Marken, die Freude machen, von Accessoires bis zu Beauty-Sets."),
                ("Schenken ohne Stress", "Wählen Sie eine Lieferung direkt an die beschenkte Person oder an eine Abholstelle. Passt die Größe nicht, ist die Rücksendung innerhalb von 14 Tagen über Ihr Konto möglich."),
            ],
            footer: [
                "Die Geschenkideen von {brand} stammen aus den laufenden Premium-Aktionen, nur für Mitglieder und nur für wenige Tage.",
                "Die Mengen sind begrenzt: Ein Artikel im Warenkorb ist für einige Minuten für Sie reserviert.",
            ],
        },
        "es" => Words {
            slug: "ideas-regalo",
            heading: "Ideas de regalo",
            title: "Ideas de regalo: marcas premium a precio de socio",
            description: "Ideas de regalo en {brand}: marcas premium de moda, belleza y hogar a precios de venta privada, para cada ocasión y cada presupuesto.",
            blocks: [
                ("Un regalo para cada ocasión", "Cumpleaños, boda, Navidad o porque sí: nuestras ventas premium reúnen marcas que hacen ilusión, de los accesorios a los estuches de belleza."),
                ("Regalar sin complicaciones", "Elige la entrega en casa de la persona a la que regalas o en un punto de recogida. Si la talla no es la buena, puedes devolverlo en 14 días desde tu cuenta."),
            ],
            footer: [
                "Las ideas de regalo de {brand} proceden de las ventas premium en curso, solo para socios y solo durante unos días.",
                "Las cantidades son limitadas: un artículo en la cesta queda reservado para ti durante unos minutos.",
            ],
        },
        "it" => Words {
            slug: "idee-regalo",
            heading: "Idee regalo",
            title: "Idee regalo: marchi premium a prezzo soci",
            description: "Idee regalo su {brand}: marchi premium di moda, bellezza e casa a prezzi da vendita privata, per ogni occasione e ogni budget.",
            blocks: [
                ("Un regalo per ogni occasione", "Compleanno, matrimonio, Natale o senza un motivo: le nostre vendite premium riuniscono marchi che fanno piacere, dagli accessori ai cofanetti di bellezza."),
                ("Regalare senza pensieri", "Scegli la consegna a casa della persona che riceve il regalo o in un punto di ritiro. Se la taglia non va bene, il reso è possibile entro 14 giorni dal tuo account."),
            ],
            footer: [
                "Le idee regalo di {brand} vengono dalle vendite premium in corso, riservate ai soci e solo per pochi giorni.",
                "Le quantità sono limitate: un articolo nel carrello resta riservato per te per qualche minuto.",
            ],
        },
        "nl" => Words {
            slug: "cadeau-ideeen",
            heading: "Cadeau-ideeën",
            title: "Cadeau-ideeën: premiummerken tegen ledenprijzen",
            description: "Cadeau-ideeën bij {brand}: premiummerken in mode, beauty en wonen tegen verlaagde prijzen, voor elke gelegenheid en elk budget.",
            blocks: [
                ("Een cadeau voor elke gelegenheid", "Verjaardag, huwelijk, Sinterklaas, Kerstmis of zomaar: onze premiumverkopen brengen merken samen die plezier geven, van accessoires tot beautysets."),
                ("Zorgeloos cadeau geven", "Laat het pakje rechtstreeks bij de ontvanger of bij een afhaalpunt bezorgen. Past de maat niet, dan stuur je het binnen 14 dagen terug via je account."),
            ],
            footer: [
                "De cadeau-ideeën van {brand} komen uit de lopende premiumverkopen, alleen voor leden en maar een paar dagen.",
                "De aantallen zijn beperkt: een artikel in je winkelwagen blijft een paar minuten voor je gereserveerd.",
            ],
        },
        _ => Words {
            slug: "idees-cadeaux",
            heading: "Idées cadeaux",
            title: "Idées cadeaux : des marques premium au prix membre",
            description: "Les idées cadeaux de {brand} : des marques premium de mode, beauté et maison à prix de vente privée, pour chaque occasion et chaque budget.",
            blocks: [
                ("Un cadeau pour chaque occasion", "Anniversaire, mariage, Noël ou simple envie de faire plaisir : nos ventes premium réunissent des marques qui font mouche, des accessoires aux coffrets beauté."),
                ("Offrir sans souci", "Faites livrer directement chez la personne à qui vous offrez, ou en point relais. Si la taille ne convient pas, le retour est possible sous 14 jours depuis votre compte."),
            ],
            footer: [
                "Les idées cadeaux de {brand} sont choisies dans les ventes premium en cours, réservées aux membres et pour quelques jours seulement.",
                "Les quantités sont limitées : un article ajouté au panier vous est réservé quelques minutes.",
            ],
        },
    }
}

/// Adds the demo landing pages a site lacks.
pub(super) async fn ensure(db: &Db) -> Result<(), sqlx::Error> {
    for site in SITES {
        let site_id = i64::from(site.site_id);
        let lang = i18n::lang_of(site.locale);
        let brand = site.brand.name();
        // The brand with the most items in the site's flash sales.
        let brand_id: Option<i64> = sqlx::query_scalar(
            "SELECT pr.brand_id FROM products pr JOIN sales s ON s.id = pr.sale_id
              WHERE s.site_id = $1 AND s.campaign_kind = 'DEFAULT' AND pr.brand_id IS NOT NULL
              GROUP BY pr.brand_id ORDER BY COUNT(*) DESC, pr.brand_id LIMIT 1",
        )
        .bind(site_id)
        .fetch_optional(&db.pool)
        .await?;
        // The translation key links the same page across the brand's sites (hreflang), whose
        // slugs are in each site's language.
        let mut pages = vec![(sales_page(lang), "sales", String::new(), 12, "week-sales")];
        if let Some(id) = brand_id {
            pages.push((
                brand_page(lang),
                "brand",
                id.to_string(),
                12,
                "featured-brand",
            ));
        }
        // The lateral menu's gifts entry (`/gr/gifts`) leads to the page with this key.
        pages.push((
            gifts_page(lang),
            "sales",
            GIFTS_OFFER_TYPE.to_string(),
            12,
            app::content::model::GIFTS_KEY,
        ));
        for (position, (w, kind, value, limit, key)) in pages.into_iter().enumerate() {
            let fill = |s: &str| s.replace("{brand}", brand);
            let blocks: Vec<_> = w
                .blocks
                .iter()
                .map(|(h, t)| serde_json::json!({ "heading": fill(h), "text": fill(t) }))
                .collect();
            let footer: Vec<String> = w.footer.iter().map(|p| fill(p)).collect();
            sqlx::query(
                "INSERT INTO landing_pages (site_id, slug, position, heading, seo_title, seo_description,
                                            blocks, footer_paragraphs, selection_kind, selection_value, selection_limit,
                                            translation_key)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                 ON CONFLICT (site_id, slug) DO UPDATE SET translation_key = excluded.translation_key
                  WHERE landing_pages.translation_key = ''",
            )
            .bind(site_id)
            .bind(w.slug)
            .bind(position as i64)
            .bind(w.heading)
            .bind(fill(w.title))
            .bind(fill(w.description))
            .bind(serde_json::Value::from(blocks).to_string())
            .bind(serde_json::Value::from(footer).to_string())
            .bind(kind)
            .bind(value)
            .bind(limit)
            .bind(key)
            .execute(&db.pool)
            .await?;
        }
    }
    Ok(())
}
