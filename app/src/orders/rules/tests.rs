use super::*;

#[test]
fn sixteen_statuses_with_wire_names_and_label_keys() {
    assert_eq!(OrderStatus::ALL.len(), 16);
    for s in OrderStatus::ALL {
        assert_eq!(OrderStatus::parse(s.wire()), Some(s));
        assert_eq!(s.label_key(), format!("orders.status.{}", s.wire()));
    }
    assert_eq!(
        OrderStatus::ReturnRequestedAccepted.wire(),
        "return_requested_accepted"
    );
    assert_eq!(OrderStatus::parse("Shipped"), None);
    assert_eq!(status_label_key("validated"), "orders.status.validated");
    assert_eq!(status_label_key("reopened"), "orders.status.reopened");
    assert_eq!(status_label_key("lost_at_sea"), "orders.status.unknown");
}

#[test]
fn every_label_key_is_translated_in_every_language() {
    let mut keys: Vec<String> = OrderStatus::ALL.iter().map(|s| s.label_key()).collect();
    keys.push(status_label_key("reopened"));
    keys.push(status_label_key("?"));
    for lang in crate::site::i18n::LANGS {
        for key in &keys {
            assert!(
                crate::site::i18n::table(lang).contains_key(key.as_str()),
                "{lang}: {key}"
            );
        }
    }
}

const PARCEL: Facts = Facts {
    kind: Fulfilment::Parcel,
    stay_over: false,
};

/// The simulator's path from `start` for an order of `facts`, each step an allowed move.
fn path(start: OrderStatus, facts: Facts) -> Vec<OrderStatus> {
    let mut s = start;
    let mut path = vec![s];
    while let Some(n) = s.simulator_next(facts) {
        assert!(s.can_move_to(n), "{s:?} -> {n:?}");
        assert!(facts.kind.allows(n), "{facts:?}: {n:?}");
        s = n;
        path.push(s);
    }
    path
}

#[test]
fn the_simulator_path_and_the_return_path() {
    use OrderStatus::*;
    assert_eq!(
        path(Validated, PARCEL),
        [Validated, InPreparation, Shipped, Received]
    );
    assert!(InPreparation.can_move_to(ShippedPartially));
    assert!(ShippedPartially.can_move_to(ReceivedPartially));
    assert!(ShippedPartially.can_move_to(Shipped));
    assert!(Received.can_move_to(ReturnRequested));
    assert!(ReturnRequested.can_move_to(ReturnRequestedAccepted));
    assert!(ReturnRequested.can_move_to(ReturnRequestedDenied));
    assert_eq!(
        ReturnRequested.simulator_next(PARCEL),
        None,
        "a person decides"
    );
    assert_eq!(
        path(ReturnRequestedAccepted, PARCEL),
        [
            ReturnRequestedAccepted,
            ReturnReceived,
            RefundInProgress,
            Refunded
        ]
    );
    assert!(Validated.can_move_to(Cancelled));
    assert!(InPreparation.can_move_to(Cancelled));
    for rest in [Cancelled, Expired] {
        assert!(rest.next_allowed().is_empty(), "{rest:?}");
    }
    // A settled return (refused or refunded) leaves the order open to another request.
    for settled in [ReturnRequestedDenied, Refunded] {
        assert_eq!(settled.next_allowed(), [ReturnRequested], "{settled:?}");
        assert_eq!(settled.simulator_next(PARCEL), None);
    }
    // Not while an accepted return is under way.
    for busy in [ReturnRequestedAccepted, ReturnReceived, RefundInProgress] {
        assert!(!busy.can_move_to(ReturnRequested), "{busy:?}");
    }
}

/// Every one of the 16 statuses has a way in from `validated` (the paid order), for some
/// kind of order, through allowed moves.
#[test]
fn every_status_can_be_reached() {
    use std::collections::HashSet;
    let mut seen = HashSet::new();
    for kind in [
        Fulfilment::Parcel,
        Fulfilment::PreReception,
        Fulfilment::Booking,
    ] {
        let mut todo = vec![OrderStatus::Validated];
        while let Some(s) = todo.pop() {
            if seen.insert((kind, s)) {
                todo.extend(s.next_allowed_for(kind));
            }
        }
    }
    for s in OrderStatus::ALL {
        assert!(seen.iter().any(|(_, r)| *r == s), "{s:?} cannot be reached");
    }
}

#[test]
fn pre_reception_goods_become_available_before_preparation() {
    use OrderStatus::*;
    let pre = Facts::of(Fulfilment::PreReception);
    assert_eq!(
        Fulfilment::of("fs", &[0, PRE_RECEPTION]),
        Fulfilment::PreReception
    );
    assert_eq!(
        Fulfilment::of("marketplace", &[0, 2, 3]),
        Fulfilment::Parcel
    );
    assert_eq!(Fulfilment::of("fs", &[]), Fulfilment::Parcel);
    assert_eq!(
        plan_move("validated", Some("validated_available"), pre),
        Ok(ValidatedAvailable)
    );
    assert_eq!(
        plan_move("validated_available", None, pre),
        Ok(InPreparation)
    );
    assert_eq!(
        plan_move("validated_available", Some("cancelled"), pre),
        Ok(Cancelled)
    );
    assert_eq!(
        path(ValidatedAvailable, pre),
        [ValidatedAvailable, InPreparation, Shipped, Received]
    );
    // The simulator's own step does not wait for the brand.
    assert_eq!(Validated.simulator_next(pre), Some(InPreparation));
    // Goods already in stock are never "now available".
    let e = plan_move("validated", Some("validated_available"), PARCEL).unwrap_err();
    assert_eq!(
        e.to_string(),
        "an order validated cannot become validated_available (allowed: in_preparation, cancelled)"
    );
    assert!(ValidatedAvailable
        .label_key()
        .ends_with("validated_available"));
    assert!(!ValidatedAvailable.is_shipped());
}

#[test]
fn vouchers_are_active_once_paid_and_never_shipped() {
    use OrderStatus::*;
    let vouchers = Facts::of(Fulfilment::Voucher);
    assert_eq!(Fulfilment::of("rosedeal", &[0]), Fulfilment::Voucher);
    assert_eq!(plan_move("validated", None, vouchers), Ok(Active));
    assert_eq!(
        plan_move("active", None, vouchers),
        Err(MoveRefusal::AtRest("active".into()))
    );
    assert!(plan_move("validated", Some("in_preparation"), vouchers).is_err());
    assert_eq!(
        plan_move("refund_in_progress", None, vouchers),
        Ok(Refunded)
    );
    assert_eq!(plan_move("active", Some("expired"), vouchers), Ok(Expired));
}

#[test]
fn a_travel_booking_is_active_until_its_stay_is_over_then_expired() {
    use OrderStatus::*;
    let booking = Facts::of(Fulfilment::Booking);
    let over = Facts {
        kind: Fulfilment::Booking,
        stay_over: true,
    };
    assert_eq!(
        Fulfilment::of("travel", &[PRE_RECEPTION]),
        Fulfilment::Booking
    );
    assert_eq!(plan_move("validated", None, booking), Ok(Active));
    assert_eq!(
        plan_move("active", None, booking),
        Err(MoveRefusal::StayNotOver)
    );
    assert!(MoveRefusal::StayNotOver
        .to_string()
        .contains("advance <ORDER_ID> expired"));
    assert_eq!(plan_move("active", None, over), Ok(Expired));
    assert_eq!(plan_move("active", Some("expired"), booking), Ok(Expired));
    assert_eq!(
        plan_move("active", Some("cancelled"), booking),
        Ok(Cancelled)
    );
    assert_eq!(path(Validated, over), [Validated, Active, Expired]);
    assert_eq!(
        plan_move("expired", None, over),
        Err(MoveRefusal::AtRest("expired".into()))
    );
    // A booking is not prepared or shipped; goods are never active or expired.
    assert_eq!(
        plan_move("validated", Some("in_preparation"), booking)
            .unwrap_err()
            .to_string(),
        "an order validated cannot become in_preparation (allowed: active, cancelled)"
    );
    for kind in [Fulfilment::Parcel, Fulfilment::PreReception] {
        let facts = Facts::of(kind);
        assert!(plan_move("validated", Some("active"), facts).is_err());
        assert_eq!(plan_move("validated", None, facts), Ok(InPreparation));
    }
    assert!(!Active.is_shipped() && !Expired.is_shipped());
}

#[test]
fn a_stay_is_over_the_day_after_its_last_day() {
    // 2026-03-10 00:00:00 UTC.
    let day = 1_773_100_800;
    // Checked in on the 3rd for 7 days: last day the 9th, expired from the 10th.
    assert!(stay_over("2026-03-03", 7, day));
    assert!(!stay_over("2026-03-03", 7, day - 1));
    assert!(!stay_over("2026-03-03", 8, day + 86_399));
    assert!(stay_over("2026-03-09", 1, day));
    assert!(!stay_over("2026-03-10", 1, day));
    assert!(!stay_over("not a day", 3, day));
    assert!(!stay_over("2026-02-30", 3, day));
}

#[test]
fn the_member_hears_of_shipping_returns_refunds_and_endings() {
    use OrderStatus::*;
    let notified: Vec<OrderStatus> = OrderStatus::ALL
        .into_iter()
        .filter(|s| s.notified())
        .collect();
    assert_eq!(
        notified,
        [
            Cancelled,
            Expired,
            Received,
            ReceivedPartially,
            Refunded,
            RefundInProgress,
            ReturnRequestedDenied,
            ReturnRequestedAccepted,
            ReturnReceived,
            Shipped,
            ShippedPartially
        ]
    );
    // Each notification reads "Order n° {order}: {status label}" in the site's language.
    for lang in crate::site::i18n::LANGS {
        let table = crate::site::i18n::table(lang);
        assert!(table.contains_key("help.notification.order"), "{lang}");
        for s in &notified {
            assert!(table.contains_key(s.label_key().as_str()), "{lang}: {s:?}");
        }
    }
}

#[test]
fn refused_moves_say_why() {
    assert_eq!(
        plan_move("validated", None, PARCEL),
        Ok(OrderStatus::InPreparation)
    );
    assert_eq!(
        plan_move("in_preparation", Some("shipped_partially"), PARCEL),
        Ok(OrderStatus::ShippedPartially)
    );
    let e = plan_move("shipped", Some("cancelled"), PARCEL).unwrap_err();
    assert_eq!(
        e.to_string(),
        "an order shipped cannot become cancelled (allowed: received, received_partially)"
    );
    assert_eq!(
        plan_move("validated", Some("received"), PARCEL),
        Err(MoveRefusal::NotAllowed {
            from: "validated".into(),
            to: "received".into(),
            kind: Fulfilment::Parcel,
        })
    );
    assert!(matches!(
        plan_move("validated", Some("teleported"), PARCEL),
        Err(MoveRefusal::UnknownStatus(_))
    ));
    assert_eq!(
        plan_move("received", None, PARCEL),
        Err(MoveRefusal::AtRest("received".into()))
    );
    assert!(plan_move("reopened", None, PARCEL).is_err());
    assert!(plan_move("reopened", Some("in_preparation"), PARCEL).is_err());
    assert!(plan_move("cancelled", Some("shipped"), PARCEL)
        .unwrap_err()
        .to_string()
        .contains("moves no further"));
}

#[test]
fn timeline_is_oldest_first_and_stable_by_id() {
    let step = |id, at, status: &str| TimelineStep {
        id,
        status: status.into(),
        at,
        reason: None,
    };
    let mut t = vec![
        step(4, 300, "shipped"),
        step(3, 200, "in_preparation"),
        step(1, 100, "validated"),
        step(6, 300, "received"),
        step(5, 300, "shipped_partially"),
    ];
    sort_timeline(&mut t);
    assert_eq!(t.iter().map(|s| s.id).collect::<Vec<_>>(), [1, 3, 4, 5, 6]);
}

#[test]
fn detail_link_rule() {
    assert_eq!(
        detail_url(true, "marketplace", 42, None),
        "/postsales/42/details"
    );
    assert_eq!(detail_url(true, "fs", 42, None), "/my-orders/fs/42");
    assert_eq!(detail_url(true, "travel", 7, None), "/my-orders/travel/7");
    assert_eq!(
        detail_url(false, "marketplace", 42, Some("/somewhere/42")),
        "/somewhere/42"
    );
    assert_eq!(detail_url(false, "fs", 42, None), "/details/42");
    assert_eq!(help_url(42), "/postsales/42/helpform");
    // Every link lands on the order-detail page of the route table.
    for url in [
        detail_url(true, "marketplace", 42, None),
        detail_url(true, "fs", 42, None),
        detail_url(false, "fs", 42, None),
    ] {
        let route = crate::routes::resolve(&url).unwrap();
        assert_eq!(route.kind, crate::routes::PageKind::OrderDetails, "{url}");
        assert_eq!(route.get_id("orderId"), Some(42));
    }
}

#[test]
fn paging() {
    assert_eq!(Paging::parse(None, None), Ok(Paging { page: 1, size: 10 }));
    assert_eq!(
        Paging::parse(Some("3"), Some("50")),
        Ok(Paging { page: 3, size: 50 })
    );
    assert_eq!(Paging::parse(Some("0"), None), Err(PagingError::Page));
    assert_eq!(Paging::parse(Some("-1"), None), Err(PagingError::Page));
    assert_eq!(Paging::parse(Some("x"), None), Err(PagingError::Page));
    assert_eq!(Paging::parse(None, Some("0")), Err(PagingError::Size));
    assert_eq!(Paging::parse(None, Some("51")), Err(PagingError::Size));
    assert_eq!(Paging::parse(None, Some("1.5")), Err(PagingError::Size));
    assert_eq!(
        Paging::lenient(Some("zz"), None),
        Paging { page: 1, size: 10 }
    );
    assert_eq!(
        Paging::lenient(Some("2"), Some("99")),
        Paging { page: 2, size: 10 }
    );
    assert_eq!(
        Paging::lenient(None, Some("1")),
        Paging { page: 1, size: 1 }
    );
    assert_eq!(Paging { page: 3, size: 10 }.offset(), 20);
    assert_eq!(page_count(0, 10), 1);
    assert_eq!(page_count(10, 10), 1);
    assert_eq!(page_count(11, 10), 2);
    assert_eq!(page_options(25, 10), 1..=3);
    assert_eq!(*page_options(0, 10).start(), 1);
}

#[test]
fn tracking_numbers_are_s10_shaped() {
    // The UPU's own example.
    assert_eq!(s10_check_digit(47312482), 9);
    let n = tracking_number(42);
    assert_eq!(n.len(), 13);
    assert!(n.starts_with("RS00000042") && n.ends_with("FR"), "{n}");
    assert!(is_tracking_number(&n));
    assert_eq!(tracking_number(42), n, "the same order, the same number");
    assert_ne!(tracking_number(43), n);
    assert!(!is_tracking_number("RS000000420FR") || n == "RS000000420FR");
    assert!(!is_tracking_number("XX000000420FR"));
    for id in [1, 9, 99_999_999, 123_456_789] {
        assert!(is_tracking_number(&tracking_number(id)), "{id}");
    }
}

#[test]
fn cards_are_masked_to_their_last_four() {
    assert_eq!(mask_card("4242").as_deref(), Some("•••• 4242"));
    assert_eq!(mask_card("42a2"), None);
    assert_eq!(mask_card("42424"), None);
    assert_eq!(mask_card(""), None);
}

#[test]
fn payment_references_are_masked() {
    assert_eq!(mask_reference("sbx_0123456789abcdef"), "••••••••cdef");
    assert_eq!(mask_reference("abc"), "•••");
    assert_eq!(mask_reference("abcd1"), "•bcd1");
}

#[test]
fn a_vouchers_line_shows_no_size() {
    assert_eq!(
        line_name("fs", "Robe Noa", "38", "DD/MM/YYYY"),
        "Robe Noa · 38"
    );
    assert_eq!(
        line_name("rosedeal", "Cinéma Lumière", "TU", "DD/MM/YYYY"),
        "Cinéma Lumière"
    );
    assert_eq!(line_name("fs", "Sac", " ", "DD/MM/YYYY"), "Sac");
    assert!(!sends_parcel("rosedeal") && !sends_parcel("travel") && sends_parcel("fs"));
}

#[test]
fn a_trips_line_gives_its_day_the_sites_way() {
    assert_eq!(
        line_name(
            "travel",
            "Club Azahar",
            "Séville · Paris · 2027-01-02",
            "DD.MM.YYYY"
        ),
        "Club Azahar · Séville · Paris · 02.01.2027"
    );
    assert_eq!(
        line_name("travel", "Club Azahar", "Séville · 2027-13", "DD/MM/YYYY"),
        "Club Azahar · Séville · 2027-13"
    );
}
