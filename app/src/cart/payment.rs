//! Payment providers. The shop talks to one through [`PaymentProvider`]; the built-in
//! sandbox accepts the test card 4242 4242 4242 4242 (and 4000 0000 0000 3220 after a slow
//! bank's 4 seconds), declines 4000 0000 0000 0002 and
//! refuses anything else as an invalid card. The idempotency key is the cart hash: a
//! provider answers the same authorization for the same key.
use std::future::Future;
use std::pin::Pin;

use super::rules::{sandbox_card, SandboxCard};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PaymentOutcome {
    Approved { reference: String },
    Declined,
    InvalidCard,
}

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub trait PaymentProvider: Send + Sync {
    fn name(&self) -> &'static str;
    /// Authorizes `amount` cents for the cart with this idempotency key.
    fn authorize<'a>(
        &'a self,
        idempotency_key: &'a str,
        amount: i64,
        card: Option<&'a str>,
    ) -> BoxFuture<'a, PaymentOutcome>;
    /// Cancels an authorization whose order could not be committed.
    fn void<'a>(&'a self, reference: &'a str) -> BoxFuture<'a, ()>;
    /// Keeps a card the provider approved, for the member's wallet: its token and last
    /// four digits (the shop never stores the number). `None`: the provider keeps no cards.
    fn save_card(&self, _card: &str) -> Option<SavedCard> {
        None
    }
}

/// A card kept by the provider: what the wallet lists and what a later payment would send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedCard {
    pub provider: &'static str,
    pub token: String,
    pub brand: String,
    pub last4: String,
}

/// How long the sandbox's slow test card (4000 0000 0000 3220) keeps the bank busy.
pub const SLOW_BANK: std::time::Duration = std::time::Duration::from_secs(4);

/// The built-in sandbox: no network, deterministic references.
pub struct Sandbox;

impl PaymentProvider for Sandbox {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    fn authorize<'a>(
        &'a self,
        idempotency_key: &'a str,
        _amount: i64,
        card: Option<&'a str>,
    ) -> BoxFuture<'a, PaymentOutcome> {
        Box::pin(async move {
            let kind = sandbox_card(card.unwrap_or(""));
            if kind == SandboxCard::SlowAccepted {
                tokio::time::sleep(SLOW_BANK).await;
            }
            match kind {
                SandboxCard::Accepted | SandboxCard::SlowAccepted => PaymentOutcome::Approved {
                    reference: format!("sbx_{}", &idempotency_key[..idempotency_key.len().min(24)]),
                },
                SandboxCard::Declined => PaymentOutcome::Declined,
                SandboxCard::Invalid => PaymentOutcome::InvalidCard,
            }
        })
    }

    fn void<'a>(&'a self, reference: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            tracing::info!(reference, "sandbox authorization voided");
        })
    }

    /// The sandbox's token is a hash of the number: the same card saved twice is one
    /// wallet entry. (A real provider answers an opaque token from its vault.)
    fn save_card(&self, card: &str) -> Option<SavedCard> {
        let digits: String = card.chars().filter(char::is_ascii_digit).collect();
        if !matches!(
            sandbox_card(&digits),
            SandboxCard::Accepted | SandboxCard::SlowAccepted
        ) {
            return None;
        }
        Some(SavedCard {
            provider: self.name(),
            token: format!(
                "sbx_card_{}",
                &crate::platform::session::hash_token(&format!("sandbox-card:{digits}"))[..24]
            ),
            brand: "VISA".into(),
            last4: digits[digits.len() - 4..].to_string(),
        })
    }
}
