//! The sponsorship rules: the shape of a personal code, which registration parameter names
//! the sponsor, who may sponsor whom, the share link, and the reward after the sponsored
//! member's first paid order. Pure code, compiled for both targets.

/// Letters and digits of a code, without the look-alikes (0/O, 1/I/L).
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Characters in a personal code.
pub const CODE_LEN: usize = 8;
/// The reward, in the site currency's minor unit (10,00 € or £10.00).
pub const REWARD_VALUE: i64 = 1000;
/// Smallest first order (minor units, after discounts) that earns the sponsor a reward.
pub const REWARD_MIN_ORDER: i64 = 2000;
/// How long a reward voucher may be used.
pub const REWARD_VALID_SECS: i64 = 90 * 24 * 3600;

/// A code as typed (spaces around, lower case) in its stored form, or `None` when it
/// cannot be a code at all (no database look-up for it).
pub fn normalize_code(raw: &str) -> Option<String> {
    let code = raw.trim().to_ascii_uppercase();
    (code.len() == CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b))).then_some(code)
}

/// A new code from `CODE_LEN` random bytes (each byte picks a character).
pub fn code_from_bytes(bytes: &[u8; CODE_LEN]) -> String {
    bytes
        .iter()
        .map(|b| CODE_ALPHABET[usize::from(*b) % CODE_ALPHABET.len()] as char)
        .collect()
}

/// Which sponsor a registration names: the code (`mgmcode`, or the sponsorship field)
/// first; the sponsor's member id (`godfatherid`) only when no code was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SponsorRef {
    Code(String),
    MemberId(i64),
    None,
}

pub fn sponsor_ref(code: &str, godfather_id: &str) -> SponsorRef {
    if !code.trim().is_empty() {
        return match normalize_code(code) {
            Some(c) => SponsorRef::Code(c),
            None => SponsorRef::None,
        };
    }
    match godfather_id.trim().parse::<i64>() {
        Ok(id) if id > 0 => SponsorRef::MemberId(id),
        _ => SponsorRef::None,
    }
}

/// One side of a sponsorship.
#[derive(Clone, Debug)]
pub struct Party<'a> {
    pub member_id: i64,
    pub site_id: i64,
    pub email: &'a str,
}

/// An address's owner as far as sponsoring goes: the local part without its `+tag`
/// (`ana+2@x.fr` is `ana@x.fr`), case folded.
fn mailbox(email: &str) -> String {
    let email = email.trim().to_ascii_lowercase();
    match email.split_once('@') {
        Some((local, domain)) => {
            let local = local.split('+').next().unwrap_or(local);
            format!("{local}@{domain}")
        }
        None => email,
    }
}

/// Whether `sponsor` may sponsor `sponsored`: not oneself (same member, or the same
/// mailbox under a `+tag`), and only on the same site (accounts are per site).
pub fn may_sponsor(sponsor: &Party, sponsored: &Party) -> bool {
    sponsor.member_id != sponsored.member_id
        && sponsor.site_id == sponsored.site_id
        && mailbox(sponsor.email) != mailbox(sponsored.email)
}

/// The registration address a sponsor shares (path and query; the site's origin goes in
/// front): it pre-fills the code and names the sponsor.
pub fn share_path(code: &str, sponsor_id: i64) -> String {
    format!("/gr/registration?mgmcode={code}&godfatherid={sponsor_id}")
}

/// The voucher a sponsor earns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reward {
    pub value: i64,
    pub valid_until: i64,
}

/// What is known of a paid order when the reward is decided.
#[derive(Clone, Copy, Debug)]
pub struct PaidOrder {
    /// Total paid, in minor units.
    pub total: i64,
    /// The sponsored member's other orders (paid before this one).
    pub earlier_orders: i64,
    /// The sponsorship was rewarded already.
    pub rewarded: bool,
    pub now: i64,
}

/// The reward for a sponsored member's paid order: only for their first order, only once
/// per sponsorship, and only for an order of at least `REWARD_MIN_ORDER`.
pub fn reward_for(order: PaidOrder) -> Option<Reward> {
    (!order.rewarded && order.earlier_orders == 0 && order.total >= REWARD_MIN_ORDER).then_some(
        Reward {
            value: REWARD_VALUE,
            valid_until: order.now + REWARD_VALID_SECS,
        },
    )
}

/// The reward voucher's code: a readable prefix and a random part (`code_from_bytes`).
pub fn reward_code(random: &str) -> String {
    format!("PARRAIN-{random}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_normalized_or_refused() {
        assert_eq!(normalize_code(" abcd2345 "), Some("ABCD2345".into()));
        assert_eq!(normalize_code("ABCD234"), None);
        assert_eq!(normalize_code("ABCD23450"), None);
        // Look-alikes are not in the alphabet.
        assert_eq!(normalize_code("ABCD0123"), None);
        assert_eq!(normalize_code("ABC'2345"), None);
        assert_eq!(normalize_code(""), None);
    }

    #[test]
    fn generated_codes_are_valid() {
        for seed in 0..=255u8 {
            let code = code_from_bytes(&[seed; CODE_LEN]);
            assert_eq!(normalize_code(&code).as_deref(), Some(code.as_str()));
        }
    }

    #[test]
    fn the_code_wins_over_the_godfather_id() {
        assert_eq!(
            sponsor_ref("abcd2345", "12"),
            SponsorRef::Code("ABCD2345".into())
        );
        assert_eq!(sponsor_ref("", "12"), SponsorRef::MemberId(12));
        assert_eq!(sponsor_ref(" ", " 7 "), SponsorRef::MemberId(7));
        // A code that cannot be one names nobody (the id is not tried instead).
        assert_eq!(sponsor_ref("nope", "12"), SponsorRef::None);
        assert_eq!(sponsor_ref("", "-3"), SponsorRef::None);
        assert_eq!(sponsor_ref("", "x"), SponsorRef::None);
        assert_eq!(sponsor_ref("", ""), SponsorRef::None);
    }

    fn party(member_id: i64, site_id: i64, email: &str) -> Party<'_> {
        Party {
            member_id,
            site_id,
            email,
        }
    }

    #[test]
    fn nobody_sponsors_themselves() {
        let a = party(1, 1, "ana@example.fr");
        assert!(may_sponsor(&a, &party(2, 1, "bob@example.fr")));
        assert!(!may_sponsor(&a, &party(1, 1, "other@example.fr")));
        assert!(!may_sponsor(&a, &party(2, 1, "ANA@example.fr")));
        assert!(!may_sponsor(&a, &party(2, 1, "ana+parrain@example.fr")));
        // Another site's member cannot be sponsored from here.
        assert!(!may_sponsor(&a, &party(2, 4, "bob@example.fr")));
    }

    #[test]
    fn the_share_link_prefills_both_parameters() {
        assert_eq!(
            share_path("ABCD2345", 42),
            "/gr/registration?mgmcode=ABCD2345&godfatherid=42"
        );
    }

    fn order(total: i64, earlier_orders: i64, rewarded: bool) -> PaidOrder {
        PaidOrder {
            total,
            earlier_orders,
            rewarded,
            now: 1_000,
        }
    }

    #[test]
    fn the_first_order_earns_one_reward() {
        assert_eq!(
            reward_for(order(2000, 0, false)),
            Some(Reward {
                value: REWARD_VALUE,
                valid_until: 1_000 + REWARD_VALID_SECS
            })
        );
        assert_eq!(reward_for(order(1999, 0, false)), None);
        assert_eq!(reward_for(order(5000, 1, false)), None);
        assert_eq!(reward_for(order(5000, 0, true)), None);
    }

    #[test]
    fn reward_codes_have_a_prefix() {
        assert_eq!(reward_code("ABCD2345"), "PARRAIN-ABCD2345");
    }
}
