//! CSRF protection (spec 000 §9 XSRF-TOKEN / X-XSRF-TOKEN): a signed double-submit token
//! bound to the session. The cookie is readable by scripts, which echo it in the header;
//! forms that post without scripts carry it as the `_xsrf` field.
use blake2::digest::{KeyInit, Mac};
use blake2::Blake2sMac256;
use rand::RngCore;

use crate::platform::session::hex;

/// The cookie over plain HTTP (development, the end-to-end tests).
pub const COOKIE: &str = "XSRF-TOKEN";
/// The cookie over HTTPS: `__Host-` so that no sibling host or plain-HTTP page can set it.
pub const SECURE_COOKIE: &str = "__Host-XSRF-TOKEN";
pub const HEADER: &str = "x-xsrf-token";
pub const FORM_FIELD: &str = "_xsrf";

fn mac(secret: &[u8], nonce: &str, binding: &str) -> String {
    let mut m = <Blake2sMac256 as KeyInit>::new_from_slice(&secret[..secret.len().min(32)])
        .expect("key of 1..=32 bytes");
    m.update(nonce.as_bytes());
    m.update(b"|");
    m.update(binding.as_bytes());
    hex(&m.finalize().into_bytes())
}

/// A fresh token bound to `binding` (the session token hash, or the visitor's pre-session id).
pub fn issue(secret: &[u8], binding: &str) -> String {
    let mut nonce = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut nonce);
    let nonce = hex(&nonce);
    let sig = mac(secret, &nonce, binding);
    format!("{nonce}.{sig}")
}

/// The token was issued by us for this binding.
pub fn is_valid(secret: &[u8], binding: &str, token: &str) -> bool {
    let Some((nonce, sig)) = token.split_once('.') else {
        return false;
    };
    if nonce.len() != 32 || sig.len() != 64 {
        return false;
    }
    let expected = mac(secret, nonce, binding);
    // Constant-time comparison.
    expected
        .bytes()
        .zip(sig.bytes())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b))
        == 0
}

/// A state-changing request passes when the submitted token equals the cookie and is
/// valid for the caller's session.
pub fn check(secret: &[u8], binding: &str, cookie: Option<&str>, submitted: Option<&str>) -> bool {
    matches!((cookie, submitted), (Some(c), Some(s)) if !c.is_empty() && c == s && is_valid(secret, binding, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"0123456789abcdef0123456789abcdef";

    #[test]
    fn tokens_verify_only_for_their_binding_and_secret() {
        let t = issue(SECRET, "anon");
        assert!(is_valid(SECRET, "anon", &t));
        assert!(!is_valid(SECRET, "session-a", &t));
        assert!(!is_valid(b"another secret of thirty-two b!!", "anon", &t));
        assert!(check(SECRET, "anon", Some(&t), Some(&t)));
        assert!(!check(SECRET, "anon", Some(&t), None));
        assert!(!check(SECRET, "anon", Some(&t), Some("forged")));
        let forged = format!("{}.{}", "a".repeat(32), "b".repeat(64));
        assert!(!check(SECRET, "anon", Some(&forged), Some(&forged)));
    }
}
