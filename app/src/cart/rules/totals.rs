//! Stock availability and totals with vouchers.

use super::*;
use crate::model::cart::Totals;
use crate::model::catalog_api::Availability;

// ------------------------------------------------------------------ stock

/// Availability of a product for a member: InBasket when the member holds some,
/// MaxReached at the per-member limit, OutOfStock when nothing is left for others.
pub fn availability(left: i64, in_basket: i64, per_member_limit: i64) -> Availability {
    if in_basket >= per_member_limit && per_member_limit > 0 {
        Availability::MaxReached
    } else if in_basket > 0 {
        Availability::InBasket
    } else if left <= 0 {
        Availability::OutOfStock
    } else {
        Availability::Available
    }
}

// ------------------------------------------------------------------ totals

/// A voucher as the totals need it.
#[derive(Clone, Debug, PartialEq)]
pub struct VoucherRule {
    pub percent: bool,
    pub shipping: bool,
    pub value: i64,
}

/// Whether a cart with these lines sends a parcel: some line is goods. A cart of rose deals
/// only (vouchers the shop delivers itself) is charged no shipping and asks for no address.
pub fn needs_delivery(lines: &[crate::model::cart::CartLine]) -> bool {
    lines.iter().any(|l| !l.is_digital)
}

/// Totals of a cart (cents) and what each voucher takes off, in order: shipping is charged
/// when the cart sends a parcel (`delivered`, see [`needs_delivery`]). Product vouchers
/// never take off more than the remaining subtotal, shipping vouchers more than shipping.
pub fn totals(
    lines: &[(i64, i64)],
    delivered: bool,
    vouchers: &[VoucherRule],
    loyalty: i64,
) -> (Totals, Vec<i64>) {
    let subtotal: i64 = lines.iter().map(|(price, q)| price * q).sum();
    let shipping = if delivered && !lines.is_empty() {
        SHIPPING_CENTS
    } else {
        0
    };
    let (mut discount, mut shipping_discount) = (0i64, 0i64);
    let mut amounts = Vec::with_capacity(vouchers.len());
    for v in vouchers {
        let (base, used) = if v.shipping {
            (shipping, &mut shipping_discount)
        } else {
            (subtotal, &mut discount)
        };
        let room = base - *used;
        let want = if v.percent {
            base * v.value.clamp(0, 100) / 100
        } else {
            v.value.max(0)
        };
        let amount = want.min(room).max(0);
        *used += amount;
        amounts.push(amount);
    }
    let total = subtotal - discount + shipping - shipping_discount + loyalty;
    (
        Totals {
            subtotal,
            discount,
            shipping,
            shipping_discount,
            loyalty,
            total,
        },
        amounts,
    )
}
