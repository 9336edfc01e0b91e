//! The feed import: sales, products, options, stock and pictures from a JSON feed (or
//! products and stock from a CSV file), named by the feed's own references. Pictures are
//! named by file name: read from the feed's folder by `server import`, or sent with the
//! feed on the import page; a picture the shop already has for that place (the same bytes)
//! is left as it is. One path for data into the
//! shop from outside: `server import FILE [--dry-run]` and the back office's import page
//! both call [`import`]. The whole feed is applied in one transaction, or nothing is: every
//! error is listed with its JSON path or CSV line, and a dry run rolls back even a feed
//! without errors (it reports what would change). Importing the same feed twice changes
//! nothing; an edited feed updates in place (stock through the guarded write of
//! `sales::stock`, never below what members hold and bought).
mod apply;
mod bundle;
pub mod csv_feed;
pub mod page;
mod product;
mod refs;
mod sale;
pub mod schema;
mod travel;
mod trip_extras;

use serde::Deserialize;

pub use apply::{import, Counts, Outcome, Run};
pub use refs::Ids;

/// A feed (JSON). `docs/feed.schema.json` is its JSON Schema, made from these types.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Feed {
    pub sales: Vec<FeedSale>,
}

/// A sale's marketing messages: each a title and a line of text.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedMarketing {
    #[serde(default)]
    pub banner: Option<FeedMessage>,
    #[serde(default)]
    pub insert: Option<FeedMessage>,
}

#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedMessage {
    /// At most 80 characters.
    pub title: String,
    /// At most 300 characters.
    #[serde(default)]
    pub text: String,
}

/// A sale, created or updated by its `ref`.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedSale {
    /// The feed's own id of the sale (1 to 100 characters), unique in the feed.
    #[serde(rename = "ref")]
    pub reference: String,
    /// One of the 11 sites (1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76).
    pub site: i64,
    pub name: String,
    /// FlashSale, SecondHand, M2M, Marketplace, Premium, Vbi or Rosace.
    pub offer_type: String,
    /// Opening time, UTC: `2026-12-01T08:00:00Z` (seconds and the `Z` optional).
    pub opens: String,
    /// Closing time, UTC, after the opening.
    pub closes: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub legal_merchant: String,
    #[serde(default)]
    pub legal_terms: String,
    #[serde(default, rename = "withQuotationPrice")]
    pub with_quotation_price: bool,
    #[serde(default, rename = "withMap")]
    pub with_map: bool,
    /// `shop` (the default: products), `email` (products, reached by the sale's link only:
    /// not on the homes, menus, search or sitemap) or `trips` (a travel sale, whose
    /// products may be trips with a `travel` inventory). Chosen when the sale is made.
    #[serde(default)]
    pub kind: String,
    /// The banner's file name (home tiles, catalog): JPEG, PNG or WebP.
    #[serde(default)]
    pub banner: Option<String>,
    /// The logo's file name (menu, sale cards).
    #[serde(default)]
    pub logo: Option<String>,
    /// The catalog page's layout (spec 000 §3): 1 classic, 2 one page, 3 filtered,
    /// 4 filtered catalog. Left out: the sale's layout and marketing stay as they are.
    #[serde(default, rename = "catalogType")]
    pub catalog_type: Option<i64>,
    /// The catalog's marketing banner and insert (spec 000 §3 `marketing`), with
    /// `catalogType` only: left out, none.
    #[serde(default)]
    pub marketing: FeedMarketing,
    /// `fs` (the default: the shop's own flash sale) or `marketplace`.
    #[serde(default)]
    pub seller_kind: String,
    /// The theme the sale asks for (spec 000 §9): none (the site's), `recycle` or `bw`.
    #[serde(default)]
    pub theme: String,
    /// Its place among its site's sales, lowest first (0 to 100000, default 0; sales of
    /// one place follow in the order they were made).
    #[serde(default)]
    pub position: i64,
    /// Its universes in order, each with its sub-universes, created or renamed by their
    /// `ref`. None: a new sale gets one, "All".
    #[serde(default)]
    pub universes: Vec<FeedUniverse>,
    #[serde(default)]
    pub products: Vec<FeedProduct>,
    /// Products of the sale sold together (`app::product::bundle`), each set by its `ref`;
    /// the bundles the feed leaves out stay as they are.
    #[serde(default)]
    pub bundles: Vec<FeedBundle>,
}

/// A bundle: 2 to 20 products of the sale, by their `ref`, in the order its page lists
/// them. A product of type 7 (a carousel) among them shows them on its catalog tile.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedBundle {
    #[serde(rename = "ref")]
    pub reference: String,
    pub products: Vec<String>,
}

/// A universe of the sale (1 to 80 characters), with its sub-universes.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedUniverse {
    #[serde(rename = "ref")]
    pub reference: String,
    pub title: String,
    #[serde(default)]
    pub subs: Vec<FeedSubUniverse>,
}

/// A sub-universe (1 to 80 characters).
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedSubUniverse {
    #[serde(rename = "ref")]
    pub reference: String,
    pub title: String,
}

/// A product of the sale, created or updated by its `ref`.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedProduct {
    #[serde(rename = "ref")]
    pub reference: String,
    pub name: String,
    /// A brand name: found (any case) or created.
    #[serde(default)]
    pub brand: String,
    #[serde(default)]
    pub color: String,
    /// The sale price, as text so that no amount is rounded: `89.90`.
    pub price: String,
    /// The retail price, not below the sale price.
    pub retail_price: String,
    /// The data sheet, simple HTML (sanitised as the shop's data sheets are).
    #[serde(default)]
    pub data_sheet: String,
    /// The picture's file name: JPEG, PNG or WebP.
    #[serde(default)]
    pub picture: Option<String>,
    /// The `ref` of its universe or sub-universe in the sale's `universes`; none: the
    /// sale's first universe.
    #[serde(default)]
    pub universe: Option<String>,
    /// `ORDINARY` (the default), `PREMIUM` or `SOON`.
    #[serde(default)]
    pub tier: String,
    /// 0 (the default: classic), 1 (after the stock arrives), 2 (direct) or 3 (by the
    /// supplier).
    #[serde(default)]
    pub delivery_mode: i64,
    /// `fs` (the default) or `marketplace`.
    #[serde(default)]
    pub seller_kind: String,
    /// How it shows in lists (spec 000 §3): 1 (the default: an item), 7 (a carousel) or
    /// 10 (an ad).
    #[serde(default)]
    pub item_type: Option<i64>,
    #[serde(default)]
    pub options: Vec<FeedOption>,
    /// For a product of a `trips` sale: the trip and its inventory.
    #[serde(default)]
    pub travel: Option<FeedTrip>,
}

/// A trip: where it goes and what it offers (as the travel catalog's filters know it), who
/// may travel together, and its packages.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedTrip {
    /// The name of one of the site's cities (any case): `Nice`.
    pub destination: String,
    /// A city the site has no trip to yet is added with its region and country (each
    /// found by name or added): `Provence-Alpes-Côte d'Azur`, `France`.
    #[serde(default)]
    pub region: Option<String>,
    #[serde(default)]
    pub country: Option<String>,
    /// Degrees, as text: `43.7102`.
    pub latitude: String,
    pub longitude: String,
    /// stay, tour or weekend.
    pub trip_type: String,
    /// all_inclusive, full_board, half_board, breakfast or room_only.
    pub board: String,
    /// hotel, club or residence.
    pub accommodation: String,
    /// 1 to 5 stars.
    pub rating: i64,
    /// flight, train, bus, boat or none.
    pub transport: String,
    /// At most 8, of 200 characters each.
    #[serde(default)]
    pub highlights: Vec<String>,
    /// Travellers of one booking: 1 to 20, the most not below the least.
    pub party_min: i64,
    pub party_max: i64,
    /// Which parties may book, when not every size from `party_min` to `party_max` may:
    /// adults, then children, then the numbers of babies allowed (`{"2": {"0": [0, 1]}}`).
    #[serde(default)]
    pub party_rules:
        Option<std::collections::BTreeMap<String, std::collections::BTreeMap<String, Vec<i64>>>>,
    /// What a child pays, in percent of an adult's price (50 for "children -50 %"), 0 to
    /// 100; left out: an adult's price.
    #[serde(default)]
    pub child_price_percent: Option<u32>,
    /// Themes the catalog filters on: beach, culture, family or spa.
    #[serde(default)]
    pub themes: Vec<String>,
    /// Instalments offered: 3x, 4x.
    #[serde(default)]
    pub payment_facilities: Vec<String>,
    /// A renowned brand (the catalog says so).
    #[serde(default)]
    pub renowned_brand: bool,
    /// A perk its card shows (at most 200 characters).
    #[serde(default)]
    pub perk: Option<String>,
    /// The trip page's tabs (at most 8).
    #[serde(default)]
    pub tabs: Vec<FeedTab>,
    /// The lowest price per person of the last 30 days (`1290.00`); default: the product's
    /// price.
    #[serde(default)]
    pub lowest_price_30_days: Option<String>,
    /// What the configurator starts on; none: the first of each.
    #[serde(default)]
    pub start: Option<FeedStart>,
    #[serde(default)]
    pub packages: Vec<FeedPackage>,
}

/// A tab of the trip page: a title (1 to 80 characters) and its text (at most 4000).
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedTab {
    pub title: String,
    pub content: String,
}

/// The configurator's first choice: a package of the trip (its `ref`), one of its
/// departure cities (its code) and one of that city's stays.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedStart {
    pub package: String,
    pub city: String,
    pub days: i64,
    pub nights: i64,
}

/// An extra a traveller may add to a package, created or updated by its `ref`.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedBenefit {
    #[serde(rename = "ref")]
    pub reference: String,
    /// 1 to 120 characters.
    pub label: String,
    /// Its price (`25.00`).
    pub price: String,
    /// How many a booking takes at least (0 to 20, default 0).
    #[serde(default)]
    pub min_count: i64,
}

/// A package of the trip, created or updated by its `ref`.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedPackage {
    #[serde(rename = "ref")]
    pub reference: String,
    pub title: String,
    /// Extras travellers may add; none: the configurator has no extras step.
    #[serde(default)]
    pub benefits: Vec<FeedBenefit>,
    /// Whether the configurator offers "the cheapest departure city" (for several cities).
    #[serde(default)]
    pub cheapest_toggle: bool,
    #[serde(default)]
    pub cities: Vec<FeedCity>,
}

/// A departure city of the package, created or updated by its `ref`.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedCity {
    #[serde(rename = "ref")]
    pub reference: String,
    /// 2 to 5 letters or digits: `ORY`.
    pub code: String,
    pub name: String,
    #[serde(default)]
    pub durations: Vec<FeedDuration>,
    #[serde(default)]
    pub seasons: Vec<FeedSeason>,
}

/// A stay from the city: days, nights and the supplement per person (`120.00`, default 0).
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedDuration {
    #[serde(rename = "ref")]
    pub reference: String,
    pub days: i64,
    pub nights: i64,
    #[serde(default)]
    pub supplement: String,
}

/// Departures from the city on `weekdays` between two days, at a price per person with
/// its reference price, with places per departure.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedSeason {
    #[serde(rename = "ref")]
    pub reference: String,
    /// `2027-01-04`.
    pub first_day: String,
    pub last_day: String,
    /// Of mon, tue, wed, thu, fri, sat, sun.
    pub weekdays: Vec<String>,
    pub price: String,
    pub reference_price: String,
    pub places: i64,
}

/// A size or colour of the product with its stock, created or updated by its `ref`.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedOption {
    #[serde(rename = "ref")]
    pub reference: String,
    pub label: String,
    /// Units for sale in all (0 to 100000), held and sold ones included.
    pub stock: i64,
    /// Its own sale price (`89.90`), when it differs from the product's.
    #[serde(default)]
    pub price: Option<String>,
    /// Its own retail price, when it differs from the product's; what the option is shown
    /// at never strikes through a lower retail price.
    #[serde(default)]
    pub retail_price: Option<String>,
    /// Its own picture's file name, shown when a member chooses it.
    #[serde(default)]
    pub picture: Option<String>,
}

/// Where the pictures a feed names are read from, by file name.
pub enum PictureFiles {
    /// The feed file's folder (`server import FILE`).
    Folder(std::path::PathBuf),
    /// The files sent with the feed on the import page.
    Sent(std::collections::HashMap<String, Vec<u8>>),
}

impl PictureFiles {
    /// The file's bytes, or the text key of why not.
    fn read(&self, name: &str) -> Result<Vec<u8>, &'static str> {
        match self {
            PictureFiles::Folder(dir) => {
                let path = dir.join(name);
                let size = std::fs::metadata(&path)
                    .map_err(|_| "import.picture_missing")?
                    .len();
                if size > crate::media::MAX_BYTES as u64 {
                    return Err("pictures.error.size");
                }
                std::fs::read(path).map_err(|_| "import.picture_missing")
            }
            PictureFiles::Sent(files) => files.get(name).cloned().ok_or("import.picture_missing"),
        }
    }
}

/// A picture's name in a feed is a file name alone: no folder, nothing hidden.
pub fn picture_name_ok(name: &str) -> bool {
    let n = name.chars().count();
    (1..=200).contains(&n)
        && !name.starts_with('.')
        && !name
            .chars()
            .any(|c| c == '/' || c == '\\' || c.is_control())
}

/// What the import reads: a JSON feed, or a CSV of products and stock for sales the shop
/// already has (by their feed ref).
pub enum Input {
    Json(Feed),
    /// Sales named by ref; their settings are left as they are.
    Csv(Feed),
}

/// Reads a file's text as a feed: JSON when it starts with `{`, CSV otherwise. A text
/// that does not read gives every error it can (JSON: the line and column).
pub fn parse(text: &str) -> Result<Input, Vec<String>> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') {
        serde_json::from_str::<Feed>(trimmed)
            .map(Input::Json)
            .map_err(|e| vec![format!("line {} column {}: {e}", e.line(), e.column())])
    } else {
        csv_feed::parse(trimmed).map(Input::Csv)
    }
}
