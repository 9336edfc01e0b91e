//! The words of the experiments' report and controls, `(key, English, French)`.
pub(super) const TABLE: &[(&str, &str, &str)] =
    &[("nav.experiments", "Experiments", "Expériences")];
