//! What makes a campaign valid: the fields of the new-campaign form read into a
//! [`Campaign`], or every field's error at once.
use std::collections::BTreeMap;

use crate::backoffice::sales::rules::{cents, FieldErrors};
use crate::backoffice::ui::parse_datetime;

/// How members get the discount.
pub const DELIVERIES: [&str; 3] = ["code", "listed", "automatic"];
pub const DISCOUNT_TYPES: [&str; 2] = ["FIXED", "PERCENT"];
pub const SCOPES: [&str; 2] = ["PRODUCT", "SHIPPING"];
/// Uses one member may make, at most.
pub const MAX_PER_MEMBER: i64 = 100;
/// Uses of a whole campaign, at most (beyond, leave it unlimited).
pub const MAX_TOTAL: i64 = 10_000_000;
const NAME_MAX: usize = 120;
const CODE_MIN: usize = 3;
const CODE_MAX: usize = 32;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Campaign {
    pub name: String,
    pub delivery: &'static str,
    /// Empty for an automatic campaign whose code the shop makes up.
    pub code: String,
    pub discount_type: &'static str,
    pub scope: &'static str,
    /// Cents for FIXED, percent for PERCENT.
    pub value: i64,
    pub per_member_limit: i64,
    pub total_limit: Option<i64>,
    pub valid_from: i64,
    pub valid_until: i64,
    pub sites: Vec<i64>,
}

impl Campaign {
    /// The kind its vouchers carry on the wire (spec 000: voucher or promotion): a typed
    /// code is a voucher; a listed or automatic campaign is a promotion of the site.
    pub fn voucher_kind(&self) -> &'static str {
        if self.delivery == "code" {
            "voucher"
        } else {
            "promotion"
        }
    }
}

/// The field name of a site's checkbox.
pub fn site_field(site_id: i64) -> String {
    format!("site-{site_id}")
}

fn one_of(value: &str, allowed: &[&'static str]) -> Option<&'static str> {
    allowed.iter().copied().find(|a| *a == value.trim())
}

/// A code as members type it: letters, digits, `-` and `_`, upper-cased.
pub fn code(value: &str) -> Option<String> {
    let c = value.trim().to_uppercase();
    let ok = (CODE_MIN..=CODE_MAX).contains(&c.len())
        && c.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    ok.then_some(c)
}

fn whole(value: &str, range: std::ops::RangeInclusive<i64>) -> Option<i64> {
    let v = value.trim();
    if v.is_empty() || v.len() > 9 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse().ok().filter(|n| range.contains(n))
}

/// The campaign the form describes (fields as posted, by name), or every field's error.
/// `now` refuses a campaign that would already be over.
pub fn campaign(f: &BTreeMap<String, String>, now: i64) -> Result<Campaign, FieldErrors> {
    let get = |k: &str| f.get(k).map(String::as_str).unwrap_or("");
    let mut errors = FieldErrors::new();
    let name: String = get("name")
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .to_string();
    if name.is_empty() || name.chars().count() > NAME_MAX {
        errors.push(("name", "campaigns.error.name"));
    }
    let delivery = one_of(get("delivery"), &DELIVERIES);
    if delivery.is_none() {
        errors.push(("delivery", "campaigns.error.delivery"));
    }
    let code = if get("code").trim().is_empty() && delivery == Some("automatic") {
        Some(String::new())
    } else {
        code(get("code"))
    };
    if code.is_none() {
        errors.push(("code", "campaigns.error.code"));
    }
    let discount_type = one_of(get("discount_type"), &DISCOUNT_TYPES);
    if discount_type.is_none() {
        errors.push(("discount_type", "campaigns.error.discount_type"));
    }
    let scope = one_of(get("scope"), &SCOPES);
    if scope.is_none() {
        errors.push(("scope", "campaigns.error.scope"));
    }
    let value = match discount_type {
        Some("PERCENT") => whole(get("value"), 1..=100),
        _ => cents(get("value")).filter(|c| *c > 0),
    };
    if value.is_none() && discount_type.is_some() {
        errors.push((
            "value",
            if discount_type == Some("PERCENT") {
                "campaigns.error.percent"
            } else {
                "campaigns.error.amount"
            },
        ));
    }
    let per_member = whole(get("per_member_limit"), 1..=MAX_PER_MEMBER);
    if per_member.is_none() {
        errors.push(("per_member_limit", "campaigns.error.per_member"));
    }
    let total = match get("total_limit").trim() {
        "" => Some(None),
        t => whole(t, 1..=MAX_TOTAL).map(Some),
    };
    if total.is_none() {
        errors.push(("total_limit", "campaigns.error.total"));
    }
    let from = parse_datetime(get("valid_from"));
    let until = parse_datetime(get("valid_until"));
    if from.is_none() {
        errors.push(("valid_from", "sales.error.date_format"));
    }
    match (from, until) {
        (_, None) => errors.push(("valid_until", "sales.error.date_format")),
        (Some(s), Some(e)) if e <= s => errors.push(("valid_until", "sales.error.dates")),
        (_, Some(e)) if e <= now => errors.push(("valid_until", "campaigns.error.past")),
        _ => {}
    }
    let sites: Vec<i64> = app::site::SITES
        .iter()
        .map(|s| i64::from(s.site_id))
        .filter(|id| f.contains_key(&site_field(*id)))
        .collect();
    if sites.is_empty() {
        errors.push(("sites", "campaigns.error.sites"));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Campaign {
        name,
        delivery: delivery.unwrap_or_default(),
        code: code.unwrap_or_default(),
        discount_type: discount_type.unwrap_or_default(),
        scope: scope.unwrap_or_default(),
        value: value.unwrap_or_default(),
        per_member_limit: per_member.unwrap_or(1),
        total_limit: total.flatten(),
        valid_from: from.unwrap_or_default(),
        valid_until: until.unwrap_or_default(),
        sites,
    })
}

/// Where a campaign stands at `now`.
pub fn status(valid_from: i64, valid_until: i64, stopped: bool, now: i64) -> &'static str {
    if stopped {
        "stopped"
    } else if now < valid_from {
        "scheduled"
    } else if now < valid_until {
        "live"
    } else {
        "ended"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_796_112_000; // 2026-12-01T08:00

    fn form(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        let mut f: BTreeMap<String, String> = [
            ("name", "Winter -10"),
            ("delivery", "code"),
            ("code", "winter10"),
            ("discount_type", "PERCENT"),
            ("scope", "PRODUCT"),
            ("value", "10"),
            ("per_member_limit", "1"),
            ("total_limit", ""),
            ("valid_from", "2026-12-01T00:00"),
            ("valid_until", "2026-12-31T23:59"),
            ("site-1", "on"),
            ("site-66", "on"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        for (k, v) in pairs {
            f.insert(k.to_string(), v.to_string());
        }
        f
    }

    fn fields(r: Result<Campaign, FieldErrors>) -> Vec<&'static str> {
        r.err().unwrap().into_iter().map(|(f, _)| f).collect()
    }

    #[test]
    fn a_good_form_reads_into_a_campaign() {
        let c = campaign(&form(&[]), NOW).unwrap();
        assert_eq!(c.code, "WINTER10");
        assert_eq!(c.sites, vec![1, 66]);
        assert_eq!((c.value, c.total_limit), (10, None));
        assert_eq!(c.voucher_kind(), "voucher");
        let fixed = campaign(
            &form(&[
                ("discount_type", "FIXED"),
                ("value", "5,50"),
                ("total_limit", "500"),
            ]),
            NOW,
        )
        .unwrap();
        assert_eq!((fixed.value, fixed.total_limit), (550, Some(500)));
        let auto = campaign(&form(&[("delivery", "automatic"), ("code", "")]), NOW).unwrap();
        assert_eq!((auto.code.as_str(), auto.voucher_kind()), ("", "promotion"));
    }

    #[test]
    fn every_bad_field_is_named() {
        assert_eq!(fields(campaign(&form(&[("value", "0")]), NOW)), ["value"]);
        assert_eq!(fields(campaign(&form(&[("value", "101")]), NOW)), ["value"]);
        assert_eq!(fields(campaign(&form(&[("value", "-5")]), NOW)), ["value"]);
        assert_eq!(
            fields(campaign(
                &form(&[("discount_type", "FIXED"), ("value", "0,00")]),
                NOW
            )),
            ["value"]
        );
        assert_eq!(fields(campaign(&form(&[("code", "")]), NOW)), ["code"]);
        assert_eq!(
            fields(campaign(&form(&[("code", "ÉTÉ 10")]), NOW)),
            ["code"]
        );
        assert_eq!(
            fields(campaign(&form(&[("per_member_limit", "0")]), NOW)),
            ["per_member_limit"]
        );
        assert_eq!(
            fields(campaign(&form(&[("total_limit", "lots")]), NOW)),
            ["total_limit"]
        );
        assert_eq!(
            fields(campaign(&form(&[("valid_until", "2026-11-30T00:00")]), NOW)),
            ["valid_until"]
        );
        let mut none = form(&[]);
        none.remove("site-1");
        none.remove("site-66");
        none.insert("site-999".into(), "on".into());
        assert_eq!(fields(campaign(&none, NOW)), ["sites"]);
        let all_bad = campaign(
            &form(&[
                ("name", " "),
                ("delivery", "mail"),
                ("scope", "ALL"),
                ("discount_type", "X"),
            ]),
            NOW,
        );
        assert_eq!(
            fields(all_bad),
            ["name", "delivery", "discount_type", "scope"]
        );
    }

    #[test]
    fn a_campaign_is_scheduled_live_ended_or_stopped() {
        assert_eq!(status(10, 20, false, 5), "scheduled");
        assert_eq!(status(10, 20, false, 10), "live");
        assert_eq!(status(10, 20, false, 20), "ended");
        assert_eq!(status(10, 20, true, 15), "stopped");
    }
}
