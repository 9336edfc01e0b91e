//! The orders' pure rules (spec 001 §2, §3, §8): the 16 statuses with their wire names and
//! label keys, the moves allowed between them, the timeline's order, the detail and help
//! links, paging, and the tracking number the fulfilment simulator hands out. No I/O;
//! compiled for the server and the browser alike.
use std::cmp::Ordering;

/// An order's status (spec 001 §3 "Order statuses").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderStatus {
    Active,
    Cancelled,
    Expired,
    InPreparation,
    Received,
    ReceivedPartially,
    Refunded,
    RefundInProgress,
    ReturnRequested,
    ReturnRequestedDenied,
    ReturnRequestedAccepted,
    ReturnReceived,
    Shipped,
    ShippedPartially,
    Validated,
    ValidatedAvailable,
}

use OrderStatus::*;

impl OrderStatus {
    pub const ALL: [OrderStatus; 16] = [
        Active,
        Cancelled,
        Expired,
        InPreparation,
        Received,
        ReceivedPartially,
        Refunded,
        RefundInProgress,
        ReturnRequested,
        ReturnRequestedDenied,
        ReturnRequestedAccepted,
        ReturnReceived,
        Shipped,
        ShippedPartially,
        Validated,
        ValidatedAvailable,
    ];

    /// The name on the wire and in the database.
    pub fn wire(self) -> &'static str {
        match self {
            Active => "active",
            Cancelled => "cancelled",
            Expired => "expired",
            InPreparation => "in_preparation",
            Received => "received",
            ReceivedPartially => "received_partially",
            Refunded => "refunded",
            RefundInProgress => "refund_in_progress",
            ReturnRequested => "return_requested",
            ReturnRequestedDenied => "return_requested_denied",
            ReturnRequestedAccepted => "return_requested_accepted",
            ReturnReceived => "return_received",
            Shipped => "shipped",
            ShippedPartially => "shipped_partially",
            Validated => "validated",
            ValidatedAvailable => "validated_available",
        }
    }

    pub fn parse(s: &str) -> Option<OrderStatus> {
        Self::ALL.into_iter().find(|st| st.wire() == s)
    }

    /// The translation key of its label (`orders.status.<name>`).
    pub fn label_key(self) -> String {
        format!("orders.status.{}", self.wire())
    }

    /// The statuses this one may move to, whatever the order (see [`Fulfilment::allows`]
    /// for what each kind of order may reach). The life cycle of spec 001 §3 as this shop
    /// reads it:
    ///
    /// - a paid order is `validated`; one with goods sold before the brand delivered them
    ///   (pre-reception, delivery mode 1) becomes `validated_available` when they reach the
    ///   warehouse; then `in_preparation`, `shipped` (or `shipped_partially`), `received`
    ///   (or `received_partially`); `cancelled` any time before it ships;
    /// - a travel booking is `active` once the stay is confirmed, until the stay is over:
    ///   then `expired`; `cancelled` before that;
    /// - a return: `return_requested` from a delivered order with no return under way
    ///   (`received`, `received_partially`, after a refused return `return_requested_denied`,
    ///   after a refunded one `refunded`), or another request joining a pending one
    ///   (`return_requested` again); then `return_requested_accepted` or `_denied`, and the
    ///   accepted one `return_received`, `refund_in_progress`, `refunded`.
    pub fn next_allowed(self) -> &'static [OrderStatus] {
        match self {
            Validated => &[ValidatedAvailable, InPreparation, Active, Cancelled],
            ValidatedAvailable => &[InPreparation, Cancelled],
            Active => &[Expired, Cancelled],
            InPreparation => &[Shipped, ShippedPartially, Cancelled],
            ShippedPartially => &[Shipped, ReceivedPartially],
            Shipped => &[Received, ReceivedPartially],
            ReceivedPartially => &[Received, ReturnRequested],
            Received => &[ReturnRequested],
            ReturnRequested => &[
                ReturnRequestedAccepted,
                ReturnRequestedDenied,
                ReturnRequested,
            ],
            ReturnRequestedAccepted => &[ReturnReceived],
            ReturnReceived => &[RefundInProgress],
            RefundInProgress => &[Refunded],
            ReturnRequestedDenied | Refunded => &[ReturnRequested],
            Cancelled | Expired => &[],
        }
    }

    pub fn can_move_to(self, to: OrderStatus) -> bool {
        self.next_allowed().contains(&to)
    }

    /// The moves an order of kind `kind` may make from here.
    pub fn next_allowed_for(self, kind: Fulfilment) -> Vec<OrderStatus> {
        self.next_allowed()
            .iter()
            .copied()
            .filter(|s| kind.allows(*s))
            .collect()
    }

    /// The fulfilment simulator's next step for an order of this kind: for goods,
    /// preparation (from `validated`, or `validated_available` once pre-reception goods
    /// came in), shipping, delivery, and the steps of an accepted return; for a travel
    /// booking, `active` once paid and `expired` when its stay is over. `None` where a
    /// person decides (a return request), or the order has come to rest, or an active
    /// booking's stay is not over.
    pub fn simulator_next(self, facts: Facts) -> Option<OrderStatus> {
        let next = match (self, facts.kind) {
            (Validated, Fulfilment::Booking | Fulfilment::Voucher) => Active,
            (Active, Fulfilment::Booking) if facts.stay_over => Expired,
            (Validated | ValidatedAvailable, _) => InPreparation,
            (InPreparation, _) => Shipped,
            (Shipped, _) => Received,
            (ShippedPartially, _) => ReceivedPartially,
            (ReturnRequestedAccepted, _) => ReturnReceived,
            (ReturnReceived, _) => RefundInProgress,
            (RefundInProgress, _) => Refunded,
            _ => return None,
        };
        (self.can_move_to(next) && facts.kind.allows(next)).then_some(next)
    }

    /// Whether the parcel left: the detail shows the tracking number from here on.
    pub fn is_shipped(self) -> bool {
        !matches!(
            self,
            Active | Cancelled | Expired | InPreparation | Validated | ValidatedAvailable
        )
    }

    /// Moving here hands out a tracking number (when the order has none yet).
    pub fn assigns_tracking(self) -> bool {
        matches!(self, Shipped | ShippedPartially)
    }

    /// Whether the member hears of this move in the message centre (`notifications`): the
    /// parcel's journey, every step of a return after the request, the refund, and the
    /// end of an order that will not be delivered (`cancelled`) or of a booking
    /// (`expired`). The starting points and the warehouse's inner steps show only on the
    /// order's timeline.
    pub fn notified(self) -> bool {
        matches!(
            self,
            Shipped
                | ShippedPartially
                | Received
                | ReceivedPartially
                | ReturnRequestedAccepted
                | ReturnRequestedDenied
                | ReturnReceived
                | RefundInProgress
                | Refunded
                | Cancelled
                | Expired
        )
    }
}

/// What kind of fulfilment an order takes, which decides the statuses it may reach and the
/// simulator's path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fulfilment {
    /// Goods in the warehouse when sold (delivery modes classic, direct, dropshipment):
    /// validated → in_preparation → shipped → received.
    Parcel,
    /// At least one line sold before the brand delivered it to the warehouse (delivery mode
    /// 1, pre-reception, spec 001 §3): when the goods come in, the order is
    /// `validated_available` (an operator's move, `server orders advance <id>
    /// validated_available`), then in_preparation → ... The simulator's own step from
    /// `validated` goes straight to preparation, as if the goods came with the order (a demo
    /// shop has no brand deliveries to wait for).
    PreReception,
    /// A travel booking (`cart_type` `travel`): validated → active → expired.
    Booking,
    /// Rose-deal vouchers only (`cart_type` `rosedeal`): validated → active (the codes are
    /// usable at once), refunded through the rose deals' own form; nothing is prepared,
    /// shipped or returned.
    Voucher,
}

/// The delivery mode of a pre-reception product (spec 001 §3: classic 0, pre-reception 1,
/// direct 2, dropshipment 3).
pub const PRE_RECEPTION: i64 = 1;

impl Fulfilment {
    /// The kind of an order from its cart type and its lines' delivery modes.
    pub fn of(cart_type: &str, delivery_modes: &[i64]) -> Fulfilment {
        if cart_type == "travel" {
            Fulfilment::Booking
        } else if cart_type == crate::rosedeals::rules::CART_TYPE {
            Fulfilment::Voucher
        } else if delivery_modes.contains(&PRE_RECEPTION) {
            Fulfilment::PreReception
        } else {
            Fulfilment::Parcel
        }
    }

    /// Whether an order of this kind may ever be in `status`: `active` and `expired` are a
    /// booking's, and a booking is neither prepared, shipped nor returned;
    /// `validated_available` is for goods awaited from the brand.
    pub fn allows(self, status: OrderStatus) -> bool {
        match self {
            Fulfilment::Booking => matches!(status, Validated | Active | Expired | Cancelled),
            Fulfilment::Voucher => matches!(
                status,
                Validated | Active | Expired | Cancelled | RefundInProgress | Refunded
            ),
            Fulfilment::PreReception => !matches!(status, Active | Expired),
            Fulfilment::Parcel => !matches!(status, Active | Expired | ValidatedAvailable),
        }
    }
}

/// What the simulator knows of an order beside its status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub kind: Fulfilment,
    /// For a booking: its stay is over (see [`stay_over`]).
    pub stay_over: bool,
}

impl Facts {
    pub fn of(kind: Fulfilment) -> Facts {
        Facts {
            kind,
            stay_over: false,
        }
    }
}

/// Whether a stay of `days` days from `checkin` (`YYYY-MM-DD`) is over at `now` (unix
/// seconds, UTC): its last day is checkin + days − 1 (spec 001 §4), and the booking
/// expires the day after. An unreadable date is never over (the operator can still move
/// it with `advance <id> expired`).
pub fn stay_over(checkin: &str, days: i64, now: i64) -> bool {
    let Some(last) = u32::try_from(days.max(1))
        .ok()
        .and_then(|d| crate::travel::rules::checkout_date(checkin, d))
    else {
        return false;
    };
    let c = crate::site::format::civil_from_unix(now, 0);
    let today = format!("{:04}-{:02}-{:02}", c.year, c.month, c.day);
    // Both `YYYY-MM-DD`: their order is the order of the days.
    today.as_str() > last.as_str()
}

/// How an order line is named: the product and its option, but a rose deal's voucher alone
/// (it has no size; its option is the placeholder every voucher carries). A trip's option
/// ends with its departure day, written in the site's `date_pattern`.
pub fn line_name(cart_type: &str, name: &str, option_label: &str, date_pattern: &str) -> String {
    if cart_type == crate::rosedeals::rules::CART_TYPE || option_label.trim().is_empty() {
        return name.to_string();
    }
    let option: Vec<String> = option_label
        .split(" · ")
        .map(|part| {
            crate::site::format::iso_day(date_pattern, part).unwrap_or_else(|| part.to_string())
        })
        .collect();
    format!("{name} · {}", option.join(" · "))
}

/// Whether an order sends a parcel (a trip or a deal's vouchers do not): only then has it a
/// delivery address and a shipping line to show, and units a reopened cart could take back.
pub fn sends_parcel(cart_type: &str) -> bool {
    !matches!(cart_type, "travel" | crate::rosedeals::rules::CART_TYPE)
}

/// The label key of a status as stored, known or not: the 16 statuses, and `reopened` of
/// the cart's reopen flow (spec 000 §3); anything else shows as `orders.status.unknown`.
pub fn status_label_key(status: &str) -> String {
    match OrderStatus::parse(status) {
        Some(s) => s.label_key(),
        None if status == REOPENED => format!("orders.status.{REOPENED}"),
        None => "orders.status.unknown".into(),
    }
}

/// The status the cart gives an order it reopens (not one of the 16; it ends the order).
pub const REOPENED: &str = "reopened";

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveRefusal {
    UnknownStatus(String),
    NotAllowed {
        from: String,
        to: String,
        kind: Fulfilment,
    },
    /// The simulator has no next step from here.
    AtRest(String),
    /// An active booking waits for the end of its stay.
    StayNotOver,
}

impl std::fmt::Display for MoveRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveRefusal::UnknownStatus(s) => write!(
                f,
                "unknown status {s:?} (one of: {})",
                OrderStatus::ALL.map(|s| s.wire()).join(", ")
            ),
            MoveRefusal::NotAllowed { from, to, kind } => {
                let allowed = OrderStatus::parse(from)
                    .map(|s| {
                        s.next_allowed_for(*kind)
                            .iter()
                            .map(|n| n.wire())
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default();
                if allowed.is_empty() {
                    write!(
                        f,
                        "an order {from} cannot become {to} (it moves no further)"
                    )
                } else {
                    write!(
                        f,
                        "an order {from} cannot become {to} (allowed: {})",
                        allowed.join(", ")
                    )
                }
            }
            MoveRefusal::AtRest(s) => {
                write!(f, "an order {s} has no next step in the simulator")
            }
            MoveRefusal::StayNotOver => write!(
                f,
                "an active booking expires the day after its stay ends (now: advance <ORDER_ID> expired)"
            ),
        }
    }
}

/// Checks a move of an order of `facts.kind` from the stored status to `to` (`None`: the
/// simulator's next step): allowed by the life cycle and for that kind of order.
pub fn plan_move(from: &str, to: Option<&str>, facts: Facts) -> Result<OrderStatus, MoveRefusal> {
    let current = OrderStatus::parse(from);
    match to {
        Some(to) => {
            let target =
                OrderStatus::parse(to).ok_or_else(|| MoveRefusal::UnknownStatus(to.into()))?;
            match current {
                Some(c) if c.can_move_to(target) && facts.kind.allows(target) => Ok(target),
                _ => Err(MoveRefusal::NotAllowed {
                    from: from.into(),
                    to: to.into(),
                    kind: facts.kind,
                }),
            }
        }
        None => match current {
            Some(c) => c.simulator_next(facts).ok_or_else(|| {
                if c == OrderStatus::Active && facts.kind == Fulfilment::Booking {
                    MoveRefusal::StayNotOver
                } else {
                    MoveRefusal::AtRest(from.into())
                }
            }),
            None => Err(MoveRefusal::AtRest(from.into())),
        },
    }
}

/// One step of an order's timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimelineStep {
    pub id: i64,
    pub status: String,
    pub at: i64,
    /// What the member is told about this step (an operator's reason for a denial).
    pub reason: Option<String>,
}

/// Timeline order: oldest first; events of the same second in the order they were written.
pub fn timeline_order(a: &TimelineStep, b: &TimelineStep) -> Ordering {
    a.at.cmp(&b.at).then(a.id.cmp(&b.id))
}

pub fn sort_timeline(steps: &mut [TimelineStep]) {
    steps.sort_by(timeline_order);
}

/// The post-sales base path (spec 001 §2).
pub const POSTSALES_BASE: &str = "/postsales";

/// The order-detail link (spec 001 §2): with the revamped flag on, a marketplace order goes
/// to `{base}/{orderId}/details` and any other to `/my-orders/{type}/{orderId}`; with the
/// flag off, the order's own details url (`/details/{orderId}` when it has none).
pub fn detail_url(
    revamped: bool,
    order_type: &str,
    order_id: i64,
    own_url: Option<&str>,
) -> String {
    if revamped {
        if order_type == "marketplace" {
            format!("{POSTSALES_BASE}/{order_id}/details")
        } else {
            format!("/my-orders/{order_type}/{order_id}")
        }
    } else {
        own_url
            .map(str::to_string)
            .unwrap_or_else(|| format!("/details/{order_id}"))
    }
}

/// The help-form link of an order (spec 001 §2: base path, the id, the help form).
pub fn help_url(order_id: i64) -> String {
    format!("{POSTSALES_BASE}/{order_id}/helpform")
}

/// Orders per page unless asked (spec 001 §9: the post-sales constant 10).
pub const DEFAULT_PAGE_SIZE: u32 = 10;
pub const MAX_PAGE_SIZE: u32 = 50;

/// A page of a list: number from 1, size 1 to [`MAX_PAGE_SIZE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paging {
    pub page: u32,
    pub size: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PagingError {
    Page,
    Size,
}

impl Paging {
    /// Reads `page` and `size` as sent (absent: page 1, size 10). Anything that is not a
    /// whole number in range is refused, not clamped: a client asking for page 0 or size
    /// 500 has a bug to hear about.
    pub fn parse(page: Option<&str>, size: Option<&str>) -> Result<Paging, PagingError> {
        let page = match page.map(str::trim) {
            None | Some("") => 1,
            Some(p) => p
                .parse::<u32>()
                .ok()
                .filter(|p| (1..=100_000).contains(p))
                .ok_or(PagingError::Page)?,
        };
        let size = match size.map(str::trim) {
            None | Some("") => DEFAULT_PAGE_SIZE,
            Some(s) => s
                .parse::<u32>()
                .ok()
                .filter(|s| (1..=MAX_PAGE_SIZE).contains(s))
                .ok_or(PagingError::Size)?,
        };
        Ok(Paging { page, size })
    }

    /// A page number and size from a page's address, where a bad one just means the first
    /// page, or the default size.
    pub fn lenient(page: Option<&str>, size: Option<&str>) -> Paging {
        Paging {
            page: Paging::parse(page, None).map_or(1, |p| p.page),
            size: Paging::parse(None, size).map_or(DEFAULT_PAGE_SIZE, |p| p.size),
        }
    }

    pub fn offset(self) -> i64 {
        i64::from(self.page - 1) * i64::from(self.size)
    }
}

/// How many pages `total` items fill (at least 1: an empty list is one empty page).
pub fn page_count(total: i64, size: u32) -> u32 {
    let size = i64::from(size.max(1));
    u32::try_from(((total.max(0) + size - 1) / size).max(1)).unwrap_or(u32::MAX)
}

/// The page numbers a pager offers: from 1 (spec 001 §9: options start at 1).
pub fn page_options(total: i64, size: u32) -> std::ops::RangeInclusive<u32> {
    1..=page_count(total, size)
}

/// The S10 check digit (UPU S10: weights 8 6 4 2 3 5 9 7 over the 8-digit serial).
pub fn s10_check_digit(serial: u32) -> u32 {
    const WEIGHTS: [u32; 8] = [8, 6, 4, 2, 3, 5, 9, 7];
    let digits = format!("{:08}", serial % 100_000_000);
    let sum: u32 = digits
        .bytes()
        .zip(WEIGHTS)
        .map(|(d, w)| u32::from(d - b'0') * w)
        .sum();
    match 11 - sum % 11 {
        10 => 0,
        11 => 5,
        c => c,
    }
}

/// The tracking number the simulator gives a shipped order: UPU S10 shaped, `RS` + an
/// 8-digit serial from the order id + its check digit + `FR` (e.g. `RS00000042?FR`).
pub fn tracking_number(order_id: i64) -> String {
    let serial = u32::try_from(order_id.rem_euclid(100_000_000)).unwrap_or(0);
    format!("RS{serial:08}{}FR", s10_check_digit(serial))
}

/// Whether `s` is a tracking number of ours (shape and check digit).
pub fn is_tracking_number(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 13 || !s.starts_with("RS") || !s.ends_with("FR") {
        return false;
    }
    let digits = &s[2..11];
    if !digits.bytes().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let serial: u32 = digits[..8].parse().unwrap_or(0);
    u32::from(b[10] - b'0') == s10_check_digit(serial)
}

/// A card as the order detail shows it: `•••• ` and its last four digits (anything but
/// four digits shows nothing).
pub fn mask_card(last4: &str) -> Option<String> {
    (last4.len() == 4 && last4.bytes().all(|b| b.is_ascii_digit())).then(|| format!("•••• {last4}"))
}

/// A payment reference as the member sees it: its last four characters, the rest hidden.
pub fn mask_reference(reference: &str) -> String {
    let chars: Vec<char> = reference.chars().collect();
    if chars.len() <= 4 {
        return "•".repeat(chars.len());
    }
    let (hidden, shown) = chars.split_at(chars.len() - 4);
    format!(
        "{}{}",
        "•".repeat(hidden.len().min(8)),
        shown.iter().collect::<String>()
    )
}

#[cfg(test)]
mod tests;
