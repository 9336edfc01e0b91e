//! Experiments (spec 000 §6-§7): which experiments exist, for whom, with which variations
//! and weights, and the deterministic bucketing that gives a visitor their variation; the
//! Wilson interval of the report. Pure code, the same on the server and in the browser.
use crate::model::experiments::{Experiments, Feature};

/// Who an experiment is run on: its names differ between the two (spec 000 §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// A visitor without a session, bucketed by the anonymous id cookie.
    Anonymous,
    /// A signed-in member, bucketed by member id.
    Member,
}

/// One experiment: its name, audience, the feature its non-control variations switch on,
/// and its variations with their default weights. The first is the control, always the
/// shop without the feature: for a new feature (`Feature::launched` false) that is the
/// shop as it was; for a launched feature the experiment is a holdback, whose small
/// control goes without a feature everyone outside the experiment has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Definition {
    pub name: &'static str,
    pub audience: Audience,
    pub feature: Feature,
    pub variations: &'static [(&'static str, u32)],
}

impl Definition {
    pub fn control(&self) -> &'static str {
        self.variations[0].0
    }

    /// A holdback experiment: its feature is launched (on outside the experiment).
    pub fn is_holdback(&self) -> bool {
        self.feature.launched()
    }

    /// Whether `variation` shows the feature (every variation but the control does).
    pub fn shows_feature(&self, variation: &str) -> bool {
        variation != self.control()
    }

    /// The variation whose page a visitor outside the experiment sees: the first
    /// variation with the feature for a holdback, the control otherwise.
    pub fn outside_variation(&self) -> &'static str {
        match self.variations.get(1) {
            Some((with_feature, _)) if self.is_holdback() => with_feature,
            _ => self.control(),
        }
    }
}

/// The experiments of the product. Weights are relative (here per cent); a deployment
/// changes them with `ROSACE_EXPERIMENT_WEIGHTS` (see `Settings`). The holdbacks (last
/// viewed, contact-form attachments, sponsored banners, the cities service, the contact
/// form's automatic answers, in-app navigation: features everyone had before experiments)
/// keep a small control of 10%.
pub const EXPERIMENTS: [Definition; 16] = [
    Definition {
        name: "anonymous_dynamic_pricing",
        audience: Audience::Anonymous,
        feature: Feature::DynamicPricing,
        variations: &[("off", 50), ("on", 50)],
    },
    Definition {
        name: "member_dynamic_pricing",
        audience: Audience::Member,
        feature: Feature::DynamicPricing,
        variations: &[("off", 50), ("on", 50)],
    },
    Definition {
        name: "member_rosedeals_menu",
        audience: Audience::Member,
        feature: Feature::RosedealsMenu,
        variations: &[("control", 50), ("var1_enabled", 50)],
    },
    Definition {
        name: "member_favourites_page",
        audience: Audience::Member,
        feature: Feature::FavouritesPage,
        variations: &[("control", 50), ("var1_enabled", 50)],
    },
    // Holdbacks: the last-viewed list is a member's (visitors have none).
    Definition {
        name: "member_last_viewed",
        audience: Audience::Member,
        feature: Feature::LastViewed,
        variations: &[("control", 10), ("var1_enabled", 90)],
    },
    // The contact form is for members only.
    Definition {
        name: "member_contact_form_attachments",
        audience: Audience::Member,
        feature: Feature::ContactFormAttachments,
        variations: &[("control", 10), ("var1_enabled", 90)],
    },
    // Sponsored banners are programmatic advertising: spec 000 §6 names `var2_programmatic`.
    Definition {
        name: "anonymous_sponsored_banners",
        audience: Audience::Anonymous,
        feature: Feature::SponsoredBanners,
        variations: &[("control", 10), ("var2_programmatic", 90)],
    },
    Definition {
        name: "member_sponsored_banners",
        audience: Audience::Member,
        feature: Feature::SponsoredBanners,
        variations: &[("control", 10), ("var2_programmatic", 90)],
    },
    Definition {
        name: "member_vouchers_revamp",
        audience: Audience::Member,
        feature: Feature::VouchersRevamp,
        variations: &[("control", 50), ("var1_enabled", 50)],
    },
    // The revamps of a member's pages and menus: new versions, half and half.
    Definition {
        name: "member_communications_revamp",
        audience: Audience::Member,
        feature: Feature::CommunicationsRevamp,
        variations: &[("control", 50), ("var1_enabled", 50)],
    },
    Definition {
        name: "member_menu_revamp",
        audience: Audience::Member,
        feature: Feature::MenuRevamp,
        variations: &[("control", 50), ("var1_enabled", 50)],
    },
    Definition {
        name: "member_burger_menu_revamp",
        audience: Audience::Member,
        feature: Feature::BurgerMenuRevamp,
        variations: &[("control", 50), ("var1_enabled", 50)],
    },
    Definition {
        name: "member_brands_place_details",
        audience: Audience::Member,
        feature: Feature::BrandsPlaceDetails,
        variations: &[("control", 50), ("var1_enabled", 50)],
    },
    // Holdbacks of what members had before these switches: the cities service in the
    // address forms, the contact form's automatic answers, in-app navigation.
    Definition {
        name: "member_address_service",
        audience: Audience::Member,
        feature: Feature::AddressService,
        variations: &[("control", 10), ("var1_enabled", 90)],
    },
    Definition {
        name: "member_contact_form",
        audience: Audience::Member,
        feature: Feature::ContactForm,
        variations: &[("control", 10), ("var1_enabled", 90)],
    },
    Definition {
        name: "member_programmatic_navigation",
        audience: Audience::Member,
        feature: Feature::ProgrammaticNavigation,
        variations: &[("control", 10), ("var1_enabled", 90)],
    },
];

/// The definition of an experiment by name.
pub fn definition(name: &str) -> Option<&'static Definition> {
    EXPERIMENTS.iter().find(|d| d.name == name)
}

/// The names of the experiments run on `audience`.
pub fn names_for(audience: Audience) -> Vec<&'static str> {
    EXPERIMENTS
        .iter()
        .filter(|d| d.audience == audience)
        .map(|d| d.name)
        .collect()
}

/// The anonymous id cookie (spec 000 §6): set by the server on the first page view of a
/// visitor who accepted performance cookies, kept 13 months.
pub const ANON_ID_COOKIE: &str = "rosace_anon_id";
/// 13 months: the longest an audience-measurement id may live (CNIL).
pub const ANON_ID_MAX_AGE: i64 = 395 * 86_400;
/// The consent category experiments need (performance, as for the performance metrics).
pub const CONSENT_CATEGORY: &str = "C0002";

/// An anonymous id: 128 random bits in lower-case hex.
pub fn is_anon_id(v: &str) -> bool {
    v.len() == 32 && v.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Whom the variations call's `memberId` names: a member id (digits) or an anonymous id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    Member(i64),
    Anonymous(String),
}

impl Subject {
    pub fn parse(raw: &str) -> Option<Subject> {
        if is_anon_id(raw) {
            return Some(Subject::Anonymous(raw.to_string()));
        }
        let digits = !raw.is_empty() && raw.len() <= 18 && raw.bytes().all(|b| b.is_ascii_digit());
        match raw.parse::<i64>() {
            Ok(id) if digits && id > 0 => Some(Subject::Member(id)),
            _ => None,
        }
    }

    pub fn audience(&self) -> Audience {
        match self {
            Subject::Member(_) => Audience::Member,
            Subject::Anonymous(_) => Audience::Anonymous,
        }
    }

    /// The key the bucketing hashes and the assignments are stored under.
    pub fn key(&self) -> String {
        match self {
            Subject::Member(id) => format!("m:{id}"),
            Subject::Anonymous(id) => format!("a:{id}"),
        }
    }
}

/// 64-bit FNV-1a followed by the SplitMix64 finaliser (FNV alone spreads similar inputs
/// poorly in its low bits). Stable across versions, platforms and processes: changing it
/// moves every visitor to another variation.
pub fn hash(input: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in input.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// The variation of `visitor_key` in `def` with `weights` (one per variation; all zero
/// means the control): the hash of visitor and experiment name, cut by cumulative weight.
pub fn assign(def: &Definition, weights: &[u32], visitor_key: &str) -> &'static str {
    let total: u64 = weights.iter().map(|w| u64::from(*w)).sum();
    if total == 0 || weights.len() != def.variations.len() {
        return def.control();
    }
    let point = hash(&format!("{visitor_key}|{}", def.name)) % total;
    let mut edge = 0u64;
    for (i, w) in weights.iter().enumerate() {
        edge += u64::from(*w);
        if point < edge {
            return def.variations[i].0;
        }
    }
    def.control()
}

/// The experiments' settings: on or off, weights replacing the defaults, and the
/// experiments an operator stopped (`controls::effective` adds the back office's state).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `ROSACE_EXPERIMENTS=off`: nobody is in an experiment (everyone sees each feature at
    /// its default: new features off, launched ones on).
    pub disabled: bool,
    /// Weights per experiment, in its variations' order.
    pub weights: Vec<(&'static str, Vec<u32>)>,
    /// Experiments stopped from the back office: nobody is in them, as if experiments were
    /// off for that one experiment alone.
    pub stopped: Vec<&'static str>,
}

impl Settings {
    /// From a variable lookup: `ROSACE_EXPERIMENTS` (`on`/`off`) and
    /// `ROSACE_EXPERIMENT_WEIGHTS` (`name=variation:weight,...;name=...`).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Settings, String> {
        let mut s = Settings::default();
        if let Some(v) = get("ROSACE_EXPERIMENTS") {
            s.disabled = match v.trim() {
                "" | "on" | "1" | "true" => false,
                "off" | "0" | "false" => true,
                other => return Err(format!("ROSACE_EXPERIMENTS: not on/off: {other:?}")),
            };
        }
        if let Some(v) = get("ROSACE_EXPERIMENT_WEIGHTS") {
            s.weights = parse_weights(&v).map_err(|e| format!("ROSACE_EXPERIMENT_WEIGHTS: {e}"))?;
        }
        Ok(s)
    }

    /// The weights of `def`: configured, or its defaults.
    pub fn weights_of(&self, def: &Definition) -> Vec<u32> {
        self.weights
            .iter()
            .find(|(n, _)| *n == def.name)
            .map(|(_, w)| w.clone())
            .unwrap_or_else(|| def.variations.iter().map(|(_, w)| *w).collect())
    }

    /// Whether `def` runs: experiments are on and no operator stopped it.
    pub fn runs(&self, def: &Definition) -> bool {
        !self.disabled && !self.stopped.contains(&def.name)
    }

    /// The variation of one experiment for a visitor (with experiments off or this one
    /// stopped, the one a visitor outside the experiment sees).
    pub fn variation(&self, def: &Definition, visitor_key: &str) -> &'static str {
        if !self.runs(def) {
            return def.outside_variation();
        }
        assign(def, &self.weights_of(def), visitor_key)
    }

    /// Every running experiment of `audience` for a visitor, and the features their
    /// variations turn away from the default. With experiments off: nobody is in one (the
    /// defaults); a stopped one is left out the same way, so no exposure is recorded for it.
    pub fn experiments_for(&self, audience: Audience, visitor_key: &str) -> Experiments {
        let mut out = Experiments::outside();
        if self.disabled {
            return out;
        }
        for def in EXPERIMENTS
            .iter()
            .filter(|d| d.audience == audience && self.runs(d))
        {
            let variation = self.variation(def, visitor_key);
            let shown = def.shows_feature(variation);
            if shown != def.feature.launched() && !out.switched.contains(&def.feature) {
                out.switched.push(def.feature);
            }
            out.assigned
                .push((def.name.to_string(), variation.to_string()));
        }
        out
    }

    /// The environment's settings, read on first use; a bad value is logged and the
    /// defaults kept. The shop decides with `service::Live`, these plus the operators'
    /// controls.
    #[cfg(feature = "ssr")]
    pub fn current() -> &'static Settings {
        static CURRENT: std::sync::OnceLock<Settings> = std::sync::OnceLock::new();
        CURRENT.get_or_init(|| {
            Settings::from_lookup(|k| std::env::var(k).ok()).unwrap_or_else(|e| {
                tracing::error!(error = %e, "experiment settings refused, defaults kept");
                Settings::default()
            })
        })
    }
}

/// `name=variation:weight,variation:weight;name=...`: every variation of a named
/// experiment, each once, weights summing above zero.
pub fn parse_weights(raw: &str) -> Result<Vec<(&'static str, Vec<u32>)>, String> {
    let mut out: Vec<(&'static str, Vec<u32>)> = Vec::new();
    for part in raw.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, list) = part
            .split_once('=')
            .ok_or_else(|| format!("{part:?}: expected name=variation:weight,..."))?;
        let def = definition(name.trim()).ok_or_else(|| format!("unknown experiment {name:?}"))?;
        let mut weights: Vec<Option<u32>> = vec![None; def.variations.len()];
        for pair in list.split(',') {
            let (variation, weight) = pair
                .split_once(':')
                .ok_or_else(|| format!("{pair:?}: expected variation:weight"))?;
            let i = def
                .variations
                .iter()
                .position(|(v, _)| *v == variation.trim())
                .ok_or_else(|| format!("{}: no variation {variation:?}", def.name))?;
            let w = weight
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|w| *w <= 1_000_000)
                .ok_or_else(|| format!("{}: not a weight {weight:?}", def.name))?;
            if weights[i].replace(w).is_some() {
                return Err(format!("{}: {variation:?} given twice", def.name));
            }
        }
        let weights: Vec<u32> = weights
            .into_iter()
            .collect::<Option<_>>()
            .ok_or_else(|| format!("{}: every variation needs a weight", def.name))?;
        if weights.iter().all(|w| *w == 0) {
            return Err(format!("{}: weights sum to zero", def.name));
        }
        if out.iter().any(|(n, _)| *n == def.name) {
            return Err(format!("{} configured twice", def.name));
        }
        out.push((def.name, weights));
    }
    Ok(out)
}

/// Why the variations call refuses its input (a 400 with a localized message).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    UnknownSite,
    BadMemberId,
    NoExperiments,
    UnknownExperiment,
    SegmentForAnonymous,
}

impl Refusal {
    pub fn code(self) -> &'static str {
        match self {
            Refusal::UnknownSite => "unknown_site",
            Refusal::BadMemberId => "invalid_member_id",
            Refusal::NoExperiments => "invalid_experiment_names",
            Refusal::UnknownExperiment => "unknown_experiment",
            Refusal::SegmentForAnonymous => "segment_for_anonymous",
        }
    }
    pub fn message_key(self) -> &'static str {
        match self {
            Refusal::UnknownSite => "experiments.errors.site",
            Refusal::BadMemberId => "experiments.errors.member_id",
            Refusal::NoExperiments => "experiments.errors.names",
            Refusal::UnknownExperiment => "experiments.errors.unknown",
            Refusal::SegmentForAnonymous => "experiments.errors.segment",
        }
    }
}

/// Whether `path` is the A/B variations call
/// (`/api/abtesting/v1/sites/{siteId}/members/{memberId}/variations`): a POST that
/// changes nothing and is sent without credentials, so the CSRF check lets it through.
pub fn is_variations_path(path: &str) -> bool {
    let segs: Vec<&str> = path.split('/').collect();
    matches!(
        segs.as_slice(),
        ["", "api", "abtesting", "v1", "sites", site, "members", member, "variations"]
            if !site.is_empty() && !member.is_empty()
    )
}

/// Most experiment names one call may ask about.
pub const MAX_NAMES: usize = 32;

/// Checks a variations call: the site, whom it names, and that every name is an
/// experiment of that audience (an anonymous name for a member, or the reverse, is
/// unknown); a segment is for members only.
pub fn check_call(
    site_known: bool,
    member_id: &str,
    names: &[String],
    segment: Option<&str>,
) -> Result<(Subject, Vec<&'static Definition>), Refusal> {
    if !site_known {
        return Err(Refusal::UnknownSite);
    }
    let subject = Subject::parse(member_id).ok_or(Refusal::BadMemberId)?;
    if names.is_empty() || names.len() > MAX_NAMES {
        return Err(Refusal::NoExperiments);
    }
    if segment.is_some() && subject.audience() == Audience::Anonymous {
        return Err(Refusal::SegmentForAnonymous);
    }
    let defs = names
        .iter()
        .map(|n| {
            definition(n)
                .filter(|d| d.audience == subject.audience())
                .ok_or(Refusal::UnknownExperiment)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((subject, defs))
}

/// The Wilson score interval of `successes` out of `n` at `z` (1.96: 95%), as fractions.
/// `(0, 0)` for no trials.
pub fn wilson(successes: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let n_f = n as f64;
    let p = successes.min(n) as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = z * ((p * (1.0 - p) / n_f) + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    // The bounds are exact at the edges (floating point would leave 0.9999999999999999).
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if successes >= n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// z of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
