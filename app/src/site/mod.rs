//! The 11 country sites (spec 000 §3 "Sites"): cultures, brands, money and date formats,
//! translations. The site is request context, never a global.
pub mod format;
pub mod i18n;
pub mod theme;

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Brand {
    /// The main brand.
    Rosace,
    /// The sister brand of sites 66 and 69 (purple theme).
    Violeta,
}

impl Brand {
    pub fn name(self) -> &'static str {
        match self {
            Brand::Rosace => "Rosace",
            Brand::Violeta => "Violeta",
        }
    }
    /// The palette of the brand's sites (but those that wear the retail theme).
    pub const fn palette(self) -> Palette {
        match self {
            Brand::Rosace => Palette::Rosace,
            Brand::Violeta => Palette::Violeta,
        }
    }
}

/// A site's own colours (spec 000 §9): its brand's (Rosace pink, Violeta purple on two
/// sites), or the second retail brand's theme that two other sites wear, the two Belgian
/// sites (70, 71). The spec names that theme without naming its sites; Belgium is one
/// market in two languages, so both its sites look alike. The brand (name, `appBrand`
/// cookie, sister sites) stays Rosace there: only the colours differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Palette {
    Rosace,
    Violeta,
    Retail,
}

impl Palette {
    /// The class that sets the palette's colours (style/main.css).
    pub fn css_class(self) -> &'static str {
        match self {
            Palette::Rosace => "theme-rosace",
            Palette::Violeta => "theme-violeta",
            Palette::Retail => "theme-retail",
        }
    }

    /// The main colour (the browser's theme colour).
    pub fn color(self) -> &'static str {
        match self {
            Palette::Rosace => "#d6336c",
            Palette::Violeta => "#6f2dbd",
            Palette::Retail => "#0b6e8a",
        }
    }
}

/// A site's culture, with the fields the spec names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Site {
    pub site_id: u16,
    pub country_code: &'static str,
    pub lang: &'static str,
    pub label: &'static str,
    pub locale: &'static str,
    pub translation_locale: &'static str,
    pub fallback_locale: &'static str,
    pub date_format: &'static str,
    pub currency_code: &'static str,
    /// The languages the brand sells in the site's country, the site's own first: one
    /// site per language (Belgium: 70 French, 71 Dutch), each a link away from the other.
    pub languages: &'static [&'static str],
    #[serde(skip)]
    pub brand: Brand,
    /// The colours the site's pages wear.
    #[serde(skip)]
    pub palette: Palette,
}

#[allow(clippy::too_many_arguments)] // one row of the site table
const fn site(
    site_id: u16,
    country_code: &'static str,
    lang: &'static str,
    label: &'static str,
    locale: &'static str,
    translation_locale: &'static str,
    date_format: &'static str,
    brand: Brand,
) -> Site {
    Site {
        site_id,
        country_code,
        lang,
        label,
        locale,
        translation_locale,
        fallback_locale: "fr-fr",
        date_format,
        currency_code: "EUR",
        languages: one_language(lang),
        brand,
        palette: brand.palette(),
    }
}

/// The one language of a site whose country the brand sells in one language.
const fn one_language(lang: &'static str) -> &'static [&'static str] {
    match lang.as_bytes() {
        b"fr" => &["fr"],
        b"de" => &["de"],
        b"es" => &["es"],
        b"it" => &["it"],
        _ => &["nl"],
    }
}

/// A site of a country the brand sells in several languages (`languages`, its own first).
const fn languages(site: Site, languages: &'static [&'static str]) -> Site {
    Site { languages, ..site }
}

/// A language's name in that language, as a language switch shows it.
pub fn autonym(lang: &str) -> &'static str {
    match lang {
        "fr" => "Français",
        "de" => "Deutsch",
        "es" => "Español",
        "it" => "Italiano",
        "nl" => "Nederlands",
        _ => "",
    }
}

/// The spec's site groups (000 §3): rules that hold for a whole group name it, not its ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteGroup {
    /// Sites 70, 71, 73 and 76: Belgium in two languages, Luxembourg, the Netherlands.
    Benelux,
    /// Sites 66 and 69, the sister brand's Spanish and Italian sites.
    SisterBrand,
}

/// A site of the table that wears the second retail brand's theme.
const fn retail(site: Site) -> Site {
    Site {
        palette: Palette::Retail,
        ..site
    }
}

use Brand::{Rosace, Violeta};

pub static SITES: [Site; 11] = [
    site(
        1,
        "FR",
        "fr",
        "France",
        "fr-FR",
        "fr-fr",
        "DD/MM/YYYY",
        Rosace,
    ),
    site(
        2,
        "DE",
        "de",
        "Deutschland",
        "de-DE",
        "de-de",
        "DD.MM.YYYY",
        Rosace,
    ),
    site(
        3,
        "ES",
        "es",
        "España",
        "es-ES",
        "es-es",
        "DD/MM/YYYY",
        Rosace,
    ),
    site(
        4,
        "IT",
        "it",
        "Italia",
        "it-IT",
        "it-it",
        "DD/MM/YYYY",
        Rosace,
    ),
    site(
        7,
        "AT",
        "de",
        "Österreich",
        "de-AT",
        "de-de",
        "DD.MM.YYYY",
        Rosace,
    ),
    site(
        66,
        "ES",
        "es",
        "España",
        "es-ES",
        "es-es",
        "DD/MM/YYYY",
        Violeta,
    ),
    site(
        69,
        "IT",
        "it",
        "Italia",
        "it-IT",
        "it-it",
        "DD/MM/YYYY",
        Violeta,
    ),
    languages(
        retail(site(
            70,
            "BE",
            "fr",
            "Belgique",
            "fr-BE",
            "fr-fr",
            "DD/MM/YYYY",
            Rosace,
        )),
        &["fr", "nl"],
    ),
    languages(
        retail(site(
            71,
            "BE",
            "nl",
            "België",
            "nl-BE",
            "nl-nl",
            "DD/MM/YYYY",
            Rosace,
        )),
        &["nl", "fr"],
    ),
    site(
        73,
        "LU",
        "fr",
        "Luxembourg",
        "fr-LU",
        "fr-fr",
        "DD/MM/YYYY",
        Rosace,
    ),
    site(
        76,
        "NL",
        "nl",
        "Nederland",
        "nl-NL",
        "nl-nl",
        "DD-MM-YYYY",
        Rosace,
    ),
];

/// Default site (spec 000 §3: locale fr-fr, siteId 1).
pub const DEFAULT_SITE_ID: u16 = 1;

pub fn by_id(site_id: u16) -> Option<&'static Site> {
    SITES.iter().find(|s| s.site_id == site_id)
}

pub fn by_id_or_default(site_id: u16) -> &'static Site {
    by_id(site_id).unwrap_or(&SITES[0])
}

impl Site {
    /// Sites of the same brand: hreflang alternates only link pages of one brand.
    pub fn siblings(&self) -> impl Iterator<Item = &'static Site> + '_ {
        SITES.iter().filter(move |s| s.brand == self.brand)
    }
    /// The group the site belongs to, if any.
    pub fn group(&self) -> Option<SiteGroup> {
        match self.site_id {
            70 | 71 | 73 | 76 => Some(SiteGroup::Benelux),
            66 | 69 => Some(SiteGroup::SisterBrand),
            _ => None,
        }
    }
    /// The brand's other sites in the same country, one per language (`languages`): the
    /// page in the other language is one of these.
    pub fn other_languages(&self) -> impl Iterator<Item = &'static Site> + '_ {
        SITES.iter().filter(move |s| {
            s.site_id != self.site_id
                && s.brand == self.brand
                && s.country_code == self.country_code
                && self.languages.contains(&s.lang)
        })
    }
    pub fn logo_url(&self) -> String {
        format!("/img/logo/{}.svg", self.site_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_of_a_country_is_one_site_away() {
        for site in &SITES {
            assert_eq!(
                site.languages.first(),
                Some(&site.lang),
                "site {}",
                site.site_id
            );
            let others: Vec<&str> = site.other_languages().map(|s| s.lang).collect();
            assert_eq!(others, site.languages[1..], "site {}", site.site_id);
        }
        let belgium = |id| {
            by_id(id)
                .unwrap()
                .other_languages()
                .map(|s| s.site_id)
                .collect::<Vec<_>>()
        };
        assert_eq!(belgium(70), [71]);
        assert_eq!(belgium(71), [70]);
        // Spain's two sites are two brands, not two languages.
        assert_eq!(belgium(3), Vec::<u16>::new());
    }

    #[test]
    fn the_spec_groups_its_sites() {
        let of = |group| {
            SITES
                .iter()
                .filter(|s| s.group() == Some(group))
                .map(|s| s.site_id)
                .collect::<Vec<_>>()
        };
        assert_eq!(of(SiteGroup::Benelux), [70, 71, 73, 76]);
        assert_eq!(of(SiteGroup::SisterBrand), [66, 69]);
        assert!(SITES
            .iter()
            .filter(|s| s.group() == Some(SiteGroup::SisterBrand))
            .all(|s| s.brand == Brand::Violeta));
    }

    #[test]
    fn eleven_sites_with_the_spec_ids_and_locales() {
        let ids: Vec<u16> = SITES.iter().map(|s| s.site_id).collect();
        assert_eq!(ids, [1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76]);
        let locales: Vec<&str> = SITES.iter().map(|s| s.locale).collect();
        assert_eq!(
            locales,
            [
                "fr-FR", "de-DE", "es-ES", "it-IT", "de-AT", "es-ES", "it-IT", "fr-BE", "nl-BE",
                "fr-LU", "nl-NL"
            ]
        );
    }

    #[test]
    fn sister_brand_is_sites_66_and_69() {
        let violeta: Vec<u16> = SITES
            .iter()
            .filter(|s| s.brand == Brand::Violeta)
            .map(|s| s.site_id)
            .collect();
        assert_eq!(violeta, [66, 69]);
        assert_eq!(by_id(99), None);
        assert_eq!(by_id_or_default(99).site_id, 1);
    }
}
