//! Encryption at rest of the IBAN: XChaCha20-Poly1305 with a 256-bit key that never sits
//! in the database. The key comes from `ROSACE_WALLET_KEY` (64 hex digits; every instance
//! behind a load balancer must get the same one), else from `wallet.key` in the data
//! directory, made on the first start so a restart can still read what it stored.
//! The associated data binds a ciphertext to its member and row: a sealed IBAN copied
//! onto another member's row does not open.
use std::path::Path;

use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};

pub const KEY_ENV: &str = "ROSACE_WALLET_KEY";
pub const KEY_FILE: &str = "wallet.key";

#[derive(Clone, PartialEq, Eq)]
pub struct WalletKey(Option<[u8; 32]>);

// Settings are printed in debug logs; the key is not.
impl std::fmt::Debug for WalletKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "WalletKey(set)"
        } else {
            "WalletKey(unset)"
        })
    }
}

impl Default for WalletKey {
    fn default() -> Self {
        WalletKey::unset()
    }
}

fn from_hex(text: &str) -> Option<[u8; 32]> {
    let text = text.trim();
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(key)
}

impl WalletKey {
    /// No key yet: start-up replaces it (see [`WalletKey::or_from_data_dir`]).
    pub fn unset() -> WalletKey {
        WalletKey(None)
    }

    pub fn is_set(&self) -> bool {
        self.0.is_some()
    }

    /// A key written as 64 hex digits.
    pub fn from_text(text: &str) -> Result<WalletKey, String> {
        from_hex(text)
            .map(|k| WalletKey(Some(k)))
            .ok_or_else(|| format!("{KEY_ENV}: expected 64 hex digits (32 bytes)"))
    }

    /// This key if set, else the data directory's `wallet.key`, made (readable by the
    /// owner only) when missing.
    pub fn or_from_data_dir(self, data_dir: &str) -> Result<WalletKey, String> {
        if self.is_set() {
            return Ok(self);
        }
        let path = Path::new(data_dir).join(KEY_FILE);
        if let Ok(text) = std::fs::read_to_string(&path) {
            return from_hex(&text)
                .map(|k| WalletKey(Some(k)))
                .ok_or_else(|| format!("{}: not 64 hex digits", path.display()));
        }
        let key: [u8; 32] = XChaCha20Poly1305::generate_key(&mut OsRng).into();
        std::fs::create_dir_all(data_dir).map_err(|e| format!("{data_dir}: {e}"))?;
        write_private(&path, &crate::platform::session::hex(&key))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        tracing::warn!(
            path = %path.display(),
            "made a wallet key in the data directory; set {KEY_ENV} when several instances share a database"
        );
        Ok(WalletKey(Some(key)))
    }

    fn cipher(&self) -> Option<XChaCha20Poly1305> {
        self.0.map(|k| XChaCha20Poly1305::new(&k.into()))
    }

    /// Seals `plain` for the row `aad` names: (nonce, ciphertext with its tag).
    pub fn seal(&self, plain: &[u8], aad: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
        let cipher = self.cipher()?;
        let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
        let sealed = cipher.encrypt(&nonce, Payload { msg: plain, aad }).ok()?;
        Some((nonce.to_vec(), sealed))
    }

    /// Opens what [`WalletKey::seal`] made for the same `aad`; `None` when the key, the
    /// row or the bytes differ.
    pub fn open(&self, nonce: &[u8], sealed: &[u8], aad: &[u8]) -> Option<Vec<u8>> {
        if nonce.len() != 24 {
            return None;
        }
        self.cipher()?
            .decrypt(XNonce::from_slice(nonce), Payload { msg: sealed, aad })
            .ok()
    }
}

#[cfg(unix)]
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(text.as_bytes())
}

#[cfg(not(unix))]
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_ibans_open_only_with_their_key_and_row() {
        let key = WalletKey::from_text(&"ab".repeat(32)).unwrap();
        let (nonce, sealed) = key.seal(b"DE89370400440532013000", b"7:g1").unwrap();
        assert!(!sealed.windows(8).any(|w| w == b"37040044"));
        assert_eq!(
            key.open(&nonce, &sealed, b"7:g1").unwrap(),
            b"DE89370400440532013000"
        );
        assert_eq!(key.open(&nonce, &sealed, b"8:g1"), None);
        let other = WalletKey::from_text(&"cd".repeat(32)).unwrap();
        assert_eq!(other.open(&nonce, &sealed, b"7:g1"), None);
        // A fresh nonce every time: the same IBAN never seals to the same bytes.
        assert_ne!(key.seal(b"x", b"a").unwrap(), key.seal(b"x", b"a").unwrap());
        assert_eq!(WalletKey::unset().seal(b"x", b"a"), None);
    }

    #[test]
    fn keys_come_from_hex_or_the_data_dir() {
        assert!(WalletKey::from_text("short").is_err());
        assert!(WalletKey::from_text(&"zz".repeat(32)).is_err());
        assert!(WalletKey::from_text(&"é".repeat(32)).is_err());
        let dir = std::env::temp_dir().join(format!("wallet-key-{}", rand::random::<u32>()));
        let dir = dir.to_str().unwrap();
        let made = WalletKey::unset().or_from_data_dir(dir).unwrap();
        let again = WalletKey::unset().or_from_data_dir(dir).unwrap();
        assert!(made.is_set());
        assert_eq!(made, again);
        let given = WalletKey::from_text(&"01".repeat(32)).unwrap();
        assert_eq!(given.clone().or_from_data_dir(dir).unwrap(), given);
        assert!(!format!("{made:?}").contains(&crate::platform::session::hex(&made.0.unwrap())));
        let _ = std::fs::remove_dir_all(dir);
    }
}
