//! Returns after the request: the time limit, and what each move of the order through the
//! return steps (spec 001 §3) does to the return in progress. Pure rules, unit-tested.

/// Seconds in a day.
const DAY: i64 = 86_400;

/// Whether a return may still be asked for: within `window_days` days after the order was
/// delivered. An order without a recorded delivery (an old row) is not refused.
pub fn within_window(delivered_at: Option<i64>, now: i64, window_days: i64) -> bool {
    match delivered_at {
        Some(at) => now <= at.saturating_add(window_days.saturating_mul(DAY)),
        None => true,
    }
}

/// What an order move does to its return in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReturnStep {
    /// The return takes this state and stays open (`accepted`, `received`).
    State(&'static str),
    /// The return is refused: settled, its lines free again.
    Denied,
    /// The refund starts: its amount is the returned lines at the price paid.
    RefundStarted,
    /// The refund is done: the amount is added to the order's refunded amount and the
    /// return is settled.
    Refunded,
}

/// The step an order status means for the order's return, if any.
pub fn return_step(order_status: &str) -> Option<ReturnStep> {
    match order_status {
        "return_requested_accepted" => Some(ReturnStep::State("accepted")),
        "return_requested_denied" => Some(ReturnStep::Denied),
        "return_received" => Some(ReturnStep::State("received")),
        "refund_in_progress" => Some(ReturnStep::RefundStarted),
        "refunded" => Some(ReturnStep::Refunded),
        _ => None,
    }
}

/// A refund's amount: each returned line's quantity at its unit price, in cents.
pub fn refund_amount(lines: &[(i64, i64)]) -> i64 {
    lines.iter().map(|(quantity, unit)| quantity * unit).sum()
}

/// What is left to refund on an order: what was paid less what was refunded already
/// (never below zero). A voucher lowers what was paid, so the returned lines' prices can
/// be more than this.
pub fn refundable(paid: i64, refunded: i64) -> i64 {
    (paid - refunded).max(0)
}

/// An amount an operator asks to refund: more than nothing, and no more than is left.
pub fn check_refund(amount: i64, paid: i64, refunded: i64) -> Result<i64, RefundRefused> {
    if amount <= 0 {
        Err(RefundRefused::NotPositive)
    } else if amount > refundable(paid, refunded) {
        Err(RefundRefused::MoreThanPaid)
    } else {
        Ok(amount)
    }
}

/// Why a refund amount is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefundRefused {
    NotPositive,
    MoreThanPaid,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refund_is_never_more_than_what_is_left() {
        assert_eq!(refundable(5000, 1000), 4000);
        assert_eq!(refundable(5000, 6000), 0);
        assert_eq!(check_refund(4000, 5000, 1000), Ok(4000));
        assert_eq!(
            check_refund(4001, 5000, 1000),
            Err(RefundRefused::MoreThanPaid)
        );
        assert_eq!(check_refund(0, 5000, 0), Err(RefundRefused::NotPositive));
        assert_eq!(check_refund(-5, 5000, 0), Err(RefundRefused::NotPositive));
    }

    #[test]
    fn the_window_ends_days_after_delivery() {
        let delivered = 1_000_000;
        assert!(within_window(Some(delivered), delivered, 30));
        assert!(within_window(Some(delivered), delivered + 30 * DAY, 30));
        assert!(!within_window(
            Some(delivered),
            delivered + 30 * DAY + 1,
            30
        ));
        assert!(!within_window(Some(delivered), delivered + 15 * DAY, 14));
        assert!(within_window(None, i64::MAX, 30));
        assert!(within_window(Some(i64::MAX - 5), i64::MAX, 30));
    }

    #[test]
    fn order_moves_settle_the_return() {
        assert_eq!(
            return_step("return_requested_accepted"),
            Some(ReturnStep::State("accepted"))
        );
        assert_eq!(
            return_step("return_requested_denied"),
            Some(ReturnStep::Denied)
        );
        assert_eq!(
            return_step("return_received"),
            Some(ReturnStep::State("received"))
        );
        assert_eq!(
            return_step("refund_in_progress"),
            Some(ReturnStep::RefundStarted)
        );
        assert_eq!(return_step("refunded"), Some(ReturnStep::Refunded));
        for s in ["shipped", "received", "return_requested", "validated"] {
            assert_eq!(return_step(s), None, "{s}");
        }
    }

    #[test]
    fn refund_is_lines_at_price_paid() {
        assert_eq!(refund_amount(&[]), 0);
        assert_eq!(refund_amount(&[(2, 1999), (1, 500)]), 4498);
    }
}
