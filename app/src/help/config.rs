//! What each site's help centre offers (demo configuration, spec 001 §3): the contact
//! reasons and their sub-reasons, whether a message may become a ticket, whether files may
//! be attached, and the other ways to reach support (WhatsApp, Phone, Messenger).
use super::rules::{ContactMethod, ReasonRule};

/// A contact reason; its label is `help.reason.<id>`, a sub-reason's `help.subreason.<id>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reason {
    pub id: &'static str,
    pub sub_reasons: &'static [&'static str],
    /// The reason is about one of the member's orders.
    pub needs_order: bool,
}

impl Reason {
    pub fn rule(&self) -> ReasonRule {
        ReasonRule {
            has_sub_reasons: !self.sub_reasons.is_empty(),
            needs_order: self.needs_order,
        }
    }
}

const ORDER: Reason = Reason {
    id: "order",
    sub_reasons: &["delivery", "tracking", "damaged", "cancel", "address"],
    needs_order: true,
};
const RETURNS: Reason = Reason {
    id: "returns",
    sub_reasons: &["return_item", "refund"],
    needs_order: true,
};
const PAYMENT: Reason = Reason {
    id: "payment",
    sub_reasons: &["declined", "invoice", "voucher"],
    needs_order: false,
};
const ACCOUNT: Reason = Reason {
    id: "account",
    sub_reasons: &["login", "personal_data", "newsletter"],
    needs_order: false,
};
const ROSEDEALS: Reason = Reason {
    id: "rosedeals",
    sub_reasons: &["deal_refund", "deal_use"],
    needs_order: false,
};
const OTHER: Reason = Reason {
    id: "other",
    sub_reasons: &[],
    needs_order: false,
};

const ALL: &[Reason] = &[ORDER, RETURNS, PAYMENT, ACCOUNT, ROSEDEALS, OTHER];
/// Sites without rose deals keep the other reasons.
const NO_DEALS: &[Reason] = &[ORDER, RETURNS, PAYMENT, ACCOUNT, OTHER];

/// One site's help centre.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HelpConfig {
    pub reasons: &'static [Reason],
    /// A message the articles do not answer becomes a ticket; else the extra text shows.
    pub tickets_allowed: bool,
    /// The form takes files (the multipart send).
    pub attachments: bool,
    pub contact_methods: Vec<ContactMethod>,
}

fn method(platform: &str, href: &str, label: &str) -> ContactMethod {
    ContactMethod {
        platform_name: platform.into(),
        href: href.into(),
        label: label.into(),
    }
}

pub fn for_site(site_id: u16) -> HelpConfig {
    let (reasons, tickets_allowed, attachments, methods) = match site_id {
        1 => (
            ALL,
            true,
            true,
            vec![
                method("WhatsApp", "https://wa.me/33180000000", "+33 1 80 00 00 00"),
                method("Phone", "tel:+33180000000", "01 80 00 00 00"),
                method("Messenger", "https://m.me/rosace.fr", "rosace.fr"),
            ],
        ),
        2 => (
            ALL,
            true,
            true,
            vec![method("Phone", "tel:+4930000000", "030 000 000")],
        ),
        7 => (
            ALL,
            true,
            true,
            vec![method("Phone", "tel:+4312000000", "01 200 0000")],
        ),
        3 | 66 => (
            ALL,
            true,
            false,
            vec![
                method("WhatsApp", "https://wa.me/34910000000", "+34 910 000 000"),
                method("Phone", "tel:+34910000000", "910 000 000"),
            ],
        ),
        4 | 69 => (
            ALL,
            true,
            true,
            vec![method("Messenger", "https://m.me/rosace.it", "rosace.it")],
        ),
        // Luxembourg's support answers by phone only: no tickets from the form.
        73 => (
            NO_DEALS,
            false,
            false,
            vec![method("Phone", "tel:+35220000000", "+352 20 00 00 00")],
        ),
        // The Netherlands' support is Dutch, on a Dutch number.
        76 => (
            NO_DEALS,
            true,
            true,
            vec![method("Phone", "tel:+31200000000", "020 000 0000")],
        ),
        _ => (
            NO_DEALS,
            true,
            true,
            vec![method("Phone", "tel:+3220000000", "+32 2 000 00 00")],
        ),
    };
    HelpConfig {
        reasons,
        tickets_allowed,
        attachments,
        contact_methods: methods,
    }
}

impl HelpConfig {
    pub fn reason(&self, id: &str) -> Option<&'static Reason> {
        self.reasons.iter().find(|r| r.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_site_has_reasons_and_a_contact_method() {
        for site in crate::site::SITES.iter() {
            let c = for_site(site.site_id);
            assert!(c.reasons.len() >= 4);
            assert!(!c.contact_methods.is_empty());
            assert!(c.reason("order").unwrap().needs_order);
            assert!(c.reason("nope").is_none());
        }
        assert!(!for_site(73).tickets_allowed);
        // A site's phone numbers are of its own country.
        for site in crate::site::SITES.iter() {
            let prefix = match site.country_code {
                "FR" => "tel:+33",
                "DE" => "tel:+49",
                "ES" => "tel:+34",
                "IT" => "tel:+39",
                "AT" => "tel:+43",
                "BE" => "tel:+32",
                "LU" => "tel:+352",
                "NL" => "tel:+31",
                other => panic!("no prefix for {other}"),
            };
            for m in for_site(site.site_id).contact_methods {
                if m.href.starts_with("tel:") {
                    assert!(
                        m.href.starts_with(prefix),
                        "site {}: {}",
                        site.site_id,
                        m.href
                    );
                }
            }
        }
        assert_eq!(for_site(1).contact_methods.len(), 3);
    }
}
