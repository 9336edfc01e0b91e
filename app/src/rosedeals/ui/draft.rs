//! What a refused refund form keeps without scripts (`ui::draft` is the codec): the address,
//! the bank number, the message and the two choices, never the password. The refusal itself
//! comes back in the address (`?form=&error=&field=`); a script keeps what was typed by
//! itself (`data-enhance-keep`).
use crate::rosedeals::model::DealAddress;
use crate::ui::draft::{cut_encoded, FormDraft};

/// Each address line's share of the 4 KB cookie once percent-encoded, and the message's.
const LINE_MAX: usize = 150;
const CONTENT_MAX: usize = 1_500;

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Draft {
    pub address: DealAddress,
    pub iban: String,
    pub content: String,
    pub store_iban: bool,
    pub is_suspended: bool,
}

impl Draft {
    /// The value of the form's field `name` (its `name` attribute).
    pub fn value(&self, name: &str) -> String {
        let a = &self.address;
        match name {
            "firstName" => &a.first_name,
            "lastName" => &a.last_name,
            "details" => &a.details,
            "extras" => &a.extras,
            "zipCode" => &a.zip_code,
            "city" => &a.city,
            "country" => &a.country,
            "iban" => &self.iban,
            "content" => &self.content,
            _ => "",
        }
        .to_string()
    }
}

impl FormDraft for Draft {
    const COOKIE: &'static str = "rosace_refund_form";

    fn trimmed(&self) -> Self {
        let line = |s: &str| cut_encoded(s, LINE_MAX);
        let a = &self.address;
        Draft {
            address: DealAddress {
                first_name: line(&a.first_name),
                last_name: line(&a.last_name),
                details: line(&a.details),
                extras: line(&a.extras),
                zip_code: line(&a.zip_code),
                city: line(&a.city),
                country: line(&a.country),
            },
            iban: line(&self.iban),
            content: cut_encoded(&self.content, CONTENT_MAX),
            store_iban: self.store_iban,
            is_suspended: self.is_suspended,
        }
    }

    fn checked(self) -> Self {
        self
    }
}

/// The draft of this request, when the form was reached by a refused post.
pub fn read() -> Draft {
    crate::ui::draft::read().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_refund_round_trips_and_stays_within_a_cookie() {
        let d = Draft {
            address: DealAddress {
                first_name: "Zoé".into(),
                last_name: "O'Neil".into(),
                city: "Łódź".into(),
                ..DealAddress::default()
            },
            iban: "FR76 3000 6000 0112 3456 7890 189".into(),
            content: "Merci ; \"vite\"\n你好".into(),
            store_iban: true,
            ..Draft::default()
        };
        let encoded = crate::ui::draft::encode(&d);
        assert!(!encoded.contains(';') && !encoded.contains(' '));
        assert_eq!(crate::ui::draft::decode::<Draft>(&encoded), Some(d));
        let long = |c: &str| c.repeat(2_000);
        let huge = Draft {
            address: DealAddress {
                first_name: long("你"),
                last_name: long("é"),
                details: long("a"),
                extras: long("\""),
                zip_code: long("9"),
                city: long("ł"),
                country: long("F"),
            },
            iban: long("1"),
            content: long("你"),
            store_iban: true,
            is_suspended: true,
        };
        let encoded = crate::ui::draft::encode(&huge);
        assert!(encoded.len() < 4_000, "{} bytes", encoded.len());
        let back = crate::ui::draft::decode::<Draft>(&encoded).unwrap();
        assert!(back.address.first_name.starts_with("你你") && back.content.starts_with("你你"));
        assert!(back.store_iban && back.is_suspended);
    }
}
