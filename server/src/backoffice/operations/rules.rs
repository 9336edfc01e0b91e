//! A new operation as typed: every field checked at once, each refusal by its field.
use std::collections::BTreeMap;

use crate::backoffice::sales::rules::FieldErrors;
use crate::backoffice::ui;

/// Longest title, in characters.
pub const TITLE_MAX: usize = 120;
/// Longest home name, in characters.
const HOME_MAX: usize = 64;

pub const TARGET_KINDS: [&str; 2] = ["home", "sale"];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewOperation {
    pub site_id: i64,
    /// Upper case, as links are matched.
    pub code: String,
    pub title: String,
    pub target_kind: &'static str,
    pub target: String,
    pub starts_at: i64,
    pub ends_at: i64,
}

pub fn operation(f: &BTreeMap<String, String>) -> Result<NewOperation, FieldErrors> {
    let get = |k: &str| f.get(k).map(|v| v.trim()).unwrap_or_default();
    let mut errors = FieldErrors::new();
    let site_id = get("site")
        .parse::<u16>()
        .ok()
        .filter(|s| app::site::by_id(*s).is_some())
        .map(i64::from);
    if site_id.is_none() {
        errors.push(("site", "operations.error.site"));
    }
    let code = app::operations::rules::normalize_code(get("code"));
    if code.is_none() {
        errors.push(("code", "operations.error.code"));
    }
    let title = get("title");
    if title.chars().count() > TITLE_MAX || title.chars().any(char::is_control) {
        errors.push(("title", "operations.error.title"));
    }
    let target_kind = TARGET_KINDS.into_iter().find(|k| *k == get("target_kind"));
    let target = get("target");
    match target_kind {
        None => errors.push(("target_kind", "operations.error.target_kind")),
        Some("sale") if target.parse::<i64>().map_or(true, |id| id <= 0) => {
            errors.push(("target", "operations.error.sale"))
        }
        Some("home")
            if target.is_empty()
                || target.chars().count() > HOME_MAX
                || !target
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
        {
            errors.push(("target", "operations.error.home"))
        }
        _ => {}
    }
    let starts_at = ui::parse_datetime(get("starts_at"));
    let ends_at = ui::parse_datetime(get("ends_at"));
    if starts_at.is_none() {
        errors.push(("starts_at", "operations.error.date"));
    }
    match (starts_at, ends_at) {
        (_, None) => errors.push(("ends_at", "operations.error.date")),
        (Some(s), Some(e)) if e <= s => errors.push(("ends_at", "operations.error.order")),
        _ => {}
    }
    match (site_id, code, target_kind, starts_at, ends_at) {
        (Some(site_id), Some(code), Some(target_kind), Some(starts_at), Some(ends_at))
            if errors.is_empty() =>
        {
            Ok(NewOperation {
                site_id,
                code,
                title: title.to_string(),
                target_kind,
                target: target.to_string(),
                starts_at,
                ends_at,
            })
        }
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        let mut f: BTreeMap<String, String> = [
            ("site", "1"),
            ("code", " noel-26 "),
            ("title", "Noël : la sélection"),
            ("target_kind", "home"),
            ("target", "default"),
            ("starts_at", "2026-12-01T08:00"),
            ("ends_at", "2026-12-24T20:00"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        for (k, v) in pairs {
            f.insert(k.to_string(), v.to_string());
        }
        f
    }

    #[test]
    fn a_good_operation_is_read_in_its_stored_shape() {
        let o = operation(&fields(&[])).unwrap();
        assert_eq!((o.site_id, o.code.as_str()), (1, "NOEL-26"));
        assert_eq!((o.target_kind, o.target.as_str()), ("home", "default"));
        assert!(o.ends_at > o.starts_at);
        let sale = operation(&fields(&[("target_kind", "sale"), ("target", "1001")])).unwrap();
        assert_eq!(sale.target, "1001");
    }

    #[test]
    fn every_bad_field_is_named_at_once() {
        let long = "x".repeat(TITLE_MAX + 1);
        let errors = operation(&fields(&[
            ("site", "99"),
            ("code", "a b"),
            ("title", long.as_str()),
            ("target_kind", "sale"),
            ("target", "douze"),
            ("starts_at", "demain"),
            ("ends_at", "2026-11-30T08:00"),
        ]))
        .unwrap_err();
        let named: Vec<_> = errors.iter().map(|(f, _)| *f).collect();
        assert_eq!(named, ["site", "code", "title", "target", "starts_at"]);
        let order = operation(&fields(&[("ends_at", "2026-11-30T08:00")])).unwrap_err();
        assert_eq!(order, vec![("ends_at", "operations.error.order")]);
        let home = operation(&fields(&[("target", "../admin")])).unwrap_err();
        assert_eq!(home, vec![("target", "operations.error.home")]);
        let kind = operation(&fields(&[("target_kind", "page")])).unwrap_err();
        assert_eq!(kind, vec![("target_kind", "operations.error.target_kind")]);
    }
}
