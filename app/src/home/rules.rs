//! Home rules (spec 000 §2 "Home page", §7 homes with isHomeReduced and previewDate, §9):
//! tile classes, the reduced home, preview dates, the sale countdown, pedagogical paging.
//! Pure: shared by the server and the browser, unit-tested. The banner filter and the
//! pedagogical button rule live in `catalog::rules` and are reused from there.
use crate::catalog::rules::{module_matches, PEDAGOGICAL_HOME_ID};
use crate::model::home::HomeModule;
use crate::site::format::DISPLAY_OFFSET_SECS;

// ------------------------------------------------------------------ tiles

/// CSS class of a tile size (M, XL, XXL, MEGAFAT); anything else is an M tile.
/// Page backgrounds a home may ask for (`homes.background_theme`, spec 000 §3
/// backgroundTheme): each a class in style/main.css whose text keeps its contrast.
pub const BACKGROUND_THEMES: [&str; 3] = ["sand", "blush", "mint"];

/// The stored background of a home, when it is one the shop has; anything else is none.
pub fn background_theme(stored: &str) -> &'static str {
    let stored = stored.trim();
    BACKGROUND_THEMES
        .iter()
        .find(|t| t.eq_ignore_ascii_case(stored))
        .copied()
        .unwrap_or("")
}

/// What a closed information toast is remembered by: the home and its text (a new message
/// shows again). FNV-1a: a few bytes of hex, the same in the server and the browser.
pub fn toast_key(home_id: i64, text: &str) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    for b in text.bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    format!("{home_id}-{hash:08x}")
}

/// A member who joined less than this many days ago sees the home's new-member overlay.
pub const NEW_MEMBER_DAYS: i64 = 7;

pub fn size_class(size: &str) -> &'static str {
    match size.trim().to_ascii_uppercase().as_str() {
        "XL" => "tile--xl",
        "XXL" => "tile--xxl",
        "MEGAFAT" => "tile--megafat",
        _ => "tile--m",
    }
}

/// CSS class of a tile layout: 1x1, 1x2 (tall: one column, two rows), 2x1 (wide: two
/// columns, one row), 2x2; anything else is 1x1.
pub fn layout_class(layout: &str) -> &'static str {
    match layout.trim() {
        "1x2" => "tile--1x2",
        "2x1" => "tile--2x1",
        "2x2" => "tile--2x2",
        _ => "tile--1x1",
    }
}

/// Both classes of a banner tile.
pub fn tile_classes(size: &str, layout: &str) -> String {
    format!("tile {} {}", size_class(size), layout_class(layout))
}

// ------------------------------------------------------------------ reduced home

/// A reduced home keeps its first four modules…
pub const REDUCED_MODULES: usize = 4;
/// …without their media-ads banners (no advertising on a reduced home).
pub const MEDIA_ADS: &str = "MediaAdsBanner";

/// The advertising types of spec 000: an advertiser's publicity, and a brand's sponsored
/// banner; each is labelled as what it is (`home.ad_label`, `home.sponsored_label`).
pub const PUBLICITY: &str = "PUBLICITY";
pub const SPONSORED: &str = "SPONSORED";

/// A banner's advertising type: a media-ads banner's stored one (publicity when it names
/// none or another: an ad is never shown unlabelled), none for every other kind.
pub fn advertising_type(kind: &str, stored: &str) -> Option<String> {
    if kind != MEDIA_ADS {
        return None;
    }
    Some(
        if stored == SPONSORED {
            SPONSORED
        } else {
            PUBLICITY
        }
        .to_string(),
    )
}

/// The reduced variant of a home's modules (`isHomeReduced=true`, or a home stored as
/// reduced): the first [`REDUCED_MODULES`] modules, media-ads banners removed.
pub fn reduce(modules: Vec<HomeModule>) -> Vec<HomeModule> {
    modules
        .into_iter()
        .take(REDUCED_MODULES)
        .map(|mut m| {
            m.banners.retain(|b| b.kind != MEDIA_ADS);
            m
        })
        .collect()
}

/// A module as a request shows it: without its sponsored (media-ads) banners when the
/// request goes without sponsored banners (the control of the `*_sponsored_banners`
/// holdback experiments; everyone else, in or outside them, has them).
pub fn with_sponsored(mut module: HomeModule, sponsored: bool) -> HomeModule {
    if !sponsored {
        module.banners.retain(|b| b.kind != MEDIA_ADS);
    }
    module
}

/// `?part=moduleName` (or a module id): only that module; an unknown part leaves the
/// home whole.
pub fn select_part(modules: &[HomeModule], part: Option<&str>) -> Vec<HomeModule> {
    match part.filter(|p| !p.trim().is_empty()) {
        Some(key) => {
            let picked: Vec<HomeModule> = modules
                .iter()
                .filter(|m| module_matches(key, &m.name, m.id))
                .take(1)
                .cloned()
                .collect();
            if picked.is_empty() {
                modules.to_vec()
            } else {
                picked
            }
        }
        None => modules.to_vec(),
    }
}

// ------------------------------------------------------------------ preview dates

/// Days since 1970-01-01 of a civil date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        4 | 6 | 9 | 11 => 30,
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

/// A `previewDate` (`YYYY-MM-DD`, spec 000 §9) as the unix second its day starts at in the
/// sites' time zone; `None` when it is not a real date.
pub fn parse_preview_date(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let digits = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = &s[r];
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    let (y, m, d) = (digits(0..4)?, digits(5..7)? as u32, digits(8..10)? as u32);
    if !(1970..=9999).contains(&y) || !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    Some(days_from_civil(y, m, d) * 86_400 - DISPLAY_OFFSET_SECS)
}

/// When a sale counts as live: it started before `until` and ends after `from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveWindow {
    pub from: i64,
    pub until: i64,
}

impl LiveWindow {
    /// Live now.
    pub fn now(now: i64) -> Self {
        LiveWindow {
            from: now,
            until: now + 1,
        }
    }

    /// Live on a previewed day: sales starting later that day appear; sales ended by the
    /// start of the day (or by now, when the day is today) are gone.
    pub fn preview(now: i64, day_start: i64) -> Self {
        let until = day_start + 86_400;
        let from = if (day_start..until).contains(&now) {
            now
        } else {
            day_start
        };
        LiveWindow { from, until }
    }

    pub fn contains(&self, starts_at: i64, ends_at: i64) -> bool {
        starts_at < self.until && ends_at > self.from
    }
}

// ------------------------------------------------------------------ countdown

/// Seconds left before `end`, never negative.
pub fn seconds_left(end: i64, now: i64) -> i64 {
    (end - now).max(0)
}

/// "Ends in 2 d 04:12:09" / "Ends in 03:12:09" / "Sale ended", in the page's language.
pub fn countdown_text(lang: &str, secs: i64) -> String {
    use crate::site::i18n::t_with;
    if secs <= 0 {
        return crate::site::i18n::t(lang, "home.countdown.ended");
    }
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let time = format!(
        "{:02}:{:02}:{:02}",
        rest / 3600,
        (rest % 3600) / 60,
        rest % 60
    );
    if days > 0 {
        t_with(
            lang,
            "home.countdown.days",
            &[("days", &days.to_string()), ("time", &time)],
        )
    } else {
        t_with(lang, "home.countdown.hours", &[("time", &time)])
    }
}

// ------------------------------------------------------------------ pedagogical module

/// Splits items into pages of `per_page` (at least one per page).
pub fn paginate<T: Clone>(items: &[T], per_page: usize) -> Vec<Vec<T>> {
    items.chunks(per_page.max(1)).map(<[T]>::to_vec).collect()
}

/// A pedagogical link with the home identifier 1 (spec 000 §2) in its query.
pub fn with_home_id(link: &str) -> String {
    if link.is_empty() {
        return link.to_string();
    }
    let (path, fragment) = match link.split_once('#') {
        Some((p, f)) => (p, format!("#{f}")),
        None => (link, String::new()),
    };
    if path
        .split_once('?')
        .is_some_and(|(_, q)| q.split('&').any(|kv| kv.starts_with("homeId=")))
    {
        return link.to_string();
    }
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}homeId={PEDAGOGICAL_HOME_ID}{fragment}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_toast_is_remembered_by_home_and_text() {
        let key = super::toast_key(1000, "Livraison retardée");
        assert_eq!(key, super::toast_key(1000, "Livraison retardée"));
        assert!(key.starts_with("1000-"));
        assert_ne!(key, super::toast_key(1000, "Livraison rétablie"));
        assert_ne!(key, super::toast_key(1001, "Livraison retardée"));
    }

    #[test]
    fn a_background_is_one_the_shop_has_or_none() {
        assert_eq!(super::background_theme("sand"), "sand");
        assert_eq!(super::background_theme(" Mint "), "mint");
        assert_eq!(super::background_theme("url(evil)"), "");
        assert_eq!(super::background_theme(""), "");
    }

    use super::*;
    use crate::model::home::{Banner, ModuleSettings};

    fn module(id: i64, name: &str, kinds: &[&str]) -> HomeModule {
        HomeModule {
            id,
            kind: "highlight".into(),
            name: name.into(),
            title: String::new(),
            settings: ModuleSettings::default(),
            banners: kinds
                .iter()
                .enumerate()
                .map(|(i, k)| Banner {
                    id: i as i64,
                    kind: k.to_string(),
                    sale_id: None,
                    title: String::new(),
                    image_url: String::new(),
                    mobile_image_url: String::new(),
                    link: String::new(),
                    tile_size: "M".into(),
                    layout: "1x1".into(),
                    end_date: None,
                    advertising_type: None,
                })
                .collect(),
            sales: vec![],
        }
    }

    #[test]
    fn only_media_ads_banners_are_advertising_and_each_says_its_type() {
        assert_eq!(
            advertising_type(MEDIA_ADS, "SPONSORED").as_deref(),
            Some(SPONSORED)
        );
        assert_eq!(
            advertising_type(MEDIA_ADS, "PUBLICITY").as_deref(),
            Some(PUBLICITY)
        );
        assert_eq!(advertising_type(MEDIA_ADS, "").as_deref(), Some(PUBLICITY));
        assert_eq!(
            advertising_type(MEDIA_ADS, "sponsored").as_deref(),
            Some(PUBLICITY)
        );
        assert_eq!(advertising_type("SaleBanner", "SPONSORED"), None);
    }

    #[test]
    fn tile_classes_map_sizes_and_layouts() {
        assert_eq!(size_class("M"), "tile--m");
        assert_eq!(size_class("xl"), "tile--xl");
        assert_eq!(size_class("XXL"), "tile--xxl");
        assert_eq!(size_class("MEGAFAT"), "tile--megafat");
        assert_eq!(size_class("huge"), "tile--m");
        assert_eq!(layout_class("1x2"), "tile--1x2");
        assert_eq!(layout_class("2x1"), "tile--2x1");
        assert_eq!(layout_class("2x2"), "tile--2x2");
        assert_eq!(layout_class("3x3"), "tile--1x1");
        assert_eq!(tile_classes("XL", "2x1"), "tile tile--xl tile--2x1");
    }

    #[test]
    fn a_reduced_home_keeps_four_modules_without_media_ads() {
        let modules: Vec<HomeModule> = (0..6)
            .map(|i| {
                module(
                    i,
                    &format!("m{i}"),
                    &["SaleBanner", MEDIA_ADS, "DealBanner"],
                )
            })
            .collect();
        let reduced = reduce(modules);
        assert_eq!(reduced.len(), REDUCED_MODULES);
        assert!(reduced
            .iter()
            .all(|m| m.banners.len() == 2 && m.banners.iter().all(|b| b.kind != MEDIA_ADS)));
        assert_eq!(reduce(vec![module(1, "a", &[])]).len(), 1);
    }

    #[test]
    fn sponsored_banners_go_only_for_their_holdback_control() {
        let m = module(1, "deals", &["DealBanner", MEDIA_ADS, "SaleBanner"]);
        let kept = with_sponsored(m.clone(), true);
        assert_eq!(kept, m);
        let held = with_sponsored(m, false);
        let kinds: Vec<&str> = held.banners.iter().map(|b| b.kind.as_str()).collect();
        assert_eq!(kinds, vec!["DealBanner", "SaleBanner"]);
    }

    #[test]
    fn part_picks_one_module_by_name_or_id() {
        let modules = vec![module(10, "highlights", &[]), module(11, "Pedagogy", &[])];
        assert_eq!(select_part(&modules, Some("PEDAGOGY"))[0].id, 11);
        assert_eq!(select_part(&modules, Some("10"))[0].id, 10);
        assert_eq!(select_part(&modules, Some("nope")).len(), 2);
        assert_eq!(select_part(&modules, None).len(), 2);
        assert_eq!(select_part(&modules, Some("")).len(), 2);
    }

    #[test]
    fn preview_dates_parse_strictly() {
        // 2026-11-22 00:00 in the sites' time zone (UTC+1) is 2026-11-21 23:00 UTC.
        assert_eq!(parse_preview_date("2026-11-22"), Some(1_795_305_600 - 3600));
        assert_eq!(parse_preview_date("1970-01-02"), Some(86_400 - 3600));
        assert_eq!(
            parse_preview_date("2028-02-29").map(|d| d + 3600 - 86_400),
            parse_preview_date("2028-02-28").map(|d| d + 3600)
        );
        for bad in [
            "",
            "2026-02-30",
            "2027-02-29",
            "2026-13-01",
            "2026-00-10",
            "26-11-22",
            "2026/11/22",
            "2026-1-222",
            "22/11/2026",
            "2026-11-2x",
            "+026-11-22",
        ] {
            assert_eq!(parse_preview_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn preview_windows_show_later_starts_and_hide_ended_sales() {
        let now = 1_000_000;
        let live = LiveWindow::now(now);
        assert!(live.contains(now, now + 1));
        assert!(!live.contains(now + 1, now + 100), "starts later");
        assert!(!live.contains(now - 100, now), "ended");
        // Tomorrow: a sale starting tomorrow afternoon shows; one ending tonight does not.
        let tomorrow = now - now % 86_400 + 86_400;
        let w = LiveWindow::preview(now, tomorrow);
        assert!(w.contains(tomorrow + 15 * 3600, tomorrow + 5 * 86_400));
        assert!(!w.contains(now - 10, tomorrow - 1));
        assert!(!w.contains(tomorrow + 86_400, tomorrow + 3 * 86_400));
        // Today: from now on.
        let today = now - now % 86_400;
        let w = LiveWindow::preview(now, today);
        assert_eq!(w.from, now);
        assert!(!w.contains(today, now - 1));
    }

    #[test]
    fn countdown_formats_days_and_hours_in_every_language() {
        assert_eq!(seconds_left(100, 40), 60);
        assert_eq!(seconds_left(10, 40), 0);
        let secs = 2 * 86_400 + 4 * 3600 + 12 * 60 + 9;
        assert_eq!(countdown_text("fr", secs), "Se termine dans 2 j 04:12:09");
        assert_eq!(
            countdown_text("de", 3 * 3600 + 12 * 60 + 9),
            "Endet in 03:12:09"
        );
        assert_eq!(countdown_text("es", 59), "Termina en 00:00:59");
        assert_eq!(countdown_text("it", 86_400), "Termina tra 1 g 00:00:00");
        assert_eq!(countdown_text("nl", secs), "Eindigt over 2 d 04:12:09");
        assert_eq!(countdown_text("fr", 0), "Vente terminée");
        assert_ne!(countdown_text("de", 0), countdown_text("fr", 0));
    }

    #[test]
    fn pedagogical_pages_and_links() {
        let pages = paginate(&[1, 2, 3, 4, 5], 2);
        assert_eq!(pages, vec![vec![1, 2], vec![3, 4], vec![5]]);
        assert_eq!(paginate(&[1], 0), vec![vec![1]]);
        assert!(paginate::<u8>(&[], 4).is_empty());
        assert_eq!(with_home_id("/gr/home/summer"), "/gr/home/summer?homeId=1");
        assert_eq!(
            with_home_id("/catalog/1/2?dc=0#top"),
            "/catalog/1/2?dc=0&homeId=1#top"
        );
        assert_eq!(with_home_id("/x?homeId=1"), "/x?homeId=1");
        assert_eq!(with_home_id(""), "");
    }
}
