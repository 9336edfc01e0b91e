//! A form refused without scripts comes back filled in with its messages. The form target
//! keeps what was typed for five minutes in an HttpOnly cookie scoped to the page (not in
//! the address, where personal data would reach histories and logs), and the page reads it
//! when the redirect says `?retry=1`. One codec for every such form; each form says what
//! its draft holds (`FormDraft`). Passwords are never kept.
use serde::de::DeserializeOwned;
use serde::Serialize;

/// How long a refused form is kept for the page to show it again.
pub const MAX_AGE_SECS: i64 = 300;

/// What a form keeps of a refused post.
pub trait FormDraft: Serialize + DeserializeOwned {
    /// The cookie's name.
    const COOKIE: &'static str;

    /// What may go into the cookie: values cut to what the form accepts, so the cookie stays
    /// small whatever was posted.
    fn trimmed(&self) -> Self;

    /// What a page may show of a cookie, whatever it says: messages of this form only.
    fn checked(self) -> Self;
}

/// As a cookie value: JSON, percent-encoded (cookie-safe).
pub fn encode<D: FormDraft>(d: &D) -> String {
    crate::routes::encode_query_value(&serde_json::to_string(&d.trimmed()).unwrap_or_default())
}

pub fn decode<D: FormDraft>(value: &str) -> Option<D> {
    let json = percent_decode(value)?;
    serde_json::from_str::<D>(&json).ok().map(D::checked)
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Whether a page's query says it was reached by a refused post (`retry=1`): it then shows
/// the draft. Pages that do are rendered for the request, never from a shared template.
pub fn is_retry(query: Option<&str>) -> bool {
    query.is_some_and(|q| q.split('&').any(|p| p == "retry=1"))
}

/// The draft of this request, when the page was reached by a refused post.
pub fn read<D: FormDraft>() -> Option<D> {
    #[cfg(feature = "ssr")]
    {
        use leptos::prelude::use_context;
        let parts = use_context::<axum::http::request::Parts>()?;
        if !is_retry(parts.uri.query()) {
            return None;
        }
        parts
            .headers
            .get_all(axum::http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().strip_prefix(D::COOKIE)?.strip_prefix('='))
            .find_map(decode::<D>)
    }
    #[cfg(not(feature = "ssr"))]
    None
}

/// A string cut to `n` characters.
pub fn cut(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// The start of `s` that takes at most `budget` bytes once in the cookie: what [`encode`]
/// makes of it (unreserved ASCII as is, else 3 per UTF-8 byte; JSON's escapes counted as
/// 6). A draft's fields share the 4 KB a browser keeps of a cookie.
pub fn cut_encoded(s: &str, budget: usize) -> String {
    let mut used = 0;
    s.chars()
        .take_while(|c| {
            used += match c {
                'A'..='Z' | 'a'..='z' | '0'..='9' | '-' | '_' | '.' | '~' => 1,
                '"' | '\\' | '\n' | '\r' | '\t' => 6,
                c => 3 * c.len_utf8(),
            };
            used <= budget
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, serde::Deserialize, Debug, PartialEq, Clone)]
    struct Note {
        text: String,
        errors: Vec<String>,
    }

    impl FormDraft for Note {
        const COOKIE: &'static str = "note";
        fn trimmed(&self) -> Self {
            Note {
                text: cut(&self.text, 10),
                errors: self.errors.clone(),
            }
        }
        fn checked(mut self) -> Self {
            self.errors.retain(|k| k.starts_with("note."));
            self
        }
    }

    #[test]
    fn a_draft_round_trips_cookie_safe_cut_and_checked() {
        let d = Note {
            text: "Zoé; Γιώργος 🌹, and more".into(),
            errors: vec!["note.empty".into(), "<script>".into()],
        };
        let encoded = encode(&d);
        assert!(!encoded.contains(';') && !encoded.contains(' ') && !encoded.contains(','));
        let back: Note = decode(&encoded).unwrap();
        assert_eq!(back.text, "Zoé; Γιώργ");
        assert_eq!(back.errors, ["note.empty"]);
        assert_eq!(decode::<Note>("%zz"), None);
        assert_eq!(decode::<Note>("%e2%82"), None, "not UTF-8");
        assert_eq!(decode::<Note>("not json"), None);
    }

    #[test]
    fn only_a_retry_shows_a_draft() {
        assert!(is_retry(Some("retry=1")));
        assert!(is_retry(Some("site=2&retry=1")));
        assert!(!is_retry(Some("retry=10")));
        assert!(!is_retry(None));
    }
}
