use super::*;
use crate::rosedeals::model::{ContactMessage, DealAddress};

fn filled() -> RefundState {
    RefundState {
        iban: "FR1420041010050500013M02606".into(),
        iban_stored: true,
        error: true,
        error_code: Some("invalid_iban".into()),
        ..Default::default()
    }
}

#[test]
fn refund_pending_sets_loading_and_clears_errors() {
    let s = reduce_refund(&filled(), &RefundAction::RefundPending);
    assert!(s.loading);
    assert!(!s.error);
    assert_eq!(s.error_code, None);
    assert_eq!(s.iban, filled().iban, "the iban stays while posting");
}

#[test]
fn refund_success_stores_amount_clears_iban_and_stored_flag() {
    let s = reduce_refund(&filled(), &RefundAction::RefundPending);
    let s = reduce_refund(&s, &RefundAction::RefundSuccess { amount: 2500 });
    assert_eq!(s.amount, Some(2500));
    assert!(s.success && !s.loading);
    assert!(s.iban.is_empty());
    assert!(!s.iban_stored);
}

#[test]
fn refund_rejection_with_code_keeps_it_and_the_iban() {
    let s = reduce_refund(
        &filled(),
        &RefundAction::RefundRejected {
            code: Some("already_refunded".into()),
        },
    );
    assert_eq!(s.error_code.as_deref(), Some("already_refunded"));
    assert!(s.error && !s.loading);
    assert!(!s.iban.is_empty());
}

#[test]
fn refund_rejection_without_code_is_generic_and_clears_the_iban() {
    let s = reduce_refund(&filled(), &RefundAction::RefundRejected { code: None });
    assert_eq!(s.error_code.as_deref(), Some(POST_ERROR));
    assert!(s.iban.is_empty());
}

#[test]
fn retry_is_similar_but_keeps_the_iban() {
    let s = reduce_refund(&filled(), &RefundAction::RetryPending);
    assert!(s.loading && s.error_code.is_none());
    let ok = reduce_refund(&s, &RefundAction::RetrySuccess);
    assert!(ok.success && !ok.loading);
    assert_eq!(ok.iban, filled().iban);
    assert!(ok.iban_stored);
    let no_code = reduce_refund(&s, &RefundAction::RetryRejected { code: None });
    assert_eq!(no_code.error_code.as_deref(), Some(POST_ERROR));
    assert_eq!(no_code.iban, filled().iban);
}

#[test]
fn successes_refresh_page_one_of_both_lists() {
    assert_eq!(
        refresh_after(&RefundAction::RefundSuccess { amount: 1 }),
        Some([("current", 1), ("archived", 1)])
    );
    assert!(refresh_after(&RefundAction::RetrySuccess).is_some());
    assert!(refresh_after(&RefundAction::RefundRejected { code: None }).is_none());
    assert!(refresh_after(&RefundAction::RefundPending).is_none());
}

fn address() -> DealAddress {
    DealAddress {
        city: "Paris".into(),
        country: "FR".into(),
        first_name: "Marie".into(),
        last_name: "Curie".into(),
        ..Default::default()
    }
}

#[test]
fn contact_needs_profile_and_vouchers() {
    let ok = ContactMessage {
        message: "Code refused".into(),
        subject: "voucher".into(),
        vouchers: vec!["RD-AAAA-BBBB-CCCC".into()],
        address: Some(address()),
    };
    assert_eq!(check_contact(&ok), Ok(()));
    let no_profile = ContactMessage {
        address: None,
        ..ok.clone()
    };
    assert_eq!(check_contact(&no_profile), Err("Missing values"));
    let empty_profile = ContactMessage {
        address: Some(DealAddress::default()),
        ..ok.clone()
    };
    assert_eq!(check_contact(&empty_profile), Err(MISSING_VALUES));
    let no_vouchers = ContactMessage {
        vouchers: vec![" ".into()],
        ..ok
    };
    assert_eq!(check_contact(&no_vouchers), Err(MISSING_VALUES));
}

#[test]
fn page_defaults_to_one() {
    assert_eq!(page_of(None), Some(1));
    assert_eq!(page_of(Some(3)), Some(3));
    assert_eq!(page_of(Some(0)), None);
    assert_eq!(page_of(Some(-2)), None);
}

#[test]
fn voucher_statuses_and_current_orders() {
    assert_eq!(voucher_status("active", 100, 50), "active");
    assert_eq!(voucher_status("active", 100, 100), "expired");
    assert_eq!(voucher_status("used", 100, 50), "used");
    assert_eq!(voucher_status("void", 100, 50), "void");
    assert!(is_current("validated", &["used", "active"]));
    assert!(!is_current("validated", &["used", "expired"]));
    assert!(!is_current("refund_in_progress", &["active"]));
    assert!(!is_current("refunded", &["active"]));
}

#[test]
fn refund_counts_usable_vouchers_only() {
    assert_eq!(
        refund_amount(&[("active", 2500), ("used", 2500), ("active", 1000)]),
        3500
    );
    assert_eq!(refund_amount(&[("expired", 2500)]), 0);
}

#[test]
fn codes_use_the_unambiguous_alphabet() {
    let c = voucher_code(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 255]);
    assert_eq!(c.len(), 17);
    assert!(c.starts_with("RD-"));
    assert!(c[3..]
        .chars()
        .all(|ch| ch == '-' || CODE_ALPHABET.contains(&(ch as u8))));
    assert_ne!(c, voucher_code(&[1; 12]));
}

#[test]
fn known_error_codes_have_their_message() {
    let body = |code: &str| crate::model::error::ErrorBody::new(code, "x");
    assert_eq!(
        error_key(Some(&body("invalid_iban"))),
        "rosedeals.errors.invalid_iban"
    );
    assert_eq!(
        error_key(Some(&body("whatever"))),
        "errors.general_retry.notification"
    );
    assert_eq!(error_key(None), "errors.general_retry.notification");
}

#[test]
fn attachments_keep_the_dsa_limits() {
    let pdf = |t: &str| t == "application/pdf";
    assert_eq!(attachment_error(10, "application/pdf", pdf, 100), None);
    assert_eq!(
        attachment_error(101, "application/pdf", pdf, 100),
        Some("dsaform.error.file_size")
    );
    assert_eq!(
        attachment_error(10, "text/plain", pdf, 100),
        Some("dsaform.error.file_type")
    );
}

#[test]
fn contact_pending_sets_loading_and_hides_the_last_refusal() {
    let before = ContactState {
        error: Some("rosedeals.errors.missing_values".into()),
        ..Default::default()
    };
    let s = reduce_contact(&before, &ContactAction::Pending);
    assert!(s.loading);
    assert!(!s.sent);
    assert_eq!(s.error, None);
}

#[test]
fn contact_fulfilled_sets_the_message_sent() {
    let s = reduce_contact(&ContactState::default(), &ContactAction::Pending);
    let s = reduce_contact(&s, &ContactAction::Fulfilled);
    assert_eq!(
        s,
        ContactState {
            loading: false,
            sent: true,
            error: None
        }
    );
}

#[test]
fn contact_rejected_stores_the_error_and_ends_loading() {
    let s = reduce_contact(&ContactState::default(), &ContactAction::Pending);
    let s = reduce_contact(
        &s,
        &ContactAction::Rejected {
            error: "rosedeals.errors.missing_values".into(),
        },
    );
    assert!(!s.loading && !s.sent);
    assert_eq!(s.error.as_deref(), Some("rosedeals.errors.missing_values"));
    // A refusal after a message went through does not unsend it.
    let sent = ContactState {
        sent: true,
        ..Default::default()
    };
    let s = reduce_contact(
        &sent,
        &ContactAction::Rejected {
            error: "errors.general_retry.notification".into(),
        },
    );
    assert!(s.sent);
    assert_eq!(
        s.error.as_deref(),
        Some("errors.general_retry.notification")
    );
}

#[test]
fn a_refusal_code_is_error_code_camel_first() {
    use crate::rosedeals::model::DealErrorBody;
    let both = DealErrorBody::from(crate::model::error::ErrorBody::new(
        "invalid_iban",
        "rosedeals.errors.invalid_iban",
    ));
    assert_eq!(both.error_code_camel, "invalid_iban");
    assert_eq!(refusal_code(&both), Some("invalid_iban"));
    let camel_only = DealErrorBody {
        error_code_camel: "no_iban".into(),
        ..Default::default()
    };
    assert_eq!(refusal_code(&camel_only), Some("no_iban"));
    let snake_only = DealErrorBody {
        error_code: "already_refunded".into(),
        ..Default::default()
    };
    assert_eq!(refusal_code(&snake_only), Some("already_refunded"));
    assert_eq!(refusal_code(&DealErrorBody::default()), None);
    assert_eq!(code_key(Some("no_iban")), "rosedeals.errors.no_iban");
    assert_eq!(code_key(None), "errors.general_retry.notification");
}
