//! What the sale and product forms accept, as pure functions (no I/O), each refusal a key
//! of the back office's words.
use super::store::Settings;

pub use app::catalog::offer::OFFER_TYPES;
const MAX_TEXT: usize = 20_000;

#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct SettingsFields {
    pub site: String,
    pub name: String,
    pub offer_type: String,
    pub starts_at: String,
    pub ends_at: String,
    pub description: String,
    pub legal_merchant: String,
    pub legal_terms: String,
    /// The listing conditions members accept before the catalog (`app::catalog::gate`);
    /// absent (a feed that does not say) keeps the sale's as they are.
    pub products_listing_cgu: Option<String>,
    /// What search engines are told of the catalog (coverage F15): absent (a feed that
    /// does not say) keeps the sale's as they are.
    pub seo_title: Option<String>,
    pub seo_description: Option<String>,
    pub seo_footer: Option<String>,
    pub with_quotation_price: Option<String>,
    pub with_map: Option<String>,
    /// Only when the sale is made: `shop` (products) or `trips` (a travel sale).
    pub kind: String,
    /// The catalog page's layout, `1`–`4` (spec 000 §3 `catalog_type`); empty (a feed
    /// that does not say) keeps the sale's presentation as it is.
    pub catalog_type: String,
    /// The marketing banner and insert (spec 000 §3 `marketing`): a title and a line each.
    pub banner_title: String,
    pub banner_text: String,
    pub insert_title: String,
    pub insert_text: String,
}

/// How the sale's catalog page looks: its layout and its marketing messages (empty: none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Presentation {
    pub catalog_type: i64,
    pub banner_title: String,
    pub banner_text: String,
    pub insert_title: String,
    pub insert_text: String,
}

/// A sale catalog's title and description for search engines (`app::model::catalog_api::
/// SeoConfig`; empty: the generated ones), and paragraphs under the catalog.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SaleSeo {
    pub title: String,
    pub description: String,
    pub footer: String,
}

/// The longest SEO title and description (search engines show far less; past these it
/// is no longer a title).
pub const SEO_TITLE_MAX: usize = 120;
pub const SEO_DESCRIPTION_MAX: usize = 320;

/// A marketing title's and line's longest (what a banner across the page and a tile hold).
pub const MARKETING_TITLE_MAX: usize = 80;
pub const MARKETING_TEXT_MAX: usize = 300;

/// The catalog layouts an operator chooses from, with their words' keys.
pub const CATALOG_TYPES: [(i64, &str); 4] = [
    (1, "sales.catalog_type.classic"),
    (2, "sales.catalog_type.one_page"),
    (3, "sales.catalog_type.filtered"),
    (4, "sales.catalog_type.filtered_catalog"),
];

/// A sale's kind, chosen when it is made: the campaign kind the shop lists it under
/// (`TRAVEL` sales are the travel catalog's, their products trips).
pub fn kind(kind: &str) -> Option<&'static str> {
    match kind.trim() {
        "" | "shop" => Some("DEFAULT"),
        "trips" => Some("TRAVEL"),
        // Spec 000 campaign kind EMAIL: a products sale reached by its link only (an
        // emailing, an operation code); the homes, menus, search and sitemap list
        // `DEFAULT` sales alone (`app::platform::sql::LIVE_SALE`).
        "email" => Some("EMAIL"),
        _ => None,
    }
}

pub type FieldErrors = Vec<(&'static str, &'static str)>;

fn clean(s: &str) -> String {
    s.replace("\r\n", "\n")
        .chars()
        .filter(|c| !c.is_control() || *c == '\n')
        .collect::<String>()
        .trim()
        .to_string()
}

/// The settings the fields describe, or every field's error.
pub fn settings(f: &SettingsFields) -> Result<Settings, FieldErrors> {
    let mut errors = FieldErrors::new();
    let name = clean(&f.name).replace('\n', " ");
    if name.is_empty() || name.chars().count() > 200 {
        errors.push(("name", "sales.error.name"));
    }
    if !app::catalog::offer::is_offer_type(&f.offer_type) {
        errors.push(("offer_type", "sales.error.offer_type"));
    }
    let starts = super::super::ui::parse_datetime(&f.starts_at);
    let ends = super::super::ui::parse_datetime(&f.ends_at);
    if starts.is_none() {
        errors.push(("starts_at", "sales.error.date_format"));
    }
    if ends.is_none() {
        errors.push(("ends_at", "sales.error.date_format"));
    }
    if let (Some(s), Some(e)) = (starts, ends) {
        if e <= s {
            errors.push(("ends_at", "sales.error.dates"));
        }
    }
    let long = |s: &str| clean(s).chars().take(MAX_TEXT).collect::<String>();
    let presentation = presentation(f, &mut errors);
    let seo = seo(f, &mut errors, &long);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Settings {
        name,
        offer_type: f.offer_type.clone(),
        description: long(&f.description),
        legal_merchant: long(&f.legal_merchant),
        legal_terms: long(&f.legal_terms),
        products_listing_cgu: f.products_listing_cgu.as_deref().map(long),
        seo,
        starts_at: starts.unwrap_or_default(),
        ends_at: ends.unwrap_or_default(),
        with_quotation_price: f.with_quotation_price.is_some(),
        with_map: f.with_map.is_some(),
        presentation,
    })
}

/// The SEO settings the fields say, when they say any: a title and a description on one
/// line each, within their lengths, and the footer's paragraphs.
fn seo(
    f: &SettingsFields,
    errors: &mut FieldErrors,
    long: &dyn Fn(&str) -> String,
) -> Option<SaleSeo> {
    if f.seo_title.is_none() && f.seo_description.is_none() && f.seo_footer.is_none() {
        return None;
    }
    let line = |s: &Option<String>| clean(s.as_deref().unwrap_or("")).replace('\n', " ");
    let (title, description) = (line(&f.seo_title), line(&f.seo_description));
    if title.chars().count() > SEO_TITLE_MAX {
        errors.push(("seo_title", "sales.error.seo_title_long"));
    }
    if description.chars().count() > SEO_DESCRIPTION_MAX {
        errors.push(("seo_description", "sales.error.seo_description_long"));
    }
    Some(SaleSeo {
        title,
        description,
        footer: long(f.seo_footer.as_deref().unwrap_or("")),
    })
}

/// The presentation the fields say, when they say one: a layout of the four, and each
/// message a title (a line alone has nothing to stand under) within its length, on one line.
fn presentation(f: &SettingsFields, errors: &mut FieldErrors) -> Option<Presentation> {
    if f.catalog_type.trim().is_empty() {
        return None;
    }
    let catalog_type = f.catalog_type.trim().parse::<i64>().ok();
    if !catalog_type.is_some_and(|t| CATALOG_TYPES.iter().any(|(n, _)| *n == t)) {
        errors.push(("catalog_type", "sales.error.catalog_type"));
    }
    let line = |s: &str| clean(s).replace('\n', " ");
    let mut message = |title_field: &'static str, title: &str, text: &str| {
        let (title, text) = (line(title), line(text));
        if title.chars().count() > MARKETING_TITLE_MAX {
            errors.push((title_field, "sales.error.marketing_title_long"));
        } else if title.is_empty() && !text.is_empty() {
            errors.push((title_field, "sales.error.marketing_title"));
        }
        if text.chars().count() > MARKETING_TEXT_MAX {
            let text_field = if title_field == "banner_title" {
                "banner_text"
            } else {
                "insert_text"
            };
            errors.push((text_field, "sales.error.marketing_text_long"));
        }
        (title, text)
    };
    let (banner_title, banner_text) = message("banner_title", &f.banner_title, &f.banner_text);
    let (insert_title, insert_text) = message("insert_title", &f.insert_title, &f.insert_text);
    Some(Presentation {
        catalog_type: catalog_type.unwrap_or(1),
        banner_title,
        banner_text,
        insert_title,
        insert_text,
    })
}

pub fn site(s: &str) -> Option<i64> {
    s.trim()
        .parse::<u16>()
        .ok()
        .and_then(app::site::by_id)
        .map(|site| i64::from(site.site_id))
}

/// Cents of a price typed as `12`, `12.5`, `12,50` (at most 1,000,000.00).
pub fn cents(s: &str) -> Option<i64> {
    let s = s.trim().replace(',', ".");
    let (units, frac) = s.split_once('.').unwrap_or((&s, ""));
    if units.is_empty()
        || units.len() > 7
        || !units.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 2
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let units: i64 = units.parse().ok()?;
    let frac: i64 = format!("{frac:0<2}").parse().ok()?;
    let total = units * 100 + frac;
    (total <= 100_000_000).then_some(total)
}

/// A whole change of stock, not 0, at most `MAX_CHANGE` either way (`+5`, `-3`, `5`).
pub fn stock_change(s: &str) -> Option<i64> {
    let n: i64 = s.trim().trim_start_matches('+').parse().ok()?;
    (n != 0 && n.abs() <= super::stock::MAX_CHANGE).then_some(n)
}

/// An option's own prices as typed (coverage P9): both empty for its product's. Either one
/// alone is allowed, the other taken from the product; what the member would see (the
/// option's price against its retail price) must never strike through a lower retail
/// price. Refusals are keys of the back office's words.
pub fn option_prices(
    price: &str,
    retail: &str,
    product: (i64, i64),
) -> Result<(Option<i64>, Option<i64>), &'static str> {
    let read = |s: &str| match s.trim() {
        "" => Ok(None),
        typed => cents(typed).map(Some).ok_or("sales.error.price"),
    };
    let (price, retail) = (read(price)?, read(retail)?);
    if retail.unwrap_or(product.1) < price.unwrap_or(product.0) {
        return Err("sales.error.retail_below");
    }
    Ok((price, retail))
}

/// A product's name and prices: 1 to 200 characters, both prices as amounts, the retail
/// price not below the sale price (the add and edit forms and the feed read this).
pub fn product_basics(
    name: &str,
    price: &str,
    retail: &str,
) -> Result<(String, i64, i64), &'static str> {
    let name = name
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .to_string();
    if name.is_empty() || name.chars().count() > 200 {
        return Err("sales.error.product_name");
    }
    let (Some(price), Some(retail)) = (cents(price), cents(retail)) else {
        return Err("sales.error.price");
    };
    if retail < price {
        return Err("sales.error.retail_below");
    }
    Ok((name, price, retail))
}

/// Tiers a product is shown with (a badge on its tile, `catalog.tier.*`).
pub const TIERS: [&str; 3] = ["ORDINARY", "PREMIUM", "SOON"];
/// Who sells it: the shop's flash sale, or a marketplace seller.
pub const SELLER_KINDS: [&str; 2] = ["fs", "marketplace"];
/// How it is delivered (`product.delivery.*`: classic, after the stock arrives, direct, by
/// the supplier).
pub const DELIVERY_MODES: [i64; 4] = [0, 1, 2, 3];

/// Whether an option's own prices (`None`: the product's) still hold against the product's
/// new prices.
pub fn option_still_priced(own: (Option<i64>, Option<i64>), product: (i64, i64)) -> bool {
    own.1.unwrap_or(product.1) >= own.0.unwrap_or(product.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sale_kind_is_one_of_three() {
        assert_eq!(kind(""), Some("DEFAULT"));
        assert_eq!(kind("shop"), Some("DEFAULT"));
        assert_eq!(kind(" email "), Some("EMAIL"));
        assert_eq!(kind("trips"), Some("TRAVEL"));
        assert_eq!(kind("EMAIL"), None);
        assert_eq!(kind("newsletter"), None);
    }

    fn fields() -> SettingsFields {
        SettingsFields {
            site: "1".into(),
            name: " Été  \u{7}".into(),
            offer_type: "FlashSale".into(),
            starts_at: "2026-12-01T08:00".into(),
            ends_at: "2026-12-03T20:00".into(),
            with_map: Some("on".into()),
            ..Default::default()
        }
    }

    #[test]
    fn seo_settings_are_one_line_within_their_lengths() {
        // A feed that says nothing keeps the sale's.
        assert_eq!(settings(&fields()).unwrap().seo, None);
        let mut f = fields();
        f.seo_title = Some(" Robes d'été\n à -70 % ".into());
        f.seo_description = Some(String::new());
        f.seo_footer = Some("Un.\r\n\r\nDeux.".into());
        let seo = settings(&f).unwrap().seo.unwrap();
        assert_eq!(seo.title, "Robes d'été  à -70 %");
        assert_eq!(seo.description, "");
        assert_eq!(seo.footer, "Un.\n\nDeux.");
        f.seo_title = Some("t".repeat(SEO_TITLE_MAX + 1));
        f.seo_description = Some("d".repeat(SEO_DESCRIPTION_MAX + 1));
        let errors = settings(&f).unwrap_err();
        assert!(errors.contains(&("seo_title", "sales.error.seo_title_long")));
        assert!(errors.contains(&("seo_description", "sales.error.seo_description_long")));
    }

    #[test]
    fn good_settings_are_cleaned() {
        let s = settings(&fields()).unwrap();
        assert_eq!(s.name, "Été");
        assert_eq!(s.ends_at - s.starts_at, 2 * 86_400 + 12 * 3600);
        assert!(s.with_map && !s.with_quotation_price);
    }

    #[test]
    fn every_bad_field_is_named() {
        let mut f = fields();
        f.name = " ".into();
        f.offer_type = "Bogus".into();
        f.ends_at = "2026-11-30T08:00".into();
        let errors = settings(&f).unwrap_err();
        assert_eq!(
            errors,
            vec![
                ("name", "sales.error.name"),
                ("offer_type", "sales.error.offer_type"),
                ("ends_at", "sales.error.dates")
            ]
        );
        f.starts_at = "tomorrow".into();
        assert!(settings(&f)
            .unwrap_err()
            .contains(&("starts_at", "sales.error.date_format")));
    }

    #[test]
    fn prices_and_stock_changes_read_as_typed() {
        assert_eq!(cents("12"), Some(1200));
        assert_eq!(cents("12,5"), Some(1250));
        assert_eq!(cents("0.07"), Some(7));
        for bad in ["", "-1", "1.234", "abc", "1e3", "99999999"] {
            assert_eq!(cents(bad), None, "{bad}");
        }
        assert_eq!(stock_change("+5"), Some(5));
        assert_eq!(stock_change("-3"), Some(-3));
        for bad in ["0", "", "2.5", "100001", "--1"] {
            assert_eq!(stock_change(bad), None, "{bad}");
        }
        assert_eq!(site("66"), Some(66));
        assert_eq!(option_prices("", " ", (1000, 3000)), Ok((None, None)));
        assert_eq!(
            option_prices("12,5", "", (1000, 3000)),
            Ok((Some(1250), None))
        );
        assert_eq!(
            option_prices("", "9", (1000, 3000)),
            Err("sales.error.retail_below")
        );
        assert_eq!(
            option_prices("40", "", (1000, 3000)),
            Err("sales.error.retail_below")
        );
        assert_eq!(
            option_prices("15", "45", (1000, 3000)),
            Ok((Some(1500), Some(4500)))
        );
        assert_eq!(
            option_prices("abc", "", (1000, 3000)),
            Err("sales.error.price")
        );
        assert_eq!(site("5"), None);
        assert_eq!(site("999999"), None);
    }

    #[test]
    fn products_read_their_name_and_prices_and_options_keep_theirs() {
        assert_eq!(
            product_basics(" Caban \u{7}", "89,90", "179"),
            Ok(("Caban".to_string(), 8_990, 17_900))
        );
        assert_eq!(
            product_basics(" ", "1", "2"),
            Err("sales.error.product_name")
        );
        assert_eq!(product_basics("x", "€", "2"), Err("sales.error.price"));
        assert_eq!(
            product_basics("x", "3", "2"),
            Err("sales.error.retail_below")
        );
        // An option at the product's price with its own retail price of 150: the product's
        // price may not go above 150.
        assert!(option_still_priced((None, Some(15_000)), (12_000, 20_000)));
        assert!(!option_still_priced((None, Some(15_000)), (16_000, 20_000)));
        assert!(option_still_priced((None, None), (16_000, 20_000)));
        assert!(!option_still_priced((Some(9_000), None), (5_000, 8_000)));
    }
}
