use super::*;
use crate::rosedeals::model::{ContactMessage, DealAddress};

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
