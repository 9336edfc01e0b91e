//! The operators' controls of an experiment (the back office's experiments page and
//! `server experiments start|stop`): running or stopped, and weights replacing the
//! settings' ones. Pure code: what a control is, how a reweigh form is read, and the
//! settings the shop decides with once the controls are applied.
use super::rules::{definition, parse_weights, Definition, Settings, EXPERIMENTS};

/// Whether an experiment runs. An experiment nobody touched runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Running,
    Stopped,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Stopped => "stopped",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "running" => Some(Status::Running),
            "stopped" => Some(Status::Stopped),
            _ => None,
        }
    }
}

/// One experiment's stored control (a row of `experiment_controls`, or the default of an
/// experiment without one: running, the settings' weights, version 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Control {
    pub experiment: &'static str,
    pub status: Status,
    /// The operator's weights in the variations' order; `None`: the settings' weights.
    pub weights: Option<Vec<u32>>,
    pub version: i64,
    /// Who made the last change (an operator's email, or the command line) and when.
    pub updated_by: String,
    pub updated_at: i64,
}

impl Control {
    pub fn untouched(def: &Definition) -> Control {
        Control {
            experiment: def.name,
            status: Status::Running,
            weights: None,
            version: 0,
            updated_by: String::new(),
            updated_at: 0,
        }
    }
}

/// The largest weight (as `ROSACE_EXPERIMENT_WEIGHTS` allows).
pub const MAX_WEIGHT: u32 = 1_000_000;

/// Why a reweigh form is refused; nothing is changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightError {
    /// Not a whole number (`"abc"`, `"1.5"`, empty).
    NotANumber(String),
    Negative(String),
    TooLarge(String),
    /// Every weight is 0: nobody could be given a variation.
    AllZero,
    /// A field names a variation the experiment does not have.
    UnknownVariation(String),
    /// A variation of the experiment has no weight, or one has two.
    Missing(String),
    Twice(String),
}

impl WeightError {
    /// The back office's text key of the message.
    pub fn key(&self) -> &'static str {
        match self {
            WeightError::NotANumber(_) => "experiments.error.not_a_number",
            WeightError::Negative(_) => "experiments.error.negative",
            WeightError::TooLarge(_) => "experiments.error.too_large",
            WeightError::AllZero => "experiments.error.all_zero",
            WeightError::UnknownVariation(_) => "experiments.error.unknown_variation",
            WeightError::Missing(_) => "experiments.error.missing",
            WeightError::Twice(_) => "experiments.error.twice",
        }
    }

    /// The variation the message is about, if any.
    pub fn variation(&self) -> Option<&str> {
        match self {
            WeightError::NotANumber(v)
            | WeightError::Negative(v)
            | WeightError::TooLarge(v)
            | WeightError::UnknownVariation(v)
            | WeightError::Missing(v)
            | WeightError::Twice(v) => Some(v),
            WeightError::AllZero => None,
        }
    }
}

/// A reweigh form's `(variation, typed weight)` pairs as the experiment's weights, in its
/// variations' order: every variation once, each a whole number from 0 to [`MAX_WEIGHT`],
/// at least one above 0, and no other variation.
pub fn check_weights(def: &Definition, typed: &[(&str, &str)]) -> Result<Vec<u32>, WeightError> {
    let mut weights: Vec<Option<u32>> = vec![None; def.variations.len()];
    for (variation, raw) in typed {
        let Some(i) = def.variations.iter().position(|(v, _)| v == variation) else {
            return Err(WeightError::UnknownVariation(variation.to_string()));
        };
        let raw = raw.trim();
        let n: i64 = match raw.parse() {
            Ok(n) => n,
            // Digits past i64 are still a (far too large) number, not a typo.
            Err(_) if !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit()) => i64::MAX,
            Err(_)
                if raw.len() > 1
                    && raw.starts_with('-')
                    && raw[1..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                -1
            }
            Err(_) => return Err(WeightError::NotANumber(variation.to_string())),
        };
        if n < 0 {
            return Err(WeightError::Negative(variation.to_string()));
        }
        let w = u32::try_from(n)
            .ok()
            .filter(|w| *w <= MAX_WEIGHT)
            .ok_or_else(|| WeightError::TooLarge(variation.to_string()))?;
        if weights[i].replace(w).is_some() {
            return Err(WeightError::Twice(variation.to_string()));
        }
    }
    let weights = weights
        .into_iter()
        .enumerate()
        .map(|(i, w)| w.ok_or_else(|| WeightError::Missing(def.variations[i].0.to_string())))
        .collect::<Result<Vec<u32>, _>>()?;
    valid_weights(def, &weights)?;
    Ok(weights)
}

/// The checks every stored weight list passes, whoever gives it.
pub fn valid_weights(def: &Definition, weights: &[u32]) -> Result<(), WeightError> {
    if weights.len() != def.variations.len() {
        return Err(WeightError::Missing(def.control().to_string()));
    }
    if let Some(i) = weights.iter().position(|w| *w > MAX_WEIGHT) {
        return Err(WeightError::TooLarge(def.variations[i].0.to_string()));
    }
    if weights.iter().all(|w| *w == 0) {
        return Err(WeightError::AllZero);
    }
    Ok(())
}

/// Weights as stored: `variation:weight,...` (the names make a stored row mean the same
/// after a release reorders the variations).
pub fn weights_text(def: &Definition, weights: &[u32]) -> String {
    def.variations
        .iter()
        .zip(weights)
        .map(|((v, _), w)| format!("{v}:{w}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Stored weights read back; `None` when they no longer fit the experiment (a release
/// renamed a variation), and the settings' weights apply.
pub fn parse_stored(def: &Definition, text: &str) -> Option<Vec<u32>> {
    parse_weights(&format!("{}={text}", def.name))
        .ok()?
        .pop()
        .map(|(_, w)| w)
}

/// The settings the shop decides with: the environment's, with each operator's control
/// applied (stopped experiments, reweighed ones). The one rule for every page view, the
/// variations call and the experiments page.
pub fn effective(base: &Settings, controls: &[Control]) -> Settings {
    let mut out = base.clone();
    for c in controls {
        let Some(def) = definition(c.experiment) else {
            continue;
        };
        if c.status == Status::Stopped && !out.stopped.contains(&def.name) {
            out.stopped.push(def.name);
        }
        if let Some(w) = &c.weights {
            out.weights.retain(|(n, _)| *n != def.name);
            out.weights.push((def.name, w.clone()));
        }
    }
    out
}

/// Every experiment's control: the stored ones, the others untouched, in the order of
/// [`EXPERIMENTS`].
pub fn every(stored: Vec<Control>) -> Vec<Control> {
    EXPERIMENTS
        .iter()
        .map(|def| {
            stored
                .iter()
                .find(|c| c.experiment == def.name)
                .cloned()
                .unwrap_or_else(|| Control::untouched(def))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::rules::{Audience, Subject};
    use crate::model::experiments::Feature;

    fn def(name: &str) -> &'static Definition {
        definition(name).unwrap()
    }

    #[test]
    fn a_reweigh_form_is_read_or_refused_whole() {
        let d = def("anonymous_dynamic_pricing");
        assert_eq!(
            check_weights(d, &[("off", "80"), ("on", " 20 ")]),
            Ok(vec![80, 20])
        );
        assert_eq!(
            check_weights(d, &[("on", "1"), ("off", "0")]),
            Ok(vec![0, 1])
        );
        let cases: [(&[(&str, &str)], WeightError); 8] = [
            (
                &[("off", "-5"), ("on", "5")],
                WeightError::Negative("off".into()),
            ),
            (&[("off", "0"), ("on", "0")], WeightError::AllZero),
            (
                &[("off", "abc"), ("on", "5")],
                WeightError::NotANumber("off".into()),
            ),
            (
                &[("off", "1.5"), ("on", "5")],
                WeightError::NotANumber("off".into()),
            ),
            (
                &[("off", ""), ("on", "5")],
                WeightError::NotANumber("off".into()),
            ),
            (
                &[("off", "1"), ("on", "1"), ("var1_enabled", "1")],
                WeightError::UnknownVariation("var1_enabled".into()),
            ),
            (&[("off", "1")], WeightError::Missing("on".into())),
            (
                &[("off", "99999999999999999999999"), ("on", "1")],
                WeightError::TooLarge("off".into()),
            ),
        ];
        for (typed, want) in cases {
            assert_eq!(check_weights(d, typed), Err(want), "{typed:?}");
        }
        assert_eq!(
            check_weights(d, &[("off", "-99999999999999999999"), ("on", "1")]),
            Err(WeightError::Negative("off".into()))
        );
        assert_eq!(
            check_weights(d, &[("off", "1"), ("off", "2"), ("on", "1")]),
            Err(WeightError::Twice("off".into()))
        );
    }

    #[test]
    fn stored_weights_read_back() {
        let d = def("member_last_viewed");
        let text = weights_text(d, &[25, 75]);
        assert_eq!(text, "control:25,var1_enabled:75");
        assert_eq!(parse_stored(d, &text), Some(vec![25, 75]));
        assert_eq!(parse_stored(d, "control:1,gone:2"), None);
    }

    #[test]
    fn a_stopped_experiment_is_the_disabled_rule_for_one_experiment() {
        let base = Settings::default();
        let pricing = def("anonymous_dynamic_pricing");
        let banners = def("anonymous_sponsored_banners");
        let stopped = |d: &Definition| Control {
            status: Status::Stopped,
            ..Control::untouched(d)
        };
        let s = effective(&base, &[stopped(pricing), stopped(banners)]);
        let disabled = Settings {
            disabled: true,
            ..Settings::default()
        };
        for i in 0..200 {
            let key = Subject::Anonymous(format!("{i:032x}")).key();
            for d in [pricing, banners] {
                assert_eq!(s.variation(d, &key), disabled.variation(d, &key));
            }
            // Nobody is in a stopped experiment: nothing to record, features at default.
            let e = s.experiments_for(Audience::Anonymous, &key);
            assert!(e.assigned.is_empty(), "{e:?}");
            assert!(!e.on(Feature::DynamicPricing) && e.on(Feature::SponsoredBanners));
        }
        // A new feature's stopped experiment shows the control; a holdback's, the feature.
        assert_eq!(s.variation(pricing, "a:x"), "off");
        assert_eq!(s.variation(banners, "a:x"), "var2_programmatic");
        // The others still run.
        let member = s.experiments_for(Audience::Member, "m:3");
        assert_eq!(member.assigned.len(), 14);
    }

    #[test]
    fn a_restart_and_unchanged_weights_keep_every_assignment() {
        let base = Settings::default();
        let d = def("member_rosedeals_menu");
        let restarted = effective(&base, &[Control::untouched(d)]);
        let same_weights = effective(
            &base,
            &[Control {
                weights: Some(vec![50, 50]),
                version: 3,
                ..Control::untouched(d)
            }],
        );
        for m in 1..500 {
            let key = format!("m:{m}");
            let v = base.variation(d, &key);
            assert_eq!(restarted.variation(d, &key), v);
            assert_eq!(same_weights.variation(d, &key), v);
        }
        let reweighed = effective(
            &base,
            &[Control {
                weights: Some(vec![0, 1]),
                ..Control::untouched(d)
            }],
        );
        assert_eq!(reweighed.variation(d, "m:1"), "var1_enabled");
        assert_eq!(reweighed.weights_of(d), vec![0, 1]);
    }

    #[test]
    fn every_experiment_has_a_control() {
        let d = def("member_favourites_page");
        let stored = Control {
            status: Status::Stopped,
            version: 2,
            ..Control::untouched(d)
        };
        let all = every(vec![stored.clone()]);
        assert_eq!(all.len(), EXPERIMENTS.len());
        assert_eq!(all.iter().find(|c| c.experiment == d.name), Some(&stored));
        assert!(all
            .iter()
            .filter(|c| c.experiment != d.name)
            .all(|c| c.status == Status::Running && c.version == 0));
    }
}
