//! Vouchers and promotions (spec 000 §3, 001 §3 "Voucher"): the selection toggle, uses
//! left and validity. Pure: compiled for the server and the browser.
use serde::{Deserialize, Serialize};

/// One entry of the selection: a voucher and the member's participation in it (none for
/// a site promotion).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Selection {
    pub voucher_id: i64,
    #[serde(default)]
    pub participation_id: Option<i64>,
}

/// Choosing an entry already selected removes it; otherwise it is added (spec 001 §3).
pub fn toggle(selection: &[Selection], choice: Selection) -> Vec<Selection> {
    if selection.contains(&choice) {
        selection.iter().copied().filter(|s| *s != choice).collect()
    } else {
        let mut out = selection.to_vec();
        out.push(choice);
        out
    }
}

/// Uses left for this member: what their own limit leaves, bounded by what the voucher's
/// total limit leaves.
pub fn uses_left(
    per_member_limit: i64,
    used_by_member: i64,
    total_limit: Option<i64>,
    used_in_total: i64,
) -> i64 {
    let mine = (per_member_limit - used_by_member).max(0);
    match total_limit {
        Some(limit) => mine.min((limit - used_in_total).max(0)),
        None => mine,
    }
}

/// Valid from `from` (inclusive) until `until` (exclusive); open ends are unbounded.
pub fn is_valid_at(from: Option<i64>, until: Option<i64>, now: i64) -> bool {
    from.is_none_or(|f| now >= f) && until.is_none_or(|u| now < u)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(voucher_id: i64, participation_id: Option<i64>) -> Selection {
        Selection {
            voucher_id,
            participation_id,
        }
    }

    #[test]
    fn choosing_a_selected_entry_removes_it() {
        let s = toggle(&[], sel(1, Some(10)));
        assert_eq!(s, [sel(1, Some(10))]);
        let s = toggle(&s, sel(2, None));
        assert_eq!(s, [sel(1, Some(10)), sel(2, None)]);
        let s = toggle(&s, sel(1, Some(10)));
        assert_eq!(s, [sel(2, None)]);
        // Another participation in the same voucher is another entry.
        let s = toggle(&s, sel(2, Some(7)));
        assert_eq!(s.len(), 2);
        assert_eq!(toggle(&toggle(&s, sel(9, None)), sel(9, None)), s);
    }

    #[test]
    fn the_wire_shape_is_voucher_and_participation() {
        let json = serde_json::to_value(sel(3, Some(4))).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"voucherId": 3, "participationId": 4})
        );
        let back: Selection = serde_json::from_str(r#"{"voucherId": 5}"#).unwrap();
        assert_eq!(back, sel(5, None));
        assert!(serde_json::from_str::<Selection>(r#"{"voucherId": "x"}"#).is_err());
    }

    #[test]
    fn uses_left_and_validity() {
        assert_eq!(uses_left(3, 1, None, 50), 2);
        assert_eq!(uses_left(3, 0, Some(10), 9), 1);
        assert_eq!(uses_left(1, 1, Some(10), 0), 0);
        assert_eq!(uses_left(1, 5, Some(1), 3), 0);
        assert!(is_valid_at(None, None, 5));
        assert!(is_valid_at(Some(5), Some(6), 5));
        assert!(!is_valid_at(Some(5), Some(6), 6));
        assert!(!is_valid_at(Some(5), None, 4));
    }
}
