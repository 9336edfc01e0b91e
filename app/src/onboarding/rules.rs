//! Onboarding rules (spec 000 §3 "Popin", §4 "Popins", §6): which popin a member sees next,
//! the cookie-consent categories, and the banners.
use serde::{Deserialize, Serialize};

/// Onboarding steps with the spec's numbering (welcome 0, personalisation 1, birthdate 2,
/// adot 4, terms and conditions 5, optin 6). Adot is the bottom banner, not a modal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PopinType {
    Welcome = 0,
    Personalisation = 1,
    Birthdate = 2,
    Adot = 4,
    TermsAndConditions = 5,
    Optin = 6,
    /// A home's overlay for members who joined less than a week ago (spec 000 §3
    /// newMemberOverlay): answered once, like a popin, but shown by the home itself.
    NewMember = 7,
}

impl PopinType {
    pub fn from_code(code: i64) -> Option<PopinType> {
        Some(match code {
            0 => PopinType::Welcome,
            1 => PopinType::Personalisation,
            2 => PopinType::Birthdate,
            4 => PopinType::Adot,
            5 => PopinType::TermsAndConditions,
            6 => PopinType::Optin,
            7 => PopinType::NewMember,
            _ => return None,
        })
    }
    pub fn key(self) -> &'static str {
        match self {
            PopinType::Welcome => "welcome",
            PopinType::Personalisation => "personalisation",
            PopinType::Birthdate => "birthdate",
            PopinType::Adot => "adot",
            PopinType::TermsAndConditions => "terms",
            PopinType::Optin => "optin",
            PopinType::NewMember => "new_member",
        }
    }
}

/// Onboarding reward kinds (spec 000 §3): the welcome voucher 1, the email opt-in 2, the
/// CRM (personalised offers) opt-in 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RewardKind {
    Voucher = 1,
    OptinEmail = 2,
    OptinCrm = 3,
}

/// What a popin gives: a personal voucher of `value` cents off the products, valid
/// `valid_days` from the answer, once per member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reward {
    pub kind: RewardKind,
    pub value: i64,
    pub valid_days: i64,
}

impl RewardKind {
    /// The voucher code's prefix (language-neutral: members type codes on any site).
    pub fn code_prefix(self) -> &'static str {
        match self {
            RewardKind::Voucher => "WELCOME",
            RewardKind::OptinEmail => "NEWS",
            RewardKind::OptinCrm => "FORYOU",
        }
    }
}

/// The reward a popin announces (spec 000 §3 `voucherData`, the opt-ins' rewards): the
/// welcome voucher, and a voucher for each opt-in.
pub fn reward_of(kind: PopinType) -> Option<Reward> {
    let (kind, value, valid_days) = match kind {
        PopinType::Welcome => (RewardKind::Voucher, 1000, 30),
        PopinType::Optin => (RewardKind::OptinEmail, 500, 30),
        PopinType::Personalisation => (RewardKind::OptinCrm, 500, 30),
        _ => return None,
    };
    Some(Reward {
        kind,
        value,
        valid_days,
    })
}

/// The reward an answer earns: the welcome voucher whatever the answer (it is a welcome,
/// not a deal), an opt-in's only when the member accepts.
pub fn reward_for(kind: PopinType, accepted: bool) -> Option<Reward> {
    reward_of(kind).filter(|r| accepted || r.kind == RewardKind::Voucher)
}

/// The picture a popin shows (spec 000 §3 `emailOptinData.imageUrl`, `crmOptinData.imageUrl`,
/// and the welcome's gift), drawn by the server (`server/src/serve/images.rs`).
pub fn popin_image(kind: PopinType) -> Option<&'static str> {
    match kind {
        PopinType::Welcome => Some("/img/popin/welcome.svg"),
        PopinType::Optin => Some("/img/popin/optin.svg"),
        PopinType::Personalisation => Some("/img/popin/personalisation.svg"),
        _ => None,
    }
}

/// The version of the general conditions of sale in force: what a registration accepts,
/// and what checkout asks a member who accepted an older one to accept.
pub const TERMS_VERSION: i64 = 2;

/// Current version of each modal popin; raising one shows it again to everyone.
pub const MODAL_POPINS: [(PopinType, i64); 5] = [
    (PopinType::Welcome, 1),
    (PopinType::Personalisation, 1),
    (PopinType::Birthdate, 1),
    (PopinType::TermsAndConditions, TERMS_VERSION),
    (PopinType::Optin, 1),
];

/// The version of a modal popin a member can answer: the current one (review L4: an
/// answer to a future terms version would hide the next terms and let checkout through).
/// `None` for a type that is no modal popin (the data-partner banner has its own call).
pub fn current_version(kind: PopinType) -> Option<i64> {
    MODAL_POPINS
        .iter()
        .chain([&NEW_MEMBER_OVERLAY])
        .find(|(k, _)| *k == kind)
        .map(|(_, version)| *version)
}

/// The new-member overlay's type and version (not a modal popin: [`next_popin`] never
/// gives it; the home shows it, [`shows_new_member_overlay`]).
pub const NEW_MEMBER_OVERLAY: (PopinType, i64) = (PopinType::NewMember, 1);

/// Whether a member is shown a home's new-member overlay: they joined less than
/// [`crate::home::rules::NEW_MEMBER_DAYS`] ago and have not closed it yet. The page view
/// puts it after its popin and the advertising banner (one interruption per view:
/// `OnboardingView::new_member_overlay`).
pub fn shows_new_member_overlay(m: &MemberOnboarding, now: i64) -> bool {
    let (kind, version) = NEW_MEMBER_OVERLAY;
    now - m.registered_at < crate::home::rules::NEW_MEMBER_DAYS * 86_400
        && !m.answered.contains(&(kind as i64, version))
}

/// What the server knows of a member for onboarding.
#[derive(Clone, Debug, Default)]
pub struct MemberOnboarding {
    /// (popin type code, version) already answered.
    pub answered: Vec<(i64, i64)>,
    pub has_birth_date: bool,
    pub perso_gdpr: bool,
    pub optin_email: bool,
    pub terms_version: i64,
    pub adot_answered: bool,
    /// When the member joined (`members.created_at`).
    pub registered_at: i64,
}

/// The next modal popin, in the spec's order, each once per member and version; popins
/// whose question is already answered in the profile are skipped.
pub fn next_popin(m: &MemberOnboarding) -> Option<(PopinType, i64)> {
    MODAL_POPINS.iter().copied().find(|(kind, version)| {
        let seen = m.answered.contains(&(*kind as i64, *version));
        let relevant = match kind {
            PopinType::Birthdate => !m.has_birth_date,
            PopinType::Personalisation => !m.perso_gdpr,
            PopinType::TermsAndConditions => m.terms_version < *version,
            PopinType::Optin => !m.optin_email,
            _ => true,
        };
        !seen && relevant
    })
}

/// Set by answering a popin, cleared by the page view it returns to, which shows no popin
/// nor banner: at most one popin per page view (after a first sign-in five came one after
/// the other, each answer bringing the next, before the member saw the page they came for).
pub const POPIN_REST_COOKIE: &str = "popinRest";

/// The data-partner banner shows until the member accepts or closes it, and never while
/// a modal popin is open.
pub fn show_adot_banner(m: &MemberOnboarding) -> bool {
    !m.adot_answered && next_popin(m).is_none()
}

/// Cookie-consent categories (spec 000 §3).
pub const CONSENT_CATEGORIES: [&str; 5] = ["C0001", "C0002", "C0003", "C0004", "C0005"];
pub const CONSENT_COOKIE: &str = "OptanonConsent";
pub const APP_BANNER_COOKIE: &str = "appDownloadBannerClosed";
pub const MONTH_SECS: i64 = 30 * 86_400;

/// Parses `groups=C0001:1,C0002:0,...` (an entry `id:1` means accepted). C0001 (mandatory)
/// is always accepted. `None` when the visitor has not answered yet.
pub fn parse_consent(cookie: Option<&str>) -> Option<Vec<(String, bool)>> {
    let raw = cookie?;
    let decoded = raw
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%3D", "=");
    let groups = decoded.split('&').find_map(|p| p.strip_prefix("groups="))?;
    let mut out: Vec<(String, bool)> = CONSENT_CATEGORIES
        .iter()
        .map(|c| (c.to_string(), *c == "C0001"))
        .collect();
    for entry in groups.split(',') {
        if let Some((id, v)) = entry.split_once(':') {
            if let Some(slot) = out.iter_mut().find(|(c, _)| c == id) {
                slot.1 = slot.0 == "C0001" || v == "1";
            }
        }
    }
    Some(out)
}

pub fn consent_cookie_value(accepted: &[&str]) -> String {
    let groups: Vec<String> = CONSENT_CATEGORIES
        .iter()
        .map(|c| format!("{c}:{}", u8::from(*c == "C0001" || accepted.contains(c))))
        .collect();
    format!("groups={}", groups.join(","))
}

pub fn consent_accepted(consent: &Option<Vec<(String, bool)>>, category: &str) -> bool {
    consent
        .as_ref()
        .is_some_and(|c| c.iter().any(|(id, ok)| id == category && *ok))
}

/// Phones and tablets, from the user agent (the banner only makes sense there).
pub fn is_mobile_user_agent(ua: &str) -> bool {
    let ua = ua.to_ascii_lowercase();
    ["iphone", "android", "mobile", "ipad"]
        .iter()
        .any(|k| ua.contains(k))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_new_member_overlay_is_for_a_week_and_once() {
        let now = 1_800_000_000;
        let mut m = MemberOnboarding {
            registered_at: now - 6 * 86_400,
            ..Default::default()
        };
        assert!(shows_new_member_overlay(&m, now));
        m.registered_at = now - 7 * 86_400;
        assert!(!shows_new_member_overlay(&m, now));
        m.registered_at = now - 60;
        m.answered.push((PopinType::NewMember as i64, 1));
        assert!(!shows_new_member_overlay(&m, now));
        // It is no modal popin: the popin sequence never gives it.
        assert!(MODAL_POPINS.iter().all(|(k, _)| *k != PopinType::NewMember));
        assert_eq!(current_version(PopinType::NewMember), Some(1));
    }

    use super::*;

    #[test]
    fn popins_come_in_order_once_per_version() {
        let mut m = MemberOnboarding::default();
        assert_eq!(next_popin(&m), Some((PopinType::Welcome, 1)));
        m.answered.push((0, 1));
        assert_eq!(next_popin(&m), Some((PopinType::Personalisation, 1)));
        m.answered.push((1, 1));
        assert_eq!(next_popin(&m), Some((PopinType::Birthdate, 1)));
        m.has_birth_date = true;
        assert_eq!(next_popin(&m), Some((PopinType::TermsAndConditions, 2)));
        // Terms accepted in an older version only: still asked.
        m.answered.push((5, 1));
        assert_eq!(next_popin(&m), Some((PopinType::TermsAndConditions, 2)));
        m.answered.push((5, 2));
        assert_eq!(next_popin(&m), Some((PopinType::Optin, 1)));
        assert!(!show_adot_banner(&m));
        m.answered.push((6, 1));
        assert_eq!(next_popin(&m), None);
        assert!(show_adot_banner(&m));
        m.adot_answered = true;
        assert!(!show_adot_banner(&m));
    }

    #[test]
    fn only_the_current_version_can_be_answered() {
        assert_eq!(current_version(PopinType::TermsAndConditions), Some(2));
        assert_eq!(current_version(PopinType::Welcome), Some(1));
        assert_eq!(current_version(PopinType::Adot), None);
    }

    #[test]
    fn answered_profile_questions_skip_their_popin() {
        let m = MemberOnboarding {
            answered: vec![(0, 1)],
            perso_gdpr: true,
            has_birth_date: true,
            terms_version: 2,
            optin_email: true,
            ..Default::default()
        };
        assert_eq!(next_popin(&m), None);
    }

    #[test]
    fn consent_cookie_round_trips_and_keeps_mandatory() {
        assert_eq!(parse_consent(None), None);
        let v = consent_cookie_value(&["C0003"]);
        assert_eq!(v, "groups=C0001:1,C0002:0,C0003:1,C0004:0,C0005:0");
        let parsed = parse_consent(Some(&v));
        assert!(consent_accepted(&parsed, "C0001"));
        assert!(consent_accepted(&parsed, "C0003"));
        assert!(!consent_accepted(&parsed, "C0002"));
        let refused = parse_consent(Some("groups=C0001:0,C0002:0"));
        assert!(
            consent_accepted(&refused, "C0001"),
            "mandatory cannot be refused"
        );
        let encoded = parse_consent(Some("isGpcEnabled=0&groups=C0001%3A1%2CC0002%3A1"));
        assert!(consent_accepted(&encoded, "C0002"));
        assert!(!consent_accepted(&None, "C0001"));
    }

    #[test]
    fn mobile_user_agents() {
        assert!(is_mobile_user_agent(
            "Mozilla/5.0 (Linux; Android 14; Pixel 7) Mobile Safari/537.36"
        ));
        assert!(is_mobile_user_agent(
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)"
        ));
        assert!(!is_mobile_user_agent(
            "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36"
        ));
    }

    #[test]
    fn the_welcome_voucher_comes_with_any_answer_an_opt_in_reward_with_a_yes() {
        let welcome = reward_for(PopinType::Welcome, false).unwrap();
        assert_eq!((welcome.kind, welcome.value), (RewardKind::Voucher, 1000));
        assert_eq!(reward_for(PopinType::Optin, false), None);
        assert_eq!(
            reward_for(PopinType::Optin, true).map(|r| r.kind),
            Some(RewardKind::OptinEmail)
        );
        assert_eq!(
            reward_for(PopinType::Personalisation, true).map(|r| r.kind),
            Some(RewardKind::OptinCrm)
        );
        assert_eq!(reward_for(PopinType::Birthdate, true), None);
        assert_eq!(reward_for(PopinType::TermsAndConditions, true), None);
        assert!(popin_image(PopinType::Optin).is_some());
        assert!(popin_image(PopinType::TermsAndConditions).is_none());
    }
}
