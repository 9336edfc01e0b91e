//! The sandbox payment provider's card numbers.

// ------------------------------------------------------------------ sandbox payment

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SandboxCard {
    Accepted,
    /// Accepted after the bank takes its time (as a 3-D Secure check would): shows what
    /// members see while checkouts are at capacity.
    SlowAccepted,
    Declined,
    Invalid,
}

/// Sandbox test cards: 4242 4242 4242 4242 is accepted, 4000 0000 0000 0002 declined,
/// anything else is not a valid card. Spaces and dashes are ignored.
pub fn sandbox_card(card: &str) -> SandboxCard {
    let digits: String = card.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    match digits.as_str() {
        "4242424242424242" => SandboxCard::Accepted,
        "4000000000003220" => SandboxCard::SlowAccepted,
        "4000000000000002" => SandboxCard::Declined,
        _ => SandboxCard::Invalid,
    }
}
