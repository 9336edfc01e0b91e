//! The operators' second factor: RFC 6238 time-based codes (SHA-1, 6 digits, 30 s steps,
//! what every authenticator app reads from an `otpauth://` link), computed by `totp-rs`,
//! and one-use recovery codes. A code is accepted for the step before, the current one and
//! the one after (clock drift), and never twice: the operator row keeps the last step used.
use rand::RngCore;
use totp_rs::{Algorithm, Secret, TOTP};

pub const STEP_SECS: u64 = 30;
pub const RECOVERY_CODES: usize = 10;

/// A fresh secret of 160 bits, base32 as authenticator apps take it.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 20];
    rand::thread_rng().fill_bytes(&mut bytes);
    Secret::Raw(bytes.to_vec()).to_encoded().to_string()
}

fn totp(secret_b32: &str) -> Option<TOTP> {
    let bytes = Secret::Encoded(secret_b32.to_string()).to_bytes().ok()?;
    TOTP::new(Algorithm::SHA1, 6, 0, STEP_SECS, bytes).ok()
}

/// The code of `secret_b32` at `unix_secs` (the end-to-end tests and the demo use it).
pub fn code_at(secret_b32: &str, unix_secs: u64) -> Option<String> {
    Some(totp(secret_b32)?.generate(unix_secs))
}

/// The step `code` belongs to, if it is the code of the step before, now or after and
/// that step is later than `last_step` (a code is good once).
pub fn matching_step(secret_b32: &str, code: &str, now_secs: u64, last_step: u64) -> Option<u64> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let totp = totp(secret_b32)?;
    let now_step = now_secs / STEP_SECS;
    [now_step.saturating_sub(1), now_step, now_step + 1]
        .into_iter()
        .filter(|step| *step > last_step)
        .find(|step| constant_time_eq(totp.generate(step * STEP_SECS).as_bytes(), code.as_bytes()))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The link an authenticator app reads (typed in, or from the QR code an operator's phone
/// makes of it): issuer and account are percent-encoded.
pub fn otpauth_uri(secret_b32: &str, email: &str) -> String {
    let enc = |s: &str| -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    format!(
        "otpauth://totp/Rosace%20back%20office:{}?secret={secret_b32}&issuer=Rosace%20back%20office&algorithm=SHA1&digits=6&period={STEP_SECS}",
        enc(email)
    )
}

/// Ten recovery codes of 10 characters (about 50 bits each), in groups of five for reading.
pub fn new_recovery_codes() -> Vec<String> {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    (0..RECOVERY_CODES)
        .map(|_| {
            let raw: String = (0..10)
                .map(|_| ALPHABET[(rng.next_u32() as usize) % ALPHABET.len()] as char)
                .collect();
            format!("{}-{}", &raw[..5], &raw[5..])
        })
        .collect()
}

/// A recovery code as typed (any case, spaces or a dash) in the form it is stored hashed.
pub fn normalise_recovery_code(typed: &str) -> String {
    let raw: String = typed
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if raw.len() == 10 {
        format!("{}-{}", &raw[..5], &raw[5..])
    } else {
        raw
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238 appendix B, SHA-1 (8 digits there; the last 6 of them here).
    #[test]
    fn codes_follow_rfc_6238() {
        let secret = Secret::Raw(b"12345678901234567890".to_vec())
            .to_encoded()
            .to_string();
        assert_eq!(code_at(&secret, 59).unwrap(), "287082");
        assert_eq!(code_at(&secret, 1_111_111_109).unwrap(), "081804");
        assert_eq!(code_at(&secret, 2_000_000_000).unwrap(), "279037");
    }

    #[test]
    fn a_code_is_good_for_one_step_of_drift_and_once() {
        let secret = new_secret();
        let now = 1_800_000_000;
        let code = code_at(&secret, now).unwrap();
        let step = now / STEP_SECS;
        assert_eq!(matching_step(&secret, &code, now, 0), Some(step));
        assert_eq!(matching_step(&secret, &code, now + 30, 0), Some(step));
        assert_eq!(matching_step(&secret, &code, now, step), None, "replayed");
        assert_eq!(matching_step(&secret, &code, now + 90, 0), None, "too old");
        assert_eq!(matching_step(&secret, "12345", now, 0), None);
        assert_eq!(matching_step(&secret, "abcdef", now, 0), None);
        let spaced = format!("{} {}", &code[..3], &code[3..]);
        assert_eq!(matching_step(&secret, &spaced, now, 0), Some(step));
    }

    #[test]
    fn recovery_codes_are_distinct_and_read_back_as_typed() {
        let codes = new_recovery_codes();
        assert_eq!(codes.len(), RECOVERY_CODES);
        let set: std::collections::BTreeSet<_> = codes.iter().collect();
        assert_eq!(set.len(), RECOVERY_CODES);
        let typed = codes[0].to_uppercase().replace('-', " ");
        assert_eq!(normalise_recovery_code(&typed), codes[0]);
    }

    #[test]
    fn the_otpauth_link_escapes_the_account() {
        let uri = otpauth_uri("JBSWY3DPEHPK3PXP", "a+b@x.test");
        assert!(
            uri.contains(":a%2Bb%40x.test?secret=JBSWY3DPEHPK3PXP&"),
            "{uri}"
        );
    }
}
