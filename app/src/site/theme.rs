//! Themes (spec 000 §9): each site's own palette (Rosace pink, Violeta purple on sites 66
//! and 69, the second retail brand's on sites 70 and 71: `super::Palette`), and the themes
//! a sale may ask for: the green "recycle" variant (main colour
//! #0BA100) and black and white. And the brand cookie `appBrand` (spec 000 §3, §9: 1 day)
//! recording which brand the visitor was last shown.
use super::{Brand, Palette};

/// What a page is painted with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// The site's own palette.
    Site(Palette),
    /// The green variant named recycle.
    Recycle,
    /// Black and white.
    BlackAndWhite,
}

/// The value a sale stores (`sales.theme`) for each theme it may ask for; empty: its site's.
pub const RECYCLE: &str = "recycle";
pub const BLACK_AND_WHITE: &str = "bw";

/// The recycle theme's main colour (spec 000 §9).
pub const RECYCLE_COLOR: &str = "#0BA100";

impl Theme {
    /// The theme of a sale of a site wearing `own`: the one the sale asks for (by its
    /// stored name, any case, spaces ignored), else a recycling seller's sale is green, else
    /// the site's own. An unknown name falls back to the site's: a typo never unstyles a sale.
    pub fn for_sale(own: Palette, asked: &str, seller_kind: &str) -> Theme {
        match asked.trim().to_ascii_lowercase().as_str() {
            RECYCLE => Theme::Recycle,
            BLACK_AND_WHITE | "black-and-white" | "blackandwhite" => Theme::BlackAndWhite,
            _ if seller_kind.trim().eq_ignore_ascii_case(RECYCLE) => Theme::Recycle,
            _ => Theme::Site(own),
        }
    }

    /// What a sale's wire `theme` says: `recycle`, `bw`, or empty for its site's brand.
    pub fn sale_theme(asked: &str, seller_kind: &str) -> &'static str {
        match Theme::for_sale(Palette::Rosace, asked, seller_kind) {
            Theme::Site(_) => "",
            t => t.name(),
        }
    }

    /// The theme a home or a home module asks for (`homes.theme`, a module's `theme`
    /// setting): as a sale's, without the seller rule; unknown or empty: the site's.
    pub fn for_home(own: Palette, asked: &str) -> Theme {
        Theme::for_sale(own, asked, "")
    }

    /// The classes of a themed block (`{block} {block}--themed theme-…`), or `block`
    /// alone when the theme is the site's own.
    pub fn block_class(self, block: &str) -> String {
        if self.is_special() {
            format!("{block} {block}--themed {}", self.css_class())
        } else {
            block.to_string()
        }
    }

    /// The class that sets the theme's colours (style/main.css).
    pub fn css_class(self) -> &'static str {
        match self {
            Theme::Site(p) => p.css_class(),
            Theme::Recycle => "theme-recycle",
            Theme::BlackAndWhite => "theme-bw",
        }
    }

    /// The stored name (`data-theme` on the page); the palette's class name for a site's.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Site(p) => p.css_class(),
            Theme::Recycle => RECYCLE,
            Theme::BlackAndWhite => BLACK_AND_WHITE,
        }
    }

    /// The main colour (the browser's theme colour).
    pub fn color(self) -> &'static str {
        match self {
            Theme::Site(p) => p.color(),
            Theme::Recycle => RECYCLE_COLOR,
            Theme::BlackAndWhite => "#000000",
        }
    }

    /// Whether the theme differs from the site's own (the page then wears its class).
    pub fn is_special(self) -> bool {
        !matches!(self, Theme::Site(_))
    }
}

/// The brand cookie (spec 000 §3).
pub const APP_BRAND_COOKIE: &str = "appBrand";
/// Its lifetime: one day (spec 000 §9).
pub const APP_BRAND_MAX_AGE_SECS: i64 = 86_400;

/// Whether a page of a site of `brand` must (re)set the brand cookie: when the visitor has
/// none (never set, or its day is over) or it names the other brand.
pub fn app_brand_cookie_due(current: Option<&str>, brand: Brand) -> bool {
    current != Some(brand.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sale_asking_for_a_theme_gets_it() {
        assert_eq!(
            Theme::for_sale(Palette::Rosace, "recycle", "fs"),
            Theme::Recycle
        );
        assert_eq!(
            Theme::for_sale(Palette::Violeta, " BW ", "fs"),
            Theme::BlackAndWhite
        );
        assert_eq!(
            Theme::for_sale(Palette::Rosace, "black-and-white", "marketplace"),
            Theme::BlackAndWhite
        );
    }

    #[test]
    fn a_recycling_sellers_sale_is_green_unless_it_asks_otherwise() {
        assert_eq!(
            Theme::for_sale(Palette::Rosace, "", "recycle"),
            Theme::Recycle
        );
        assert_eq!(
            Theme::for_sale(Palette::Rosace, "bw", "recycle"),
            Theme::BlackAndWhite
        );
    }

    #[test]
    fn other_sales_keep_their_sites_brand() {
        assert_eq!(
            Theme::for_sale(Palette::Rosace, "", "fs"),
            Theme::Site(Palette::Rosace)
        );
        assert_eq!(
            Theme::for_sale(Palette::Violeta, "neon", "marketplace"),
            Theme::Site(Palette::Violeta)
        );
        assert!(!Theme::for_sale(Palette::Violeta, "", "fs").is_special());
        assert_eq!(Theme::sale_theme("", "fs"), "");
        assert_eq!(Theme::sale_theme("", "recycle"), "recycle");
        assert_eq!(Theme::sale_theme("BW", "fs"), "bw");
    }

    #[test]
    fn homes_and_modules_ask_for_a_theme_by_name() {
        assert_eq!(Theme::for_home(Palette::Rosace, "recycle"), Theme::Recycle);
        assert_eq!(
            Theme::for_home(Palette::Violeta, "bw"),
            Theme::BlackAndWhite
        );
        assert_eq!(
            Theme::for_home(Palette::Violeta, ""),
            Theme::Site(Palette::Violeta)
        );
        assert_eq!(
            Theme::for_home(Palette::Rosace, "summer"),
            Theme::Site(Palette::Rosace)
        );
        assert_eq!(
            Theme::Recycle.block_class("home"),
            "home home--themed theme-recycle"
        );
        assert_eq!(
            Theme::BlackAndWhite.block_class("product"),
            "product product--themed theme-bw"
        );
        assert_eq!(Theme::Site(Palette::Violeta).block_class("home"), "home");
    }

    #[test]
    fn themes_have_their_classes_and_colours() {
        assert_eq!(Theme::Recycle.css_class(), "theme-recycle");
        assert_eq!(Theme::Recycle.color(), "#0BA100");
        assert_eq!(Theme::BlackAndWhite.css_class(), "theme-bw");
        assert_eq!(Theme::BlackAndWhite.color(), "#000000");
        assert_eq!(Theme::Site(Palette::Violeta).css_class(), "theme-violeta");
        assert_eq!(Theme::Site(Palette::Violeta).color(), "#6f2dbd");
        assert!(Theme::Recycle.is_special() && Theme::BlackAndWhite.is_special());
        assert_eq!(Theme::Site(Palette::Retail).css_class(), "theme-retail");
        assert_eq!(Theme::Site(Palette::Retail).color(), "#0b6e8a");
    }

    /// The second retail brand's theme (spec 000 §9) is the two Belgian sites' own: their
    /// pages wear it, and a sale there that asks for nothing keeps it.
    #[test]
    fn the_belgian_sites_wear_the_retail_brands_theme() {
        let wearing = |palette: Palette| -> Vec<u16> {
            crate::site::SITES
                .iter()
                .filter(|s| s.palette == palette)
                .map(|s| s.site_id)
                .collect()
        };
        assert_eq!(wearing(Palette::Retail), [70, 71]);
        assert_eq!(wearing(Palette::Violeta), [66, 69]);
        let belgium = crate::site::by_id_or_default(70);
        assert_eq!(belgium.brand, Brand::Rosace);
        assert_eq!(
            Theme::for_sale(belgium.palette, "", "fs"),
            Theme::Site(Palette::Retail)
        );
        assert_eq!(
            Theme::for_sale(belgium.palette, "bw", "fs"),
            Theme::BlackAndWhite
        );
        assert!(!Theme::for_home(belgium.palette, "").is_special());
    }

    #[test]
    fn the_brand_cookie_is_set_when_missing_or_naming_the_other_brand() {
        assert!(app_brand_cookie_due(None, Brand::Rosace));
        assert!(app_brand_cookie_due(Some("Rosace"), Brand::Violeta));
        assert!(!app_brand_cookie_due(Some("Violeta"), Brand::Violeta));
        assert!(app_brand_cookie_due(Some("rosace"), Brand::Rosace));
        assert_eq!(APP_BRAND_MAX_AGE_SECS, 24 * 3600);
    }
}
