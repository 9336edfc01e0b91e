//! Returns as pure rules (spec 001 §3 "Return reasons", §4 "Returns form send"): the
//! reasons, which orders may be returned, which lines and quantities a request may ask
//! for, and the returns form's state. No I/O; used by the server and the browser alike.

use crate::orders::rules::OrderStatus;

/// A return reason of the list: its id and the translation key of its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reason {
    pub id: &'static str,
    pub label_key: &'static str,
    pub sub_reasons: &'static [(&'static str, &'static str)],
}

pub const REASONS: [Reason; 5] = [
    Reason {
        id: "defective",
        label_key: "aftersale.returns.reason.defective",
        sub_reasons: &[
            ("broken", "aftersale.returns.sub.broken"),
            ("not_working", "aftersale.returns.sub.not_working"),
        ],
    },
    Reason {
        id: "wrong_item",
        label_key: "aftersale.returns.reason.wrong_item",
        sub_reasons: &[],
    },
    Reason {
        id: "size",
        label_key: "aftersale.returns.reason.size",
        sub_reasons: &[
            ("too_small", "aftersale.returns.sub.too_small"),
            ("too_big", "aftersale.returns.sub.too_big"),
        ],
    },
    Reason {
        id: "not_as_described",
        label_key: "aftersale.returns.reason.not_as_described",
        sub_reasons: &[],
    },
    Reason {
        id: "changed_mind",
        label_key: "aftersale.returns.reason.changed_mind",
        sub_reasons: &[],
    },
];

/// The reason a marketplace return is filed under when its body names none (spec 001 §7:
/// the marketplace return call carries only `products`).
pub const MARKETPLACE_DEFAULT_REASON: &str = "changed_mind";

pub const MAX_COMMENT_CHARS: usize = 1000;

/// Whether an order in `status` may get a new return request: exactly the moves into
/// `return_requested` of the orders' life cycle (`OrderStatus::next_allowed`, one table):
/// delivered (`received`, `received_partially`), another request joining a pending one
/// (`return_requested`), or a former return settled (`return_requested_denied`,
/// `refunded`). Not while an accepted return is under way (accepted, received, refund in
/// progress): one return is refunded before the next one starts.
pub fn returnable(status: &str) -> bool {
    OrderStatus::parse(status).is_some_and(|s| s.can_move_to(OrderStatus::ReturnRequested))
}

/// Why an order may not get a return request (each an existing error of the returns call).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// Not delivered (or not returnable at all): `order_not_delivered`.
    NotDelivered,
    /// An accepted return is under way: `return_already_requested`.
    InProgress,
}

/// Checks that a return may be asked for an order in `status`, `delivered` telling whether
/// it was ever delivered (its timeline has `received` or `received_partially`): a refunded
/// order that never came (a rose-deal refund) is not returnable.
pub fn may_request(status: &str, delivered: bool) -> Result<(), Gate> {
    if returnable(status) && delivered {
        return Ok(());
    }
    match OrderStatus::parse(status) {
        Some(
            OrderStatus::ReturnRequestedAccepted
            | OrderStatus::ReturnReceived
            | OrderStatus::RefundInProgress,
        ) if delivered => Err(Gate::InProgress),
        _ => Err(Gate::NotDelivered),
    }
}

/// Why a return request is refused, each the spec's `error_code`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    NoProducts,
    InvalidQuantity(String),
    UnknownProduct(String),
    AlreadyRequested(String),
    InvalidReason,
    InvalidComment,
}

/// Checks the reason, sub-reason and comment of a request.
pub fn check_reason(
    reason_id: &str,
    sub_reason_id: Option<&str>,
    comment: Option<&str>,
) -> Result<(), Refusal> {
    let reason = REASONS
        .iter()
        .find(|r| r.id == reason_id)
        .ok_or(Refusal::InvalidReason)?;
    match sub_reason_id.filter(|s| !s.is_empty()) {
        Some(sub) if !reason.sub_reasons.iter().any(|(id, _)| *id == sub) => {
            return Err(Refusal::InvalidReason)
        }
        _ => {}
    }
    if comment.is_some_and(|c| c.chars().count() > MAX_COMMENT_CHARS) {
        return Err(Refusal::InvalidComment);
    }
    Ok(())
}

/// One order line as the return check sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineState {
    pub product_id: i64,
    pub bought: i64,
    /// Units in returns not denied.
    pub returned: i64,
    /// A return of this line is open.
    pub open: bool,
}

/// The lines and quantities a request asks for, checked against what was bought: each
/// line at most once, quantity 1 ..= bought − already returned, no line with an open
/// return. The accepted lines come back in the request's order.
pub fn check_selection(
    lines: &[LineState],
    requested: &[(String, i64)],
) -> Result<Vec<(i64, i64)>, Refusal> {
    if requested.is_empty() {
        return Err(Refusal::NoProducts);
    }
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(requested.len());
    for (raw_id, quantity) in requested {
        let line = raw_id
            .trim()
            .parse::<i64>()
            .ok()
            .and_then(|id| lines.iter().find(|l| l.product_id == id))
            .ok_or_else(|| Refusal::UnknownProduct(raw_id.clone()))?;
        if out.iter().any(|(id, _)| *id == line.product_id) {
            return Err(Refusal::InvalidQuantity(raw_id.clone()));
        }
        if line.open {
            return Err(Refusal::AlreadyRequested(raw_id.clone()));
        }
        if *quantity < 1 || *quantity > line.bought - line.returned {
            return Err(Refusal::InvalidQuantity(raw_id.clone()));
        }
        out.push((line.product_id, *quantity));
    }
    Ok(out)
}

/// Days a member has to post a return once it is asked for.
pub const SEND_BACK_DAYS: u32 = 14;

/// Where returns go (the warehouse of every site), after the brand's returns service.
pub const RETURN_ADDRESS: [&str; 3] = ["12 rue de l'Entrepôt", "93200 Saint-Denis", "France"];

#[cfg(test)]
mod tests {
    use super::*;

    fn lines() -> Vec<LineState> {
        vec![
            LineState {
                product_id: 11,
                bought: 3,
                returned: 1,
                open: false,
            },
            LineState {
                product_id: 12,
                bought: 1,
                returned: 0,
                open: true,
            },
            LineState {
                product_id: 13,
                bought: 2,
                returned: 0,
                open: false,
            },
        ]
    }

    fn req(items: &[(&str, i64)]) -> Vec<(String, i64)> {
        items.iter().map(|(id, q)| (id.to_string(), *q)).collect()
    }

    #[test]
    fn delivered_orders_and_orders_in_a_return_are_returnable() {
        for s in [
            "received",
            "received_partially",
            "return_requested",
            "return_requested_denied",
            "refunded",
        ] {
            assert!(returnable(s), "{s}");
            assert_eq!(may_request(s, true), Ok(()), "{s}");
            assert_eq!(may_request(s, false), Err(Gate::NotDelivered), "{s}");
        }
        for s in [
            "validated",
            "validated_available",
            "shipped",
            "shipped_partially",
            "in_preparation",
            "cancelled",
            "active",
            "expired",
            "reopened",
        ] {
            assert!(!returnable(s), "{s}");
            assert_eq!(may_request(s, false), Err(Gate::NotDelivered), "{s}");
        }
        for s in [
            "return_requested_accepted",
            "return_received",
            "refund_in_progress",
        ] {
            assert!(!returnable(s), "{s}");
            assert_eq!(may_request(s, true), Err(Gate::InProgress), "{s}");
        }
    }

    /// One table: a return may be asked exactly where the order's life cycle allows the
    /// move into `return_requested`.
    #[test]
    fn returnable_is_the_life_cycle_move() {
        for s in OrderStatus::ALL {
            assert_eq!(
                returnable(s.wire()),
                s.next_allowed().contains(&OrderStatus::ReturnRequested),
                "{s:?}"
            );
        }
    }

    #[test]
    fn selection_within_bought_minus_returned() {
        assert_eq!(
            check_selection(&lines(), &req(&[("11", 2), (" 13 ", 1)])),
            Ok(vec![(11, 2), (13, 1)])
        );
        assert_eq!(
            check_selection(&lines(), &req(&[("11", 3)])),
            Err(Refusal::InvalidQuantity("11".into()))
        );
        assert_eq!(
            check_selection(&lines(), &req(&[("13", 0)])),
            Err(Refusal::InvalidQuantity("13".into()))
        );
        assert_eq!(
            check_selection(&lines(), &req(&[("13", -1)])),
            Err(Refusal::InvalidQuantity("13".into()))
        );
    }

    #[test]
    fn selection_refusals() {
        assert_eq!(check_selection(&lines(), &[]), Err(Refusal::NoProducts));
        assert_eq!(
            check_selection(&lines(), &req(&[("99", 1)])),
            Err(Refusal::UnknownProduct("99".into()))
        );
        assert_eq!(
            check_selection(&lines(), &req(&[("abc", 1)])),
            Err(Refusal::UnknownProduct("abc".into()))
        );
        assert_eq!(
            check_selection(&lines(), &req(&[("12", 1)])),
            Err(Refusal::AlreadyRequested("12".into()))
        );
        // The same line twice in one request.
        assert_eq!(
            check_selection(&lines(), &req(&[("13", 1), ("13", 1)])),
            Err(Refusal::InvalidQuantity("13".into()))
        );
    }

    #[test]
    fn reasons_and_sub_reasons() {
        assert_eq!(check_reason("size", Some("too_big"), None), Ok(()));
        assert_eq!(check_reason("size", Some(""), Some("ok")), Ok(()));
        assert_eq!(check_reason("wrong_item", None, None), Ok(()));
        assert_eq!(
            check_reason("size", Some("broken"), None),
            Err(Refusal::InvalidReason)
        );
        assert_eq!(
            check_reason("nope", None, None),
            Err(Refusal::InvalidReason)
        );
        let long = "x".repeat(MAX_COMMENT_CHARS + 1);
        assert_eq!(
            check_reason("size", None, Some(&long)),
            Err(Refusal::InvalidComment)
        );
        assert!(REASONS.iter().any(|r| r.id == MARKETPLACE_DEFAULT_REASON));
    }
}
