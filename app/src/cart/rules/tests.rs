use serde_json::json;

use super::*;
use crate::model::catalog_api::Availability;

#[test]
fn list_input_uses_the_multi_item_form() {
    let (path, body) = cart_payload(&CartInput::List(vec![(1001010, 2)]), None, None, None);
    assert_eq!(path, "/items");
    assert_eq!(
        body,
        json!({ "products_quantity": [{ "product_id": 1001010, "quantity": 2 }], "cart_type": "fs" })
    );
}

#[test]
fn single_input_uses_the_single_item_form_with_default_type() {
    let (path, body) = cart_payload(
        &CartInput::Single {
            product_id: 7,
            quantity: 1,
        },
        None,
        None,
        None,
    );
    assert_eq!(path, "/item");
    assert_eq!(
        body,
        json!({ "product_id": 7, "quantity": 1, "cart_type": "fs" })
    );
    assert!(body.get("products_quantity").is_none());
}

#[test]
fn bundle_id_only_when_present() {
    let single = CartInput::Single {
        product_id: 7,
        quantity: 1,
    };
    let without = AddContext {
        sale_id: Some(1001),
        origin: Some("catalog".into()),
        bundle_id: None,
    };
    let (_, body) = cart_payload(&single, Some("marketplace"), Some(&without), None);
    assert_eq!(
        body["context"],
        json!({ "sale_id": 1001, "origin": "catalog" })
    );
    assert_eq!(body["cart_type"], "marketplace");
    let with = AddContext {
        bundle_id: Some("b-3".into()),
        ..without
    };
    let (_, body) = cart_payload(&single, None, Some(&with), None);
    assert_eq!(body["context"]["bundle_id"], "b-3");
}

#[test]
fn product_id_becomes_a_string_when_reopening() {
    let single = CartInput::Single {
        product_id: 1001010,
        quantity: 1,
    };
    let (_, body) = cart_payload(&single, None, None, Some(42));
    assert_eq!(body["product_id"], json!("1001010"));
    assert_eq!(body["order_to_reopen"], json!("42"));
    let (_, body) = cart_payload(&single, None, None, None);
    assert_eq!(body["product_id"], json!(1001010));
    assert!(body.get("order_to_reopen").is_none());
}

#[test]
fn ids_and_quantities_parse_strictly() {
    assert_eq!(parse_id(&json!("1001010")), Some(1001010));
    assert_eq!(parse_id(&json!(12)), Some(12));
    for bad in [
        json!("12a"),
        json!(""),
        json!(-3),
        json!(0),
        json!(1.5),
        json!(null),
        json!("-1"),
    ] {
        assert_eq!(parse_id(&bad), None, "{bad}");
    }
    assert_eq!(parse_quantity(None), Some(1));
    assert_eq!(parse_quantity(Some(&json!(3))), Some(3));
    for bad in [json!(0), json!(-1), json!(100), json!("2"), json!(1.5)] {
        assert_eq!(parse_quantity(Some(&bad)), None, "{bad}");
    }
}

#[test]
fn request_resets_flags_and_sets_loading() {
    let s = CartState {
        new_item: true,
        new_loyalty: true,
        new_error: true,
        ..Default::default()
    };
    let s = reduce_cart(&s, &CartAction::Request { params: None });
    assert!(s.loading && !s.new_item && !s.new_loyalty && !s.new_error);
}

#[test]
fn add_item_marks_new_item_except_onboarding_redirect() {
    let start = reduce_cart(
        &CartState {
            error: Some("old".into()),
            ..Default::default()
        },
        &CartAction::Request { params: None },
    );
    let s = reduce_cart(&start, &CartAction::AddItemSuccess { status: 201 });
    assert!(s.new_item && !s.loading && s.error.is_none());
    let s = reduce_cart(&start, &CartAction::AddItemSuccess { status: 263 });
    assert!(!s.new_item, "onboarding redirect does not mark newItem");
    assert!(s.error.is_none(), "but the error is cleared");
}

#[test]
fn loyalty_marks_new_loyalty_and_failures_new_error() {
    let s = reduce_cart(&CartState::default(), &CartAction::AddLoyaltySuccess);
    assert!(s.new_loyalty && !s.new_item);
    let s = reduce_cart(
        &s,
        &CartAction::Failure {
            error: "409".into(),
        },
    );
    assert!(s.new_error && s.error.as_deref() == Some("409") && !s.loading);
}

#[test]
fn basket_refresh_resets_notices_and_voucher_flags() {
    let s = reduce_basket(
        &BasketState::default(),
        &BasketAction::Refresh {
            remaining_time: 90,
            expired: false,
        },
    );
    assert!(s.has_notify_basket_expire_soon && !s.has_notify_basket_expired);
    let s = reduce_basket(
        &s,
        &BasketAction::Refresh {
            remaining_time: 600,
            expired: false,
        },
    );
    assert!(!s.has_notify_basket_expire_soon);
    let s = reduce_basket(
        &s,
        &BasketAction::Refresh {
            remaining_time: 0,
            expired: true,
        },
    );
    assert!(s.has_notify_basket_expired && !s.has_notify_basket_expire_soon);
    let s = reduce_basket(&s, &BasketAction::RemoveVoucherFailure);
    assert!(s.is_remove_error);
    let s = reduce_basket(&s, &BasketAction::RemoveVoucherPending);
    assert!(!s.is_remove_error && !s.is_remove_success);
    let s = reduce_basket(&s, &BasketAction::RemoveVoucherSuccess);
    assert!(s.is_remove_success);
    let s = reduce_basket(&s, &BasketAction::PrintPending);
    assert!(s.print_loading);
    let s = reduce_basket(
        &s,
        &BasketAction::PrintSuccess {
            print_url: "/vouchers/print/x".into(),
        },
    );
    assert_eq!(s.print_url.as_deref(), Some("/vouchers/print/x"));
    assert!(reduce_basket(&s, &BasketAction::PrintFailure).print_error);
}

#[test]
fn suspend_transitions() {
    let s = reduce_suspend(
        &SuspendState {
            error: true,
            ..Default::default()
        },
        None,
    );
    assert!(s.loading && !s.error);
    let ok = reduce_suspend(&s, Some(Ok(true)));
    assert!(ok.is_suspended_basket && !ok.loading);
    let failed = reduce_suspend(&s, Some(Err(())));
    assert!(failed.error && !failed.loading);
}

#[test]
fn codes_match_the_spec() {
    let codes: Vec<u16> = [
        CartCode::Success,
        CartCode::Created,
        CartCode::Empty,
        CartCode::Expired,
        CartCode::Frozen,
        CartCode::Reopen,
        CartCode::OnboardingRedirect,
        CartCode::ClientError,
        CartCode::AccessDenied,
        CartCode::Incompatible,
        CartCode::InvalidCart,
        CartCode::MoreThanOne,
        CartCode::Unexpected,
    ]
    .iter()
    .map(|c| c.status())
    .collect();
    assert_eq!(
        codes,
        [200, 201, 204, 260, 261, 262, 263, 400, 401, 409, 412, 429, 500]
    );
    assert_eq!(CartCode::from_status(261), Some(CartCode::Frozen));
    assert_eq!(CartError::IncompatibleCartTypes.code().status(), 409);
    assert_eq!(
        CartError::IncompatibleCartTypes.error_code(),
        "incompatible_cart_types"
    );
    assert_eq!(
        error_name(409, "Conflict", "incompatible_cart_types"),
        "409 Conflict incompatible_cart_types"
    );
    assert_eq!(
        error_message(&json!({ "errorDescription": "cart.errors.frozen" })).as_deref(),
        Some("cart.errors.frozen")
    );
}

#[test]
fn totals_with_vouchers() {
    let lines = [(2000, 2), (1000, 1)];
    let ten = VoucherRule {
        percent: true,
        shipping: false,
        value: 10,
    };
    let free_shipping = VoucherRule {
        percent: true,
        shipping: true,
        value: 100,
    };
    let (t, amounts) = totals(&lines, true, &[ten.clone(), free_shipping], 990);
    assert_eq!(t.subtotal, 5000);
    assert_eq!(amounts, vec![500, SHIPPING_CENTS]);
    assert_eq!(t.total, 5000 - 500 + 990);
    let huge = VoucherRule {
        percent: false,
        shipping: false,
        value: 99_999,
    };
    let (t, amounts) = totals(&lines, true, &[ten.clone(), huge], 0);
    assert_eq!(amounts, vec![500, 4500], "never below zero");
    assert_eq!(t.total, SHIPPING_CENTS);
    assert_eq!(totals(&[], true, &[], 0).0.total, 0);
    // Vouchers only (rose deals): no parcel, no shipping, and a shipping voucher takes
    // nothing off.
    let free_shipping = VoucherRule {
        percent: true,
        shipping: true,
        value: 100,
    };
    let (t, amounts) = totals(&lines, false, &[ten, free_shipping], 0);
    assert_eq!((t.shipping, t.total), (0, 4500));
    assert_eq!(amounts, vec![500, 0]);
}

#[test]
fn only_goods_need_a_delivery() {
    let line = |is_digital| crate::model::cart::CartLine {
        is_digital,
        ..Default::default()
    };
    assert!(!needs_delivery(&[]));
    assert!(!needs_delivery(&[line(true), line(true)]));
    assert!(needs_delivery(&[line(true), line(false)]));
}

#[test]
fn availability_and_notices() {
    assert_eq!(availability(3, 0, 5), Availability::Available);
    assert_eq!(availability(0, 0, 5), Availability::OutOfStock);
    assert_eq!(availability(0, 2, 5), Availability::InBasket);
    assert_eq!(availability(9, 5, 5), Availability::MaxReached);
    assert_eq!(expiry_notices(120, false), (true, false));
    assert_eq!(expiry_notices(121, false), (false, false));
    assert_eq!(expiry_notices(0, true), (false, true));
}

#[test]
fn every_message_key_is_translated() {
    // The merged tables pages read: a key may live in an area's locale folder.
    for lang in crate::site::i18n::LANGS {
        let keys = CartError::ALL
            .iter()
            .map(|e| e.message_key())
            .chain([1, 2].map(|id| loyalty_product(id).unwrap().1));
        for key in keys {
            assert!(
                crate::site::i18n::lookup(lang, key).is_some_and(|t| !t.is_empty()),
                "{lang}: {key}"
            );
        }
    }
}

#[test]
fn sandbox_cards() {
    assert_eq!(sandbox_card("4242 4242 4242 4242"), SandboxCard::Accepted);
    assert_eq!(sandbox_card("4000-0000-0000-0002"), SandboxCard::Declined);
    assert_eq!(sandbox_card("1234"), SandboxCard::Invalid);
    assert_eq!(
        sandbox_card("4000 0000 0000 3220"),
        SandboxCard::SlowAccepted
    );
    assert_eq!(loyalty_product(1).unwrap().0, 2990);
    assert!(loyalty_product(3).is_none());
}

#[test]
fn marketplace_products_go_to_the_marketplace_cart() {
    assert_eq!(cart_type_for_seller("marketplace"), "marketplace");
    assert_eq!(cart_type_for_seller("fs"), "fs");
    assert_eq!(cart_type_for_seller("m2m"), "fs");
    assert_eq!(cart_type_for_seller(""), DEFAULT_CART_TYPE);
    // The add payload carries it.
    let (_, body) = cart_payload(
        &CartInput::Single {
            product_id: 7,
            quantity: 1,
        },
        Some(cart_type_for_seller("marketplace")),
        None,
        None,
    );
    assert_eq!(body["cart_type"], "marketplace");
}

#[test]
fn the_payment_method_is_what_paid() {
    assert_eq!(
        checkout_method(4990, Some("4242 4242 4242 4242")),
        PaymentMethod::Card {
            last4: Some("4242".into())
        }
    );
    assert_eq!(
        checkout_method(4990, Some("4242 4242 4242 4242")).wire(),
        "card"
    );
    // Too short to be a card: no digits kept.
    assert_eq!(checkout_method(4990, Some("123")).last4(), None);
    assert_eq!(checkout_method(4990, None).wire(), "card");
    // Vouchers covered it all: nothing charged, whatever was typed.
    assert_eq!(
        checkout_method(0, Some("4242424242424242")),
        PaymentMethod::Voucher
    );
    assert_eq!(checkout_method(0, None).wire(), "voucher");
    assert_eq!(PaymentMethod::Voucher.last4(), None);
}

#[test]
fn a_cart_of_one_type_takes_no_item_of_another() {
    assert!(cart_types_conflict(Some("fs"), "marketplace"));
    assert!(cart_types_conflict(Some("marketplace"), "fs"));
    assert!(!cart_types_conflict(Some("fs"), "fs"));
    // A cart with no type yet takes anything.
    assert!(!cart_types_conflict(None, "marketplace"));
}
