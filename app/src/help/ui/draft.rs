//! What a refused contact form keeps without scripts (`ui::draft` is the codec): the
//! message. Its subject, order and sale come back in the address (no personal data), the
//! message in the draft cookie; a script keeps what was typed by itself.
use crate::ui::draft::FormDraft;

/// A cookie stays under the 4 KB browsers keep: the message is cut to what fits once
/// percent-encoded (a Latin message of 3,000 characters, a Japanese one of 330).
const ENCODED_MAX: usize = 3_000;

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Draft {
    pub body: String,
}

impl FormDraft for Draft {
    const COOKIE: &'static str = "rosace_help_form";

    fn trimmed(&self) -> Self {
        Draft {
            body: crate::ui::draft::cut_encoded(&self.body, ENCODED_MAX),
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
    fn a_message_round_trips_and_stays_within_a_cookie() {
        let d = Draft {
            body: "Où est ma commande ? \"Ζήτω\"; 你好\nMerci".into(),
        };
        let encoded = crate::ui::draft::encode(&d);
        assert!(!encoded.contains(';') && !encoded.contains(' ') && !encoded.contains(','));
        assert_eq!(crate::ui::draft::decode::<Draft>(&encoded), Some(d));
        for long in ["a".repeat(4_000), "é".repeat(4_000), "你".repeat(4_000)] {
            let encoded = crate::ui::draft::encode(&Draft { body: long.clone() });
            // The message, and `{"body":""}` around it (encoded, 25 more).
            assert!(encoded.len() <= ENCODED_MAX + 25, "{}", encoded.len());
            let back = crate::ui::draft::decode::<Draft>(&encoded).unwrap();
            assert!(long.starts_with(&back.body) && back.body.chars().count() > 300);
        }
    }
}
