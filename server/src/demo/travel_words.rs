//! The travel demo's vocabulary: destinations (city, region, country, coordinates) and
//! the texts of offers, in the shop's five languages.

/// Names in fr, de, es, it, nl order.
type Names = [&'static str; 5];

pub(super) struct Destination {
    pub city: Names,
    pub region: Names,
    pub country: Names,
    pub lat: f64,
    pub lng: f64,
}

const fn same(s: &'static str) -> Names {
    [s, s, s, s, s]
}

const GREECE: Names = ["Grèce", "Griechenland", "Grecia", "Grecia", "Griekenland"];
const SPAIN: Names = ["Espagne", "Spanien", "España", "Spagna", "Spanje"];
const ITALY: Names = ["Italie", "Italien", "Italia", "Italia", "Italië"];

pub(super) const DESTINATIONS: [Destination; 12] = [
    Destination {
        city: [
            "Santorin",
            "Santorini",
            "Santorini",
            "Santorini",
            "Santorini",
        ],
        region: ["Cyclades", "Kykladen", "Cícladas", "Cicladi", "Cycladen"],
        country: GREECE,
        lat: 36.39,
        lng: 25.46,
    },
    Destination {
        city: [
            "Héraklion",
            "Heraklion",
            "Heraclión",
            "Heraklion",
            "Heraklion",
        ],
        region: ["Crète", "Kreta", "Creta", "Creta", "Kreta"],
        country: GREECE,
        lat: 35.34,
        lng: 25.13,
    },
    Destination {
        city: same("Marrakech"),
        region: same("Marrakech-Safi"),
        country: ["Maroc", "Marokko", "Marruecos", "Marocco", "Marokko"],
        lat: 31.63,
        lng: -7.99,
    },
    Destination {
        city: same("Faro"),
        region: same("Algarve"),
        country: ["Portugal", "Portugal", "Portugal", "Portogallo", "Portugal"],
        lat: 37.02,
        lng: -7.93,
    },
    Destination {
        city: ["Séville", "Sevilla", "Sevilla", "Siviglia", "Sevilla"],
        region: [
            "Andalousie",
            "Andalusien",
            "Andalucía",
            "Andalusia",
            "Andalusië",
        ],
        country: SPAIN,
        lat: 37.39,
        lng: -5.98,
    },
    Destination {
        city: same("Palma"),
        region: ["Baléares", "Balearen", "Baleares", "Baleari", "Balearen"],
        country: SPAIN,
        lat: 39.57,
        lng: 2.65,
    },
    Destination {
        city: ["Naples", "Neapel", "Nápoles", "Napoli", "Napels"],
        region: ["Campanie", "Kampanien", "Campania", "Campania", "Campanië"],
        country: ITALY,
        lat: 40.85,
        lng: 14.27,
    },
    Destination {
        city: ["Palerme", "Palermo", "Palermo", "Palermo", "Palermo"],
        region: ["Sicile", "Sizilien", "Sicilia", "Sicilia", "Sicilië"],
        country: ITALY,
        lat: 38.12,
        lng: 13.36,
    },
    Destination {
        city: same("Dubrovnik"),
        region: ["Dalmatie", "Dalmatien", "Dalmacia", "Dalmazia", "Dalmatië"],
        country: ["Croatie", "Kroatien", "Croacia", "Croazia", "Kroatië"],
        lat: 42.65,
        lng: 18.09,
    },
    Destination {
        city: same("Hurghada"),
        region: [
            "Mer Rouge",
            "Rotes Meer",
            "Mar Rojo",
            "Mar Rosso",
            "Rode Zee",
        ],
        country: ["Égypte", "Ägypten", "Egipto", "Egitto", "Egypte"],
        lat: 27.26,
        lng: 33.81,
    },
    Destination {
        city: same("Djerba"),
        region: same("Médenine"),
        country: ["Tunisie", "Tunesien", "Túnez", "Tunisia", "Tunesië"],
        lat: 33.81,
        lng: 10.85,
    },
    Destination {
        city: ["Nice", "Nizza", "Niza", "Nizza", "Nice"],
        region: [
            "Côte d'Azur",
            "Côte d'Azur",
            "Costa Azul",
            "Costa Azzurra",
            "Côte d'Azur",
        ],
        country: ["France", "Frankreich", "Francia", "Francia", "Frankrijk"],
        lat: 43.70,
        lng: 7.27,
    },
];

/// The texts of one language's travel offers.
pub(super) struct TravelWords {
    pub stays: [&'static str; 4],
    pub bullets: [&'static str; 4],
    pub tabs: [(&'static str, &'static str); 3],
    pub benefits: [&'static str; 2],
    pub perks: [&'static str; 3],
    /// A travel sale's categories and description (the fashion ones were shown before).
    pub universes: [&'static str; 3],
    pub sale_description: &'static str,
}

/// Index of a language in the `Names` arrays; French for any other.
pub(super) fn lang_index(lang: &str) -> usize {
    match lang {
        "de" => 1,
        "es" => 2,
        "it" => 3,
        "nl" => 4,
        _ => 0,
    }
}

pub(super) fn travel_words(lang: &str) -> TravelWords {
    match lang {
        "de" => TravelWords {
            stays: ["Strandhotel", "Boutique-Hotel", "Club", "Resort & Spa"],
            bullets: [
                "Flug und Transfer inklusive",
                "Pool und Privatstrand",
                "Kostenlose Stornierung bis 30 Tage vor Abreise",
                "Familienzimmer verfügbar",
            ],
            tabs: [
                ("Das Hotel", "Ein ruhiges Haus wenige Schritte vom Meer, mit Garten, Pool und Spa."),
                ("Ihr Aufenthalt", "Tag 1: Ankunft und Transfer. Danach Zeit zum Entdecken, auf eigene Faust oder mit unseren Ausflügen."),
                ("Gut zu wissen", "Reisepass oder Personalausweis erforderlich. Ortstaxe vor Ort zu zahlen."),
            ],
            benefits: ["Flughafentransfer", "Reiseversicherung"],
            perks: ["Ein Abendessen geschenkt", "Upgrade nach Verfügbarkeit", "Kinder bis 11 Jahre -50 %"],
            universes: ["Aufenthalte", "Rundreisen", "Kurztrips"],
            sale_description: "Ausgewählte Reisen zu Mitgliederpreisen, nur für kurze Zeit.",
        },
        "es" => TravelWords {
            stays: ["Hotel de playa", "Hotel boutique", "Club", "Resort & Spa"],
            bullets: [
                "Vuelo y traslado incluidos",
                "Piscina y playa privada",
                "Cancelación gratuita hasta 30 días antes",
                "Habitaciones familiares disponibles",
            ],
            tabs: [
                ("El hotel", "Un lugar tranquilo a pocos pasos del mar, con jardín, piscina y spa."),
                ("Su estancia", "Día 1: llegada y traslado. Después, tiempo libre para descubrir la zona o unirse a nuestras excursiones."),
                ("Información práctica", "Pasaporte o DNI obligatorio. Tasa turística a pagar en destino."),
            ],
            benefits: ["Traslado al aeropuerto", "Seguro de viaje"],
            perks: ["Una cena de regalo", "Mejora según disponibilidad", "Niños hasta 11 años -50 %"],
            universes: ["Estancias", "Circuitos", "Escapadas"],
            sale_description: "Viajes seleccionados a precios de socio, solo por tiempo limitado.",
        },
        "it" => TravelWords {
            stays: ["Hotel sul mare", "Boutique hotel", "Club", "Resort & Spa"],
            bullets: [
                "Volo e transfer inclusi",
                "Piscina e spiaggia privata",
                "Cancellazione gratuita fino a 30 giorni prima",
                "Camere familiari disponibili",
            ],
            tabs: [
                ("L'hotel", "Una struttura tranquilla a due passi dal mare, con giardino, piscina e spa."),
                ("Il soggiorno", "Giorno 1: arrivo e transfer. Poi tempo libero per scoprire la zona o partecipare alle nostre escursioni."),
                ("Informazioni utili", "Passaporto o carta d'identità obbligatori. Tassa di soggiorno da pagare in loco."),
            ],
            benefits: ["Transfer aeroporto", "Assicurazione viaggio"],
            perks: ["Una cena in omaggio", "Upgrade secondo disponibilità", "Bambini fino a 11 anni -50 %"],
            universes: ["Soggiorni", "Tour", "Weekend"],
            sale_description: "Viaggi selezionati a prezzi riservati ai soci, solo per poco tempo.",
        },
        "nl" => TravelWords {
            stays: ["Strandhotel", "Boetiekhotel", "Club", "Resort & Spa"],
            bullets: [
                "Vlucht en transfer inbegrepen",
                "Zwembad en privéstrand",
                "Gratis annuleren tot 30 dagen voor vertrek",
                "Familiekamers beschikbaar",
            ],
            tabs: [
                ("Het hotel", "Een rustig adres op een paar stappen van de zee, met tuin, zwembad en spa."),
                ("Je verblijf", "Dag 1: aankomst en transfer. Daarna vrije tijd om de streek te ontdekken of mee te gaan op onze uitstappen."),
                ("Goed om te weten", "Paspoort of identiteitskaart verplicht. Toeristenbelasting ter plaatse te betalen."),
            ],
            benefits: ["Luchthaventransfer", "Reisverzekering"],
            perks: ["Een diner cadeau", "Upgrade volgens beschikbaarheid", "Kinderen tot 11 jaar -50 %"],
            universes: ["Verblijven", "Rondreizen", "Weekendjes weg"],
            sale_description: "Geselecteerde reizen tegen ledenprijzen, slechts korte tijd.",
        },
        _ => TravelWords {
            stays: ["Hôtel les pieds dans l'eau", "Hôtel de charme", "Club", "Resort & Spa"],
            bullets: [
                "Vol et transferts inclus",
                "Piscine et plage privée",
                "Annulation gratuite jusqu'à 30 jours avant le départ",
                "Chambres familiales disponibles",
            ],
            tabs: [
                ("L'hôtel", "Une adresse au calme à quelques pas de la mer, avec jardin, piscine et spa."),
                ("Votre séjour", "Jour 1 : arrivée et transfert. Ensuite, du temps libre pour découvrir la région ou rejoindre nos excursions."),
                ("Infos pratiques", "Passeport ou carte d'identité obligatoire. Taxe de séjour à régler sur place."),
            ],
            benefits: ["Transfert aéroport", "Assurance voyage"],
            perks: ["Un dîner offert", "Surclassement selon disponibilité", "Enfants jusqu'à 11 ans -50 %"],
            universes: ["Séjours", "Circuits", "Week-ends"],
            sale_description: "Des séjours choisis à prix membres, pour un temps limité.",
        },
    }
}
