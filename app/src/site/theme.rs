//! Themes (spec 000 §9): each brand's own palette (Rosace pink, Violeta purple on sites 66
//! and 69), and the themes a sale may ask for: the green "recycle" variant (main colour
//! #0BA100) and black and white. And the brand cookie `appBrand` (spec 000 §3, §9: 1 day)
//! recording which brand the visitor was last shown.
use super::Brand;

/// What a page is painted with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// The site's brand palette.
    Brand(Brand),
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
    /// The theme of a sale of a site of `brand`: the one the sale asks for (by its stored
    /// name, any case, spaces ignored), else a recycling seller's sale is green, else the
    /// brand's own. An unknown name falls back to the brand: a typo never unstyles a sale.
    pub fn for_sale(brand: Brand, asked: &str, seller_kind: &str) -> Theme {
        match asked.trim().to_ascii_lowercase().as_str() {
            RECYCLE => Theme::Recycle,
            BLACK_AND_WHITE | "black-and-white" | "blackandwhite" => Theme::BlackAndWhite,
            _ if seller_kind.trim().eq_ignore_ascii_case(RECYCLE) => Theme::Recycle,
            _ => Theme::Brand(brand),
        }
    }

    /// What a sale's wire `theme` says: `recycle`, `bw`, or empty for its site's brand.
    pub fn sale_theme(asked: &str, seller_kind: &str) -> &'static str {
        match Theme::for_sale(Brand::Rosace, asked, seller_kind) {
            Theme::Brand(_) => "",
            t => t.name(),
        }
    }

    /// The theme a home or a home module asks for (`homes.theme`, a module's `theme`
    /// setting): as a sale's, without the seller rule; unknown or empty: the brand's.
    pub fn for_home(brand: Brand, asked: &str) -> Theme {
        Theme::for_sale(brand, asked, "")
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
            Theme::Brand(b) => b.css_class(),
            Theme::Recycle => "theme-recycle",
            Theme::BlackAndWhite => "theme-bw",
        }
    }

    /// The stored name (`data-theme` on the page); the brand's class name for a brand.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Brand(b) => b.css_class(),
            Theme::Recycle => RECYCLE,
            Theme::BlackAndWhite => BLACK_AND_WHITE,
        }
    }

    /// The main colour (the browser's theme colour).
    pub fn color(self) -> &'static str {
        match self {
            Theme::Brand(Brand::Rosace) => "#d6336c",
            Theme::Brand(Brand::Violeta) => "#6f2dbd",
            Theme::Recycle => RECYCLE_COLOR,
            Theme::BlackAndWhite => "#000000",
        }
    }

    /// Whether the theme differs from the site's own (the page then wears its class).
    pub fn is_special(self) -> bool {
        !matches!(self, Theme::Brand(_))
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
            Theme::for_sale(Brand::Rosace, "recycle", "fs"),
            Theme::Recycle
        );
        assert_eq!(
            Theme::for_sale(Brand::Violeta, " BW ", "fs"),
            Theme::BlackAndWhite
        );
        assert_eq!(
            Theme::for_sale(Brand::Rosace, "black-and-white", "marketplace"),
            Theme::BlackAndWhite
        );
    }

    #[test]
    fn a_recycling_sellers_sale_is_green_unless_it_asks_otherwise() {
        assert_eq!(
            Theme::for_sale(Brand::Rosace, "", "recycle"),
            Theme::Recycle
        );
        assert_eq!(
            Theme::for_sale(Brand::Rosace, "bw", "recycle"),
            Theme::BlackAndWhite
        );
    }

    #[test]
    fn other_sales_keep_their_sites_brand() {
        assert_eq!(
            Theme::for_sale(Brand::Rosace, "", "fs"),
            Theme::Brand(Brand::Rosace)
        );
        assert_eq!(
            Theme::for_sale(Brand::Violeta, "neon", "marketplace"),
            Theme::Brand(Brand::Violeta)
        );
        assert!(!Theme::for_sale(Brand::Violeta, "", "fs").is_special());
        assert_eq!(Theme::sale_theme("", "fs"), "");
        assert_eq!(Theme::sale_theme("", "recycle"), "recycle");
        assert_eq!(Theme::sale_theme("BW", "fs"), "bw");
    }

    #[test]
    fn homes_and_modules_ask_for_a_theme_by_name() {
        assert_eq!(Theme::for_home(Brand::Rosace, "recycle"), Theme::Recycle);
        assert_eq!(Theme::for_home(Brand::Violeta, "bw"), Theme::BlackAndWhite);
        assert_eq!(
            Theme::for_home(Brand::Violeta, ""),
            Theme::Brand(Brand::Violeta)
        );
        assert_eq!(
            Theme::for_home(Brand::Rosace, "summer"),
            Theme::Brand(Brand::Rosace)
        );
        assert_eq!(
            Theme::Recycle.block_class("home"),
            "home home--themed theme-recycle"
        );
        assert_eq!(
            Theme::BlackAndWhite.block_class("product"),
            "product product--themed theme-bw"
        );
        assert_eq!(Theme::Brand(Brand::Violeta).block_class("home"), "home");
    }

    #[test]
    fn themes_have_their_classes_and_colours() {
        assert_eq!(Theme::Recycle.css_class(), "theme-recycle");
        assert_eq!(Theme::Recycle.color(), "#0BA100");
        assert_eq!(Theme::BlackAndWhite.css_class(), "theme-bw");
        assert_eq!(Theme::BlackAndWhite.color(), "#000000");
        assert_eq!(Theme::Brand(Brand::Violeta).css_class(), "theme-violeta");
        assert_eq!(Theme::Brand(Brand::Violeta).color(), "#6f2dbd");
        assert!(Theme::Recycle.is_special() && Theme::BlackAndWhite.is_special());
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
