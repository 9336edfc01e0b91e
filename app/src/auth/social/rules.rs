//! Social sign-in rules (spec 000 §3, §4): providers, registration types, the login result
//! codes of a third-party sign-in, and what a verified identity leads to. Pure.
use crate::auth::rules::{LoginResult, MemberStatus};

/// Login providers (spec 000 §3): Facebook 1, Apple 2, Google 3, Klarna 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Provider {
    Facebook = 1,
    Apple = 2,
    Google = 3,
    Klarna = 4,
}

impl Provider {
    pub const ALL: [Provider; 4] = [
        Provider::Facebook,
        Provider::Apple,
        Provider::Google,
        Provider::Klarna,
    ];
    /// The order of the buttons on the sign-in forms.
    pub const BUTTONS: [Provider; 4] = [
        Provider::Google,
        Provider::Facebook,
        Provider::Apple,
        Provider::Klarna,
    ];

    pub fn id(self) -> u8 {
        self as u8
    }

    pub fn from_id(id: i64) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| i64::from(p.id()) == id)
    }

    /// The name in paths, forms and environment variables (upper-cased there).
    pub fn slug(self) -> &'static str {
        match self {
            Provider::Facebook => "facebook",
            Provider::Apple => "apple",
            Provider::Google => "google",
            Provider::Klarna => "klarna",
        }
    }

    pub fn from_slug(s: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.slug() == s.trim())
    }

    /// Brand names are not translated.
    pub fn label(self) -> &'static str {
        match self {
            Provider::Facebook => "Facebook",
            Provider::Apple => "Apple",
            Provider::Google => "Google",
            Provider::Klarna => "Klarna",
        }
    }
}

/// Registration types (spec 000 §3): subscribe 0 (email and password), association 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegistrationType {
    Subscribe = 0,
    Association = 1,
}

/// Every login result code of spec 000 §4. 1–7 are the password sign-in's
/// ([`LoginResult`]); the others belong to third-party sign-in and to the client checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoginCode {
    Success = 1,
    InvalidIdentifier = 2,
    InvalidPassword = 3,
    Locked = 4,
    NotActivated = 5,
    Deactivated = 6,
    Blacklisted = 7,
    InvalidSocialPlugin = 8,
    MustUpgradeClient = 9,
    LegacyAccountMigrated = 10,
    ThirdPartyFailed = 11,
    EmailMatchNoAssociation = 12,
    NoAssociationNoEmail = 13,
    ShouldUpgradeClient = 14,
    ForceWebApp = 15,
    MobileCrossLogin = 16,
    MemberCrossLogin = 20,
    InconsistentSocialMember = 21,
}

impl LoginCode {
    pub const ALL: [LoginCode; 18] = [
        LoginCode::Success,
        LoginCode::InvalidIdentifier,
        LoginCode::InvalidPassword,
        LoginCode::Locked,
        LoginCode::NotActivated,
        LoginCode::Deactivated,
        LoginCode::Blacklisted,
        LoginCode::InvalidSocialPlugin,
        LoginCode::MustUpgradeClient,
        LoginCode::LegacyAccountMigrated,
        LoginCode::ThirdPartyFailed,
        LoginCode::EmailMatchNoAssociation,
        LoginCode::NoAssociationNoEmail,
        LoginCode::ShouldUpgradeClient,
        LoginCode::ForceWebApp,
        LoginCode::MobileCrossLogin,
        LoginCode::MemberCrossLogin,
        LoginCode::InconsistentSocialMember,
    ];

    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(v: u8) -> Option<LoginCode> {
        LoginCode::ALL.into_iter().find(|c| c.code() == v)
    }

    /// Translation key of the message a member sees for this outcome. Codes 1–7 keep the
    /// password sign-in's messages.
    pub fn message_key(self) -> &'static str {
        match self {
            LoginCode::Success => LoginResult::Success.message_key(),
            LoginCode::InvalidIdentifier => LoginResult::InvalidIdentifier.message_key(),
            LoginCode::InvalidPassword => LoginResult::InvalidPassword.message_key(),
            LoginCode::Locked => LoginResult::Locked.message_key(),
            LoginCode::NotActivated => LoginResult::NotActivated.message_key(),
            LoginCode::Deactivated => LoginResult::Deactivated.message_key(),
            LoginCode::Blacklisted => LoginResult::Blacklisted.message_key(),
            LoginCode::InvalidSocialPlugin => "auth.social.code.8",
            LoginCode::MustUpgradeClient => "auth.social.code.9",
            LoginCode::LegacyAccountMigrated => "auth.social.code.10",
            LoginCode::ThirdPartyFailed => "auth.social.code.11",
            LoginCode::EmailMatchNoAssociation => "auth.social.code.12",
            LoginCode::NoAssociationNoEmail => "auth.social.code.13",
            LoginCode::ShouldUpgradeClient => "auth.social.code.14",
            LoginCode::ForceWebApp => "auth.social.code.15",
            LoginCode::MobileCrossLogin => "auth.social.code.16",
            LoginCode::MemberCrossLogin => "auth.social.code.20",
            LoginCode::InconsistentSocialMember => "auth.social.code.21",
        }
    }
}

impl From<LoginResult> for LoginCode {
    fn from(r: LoginResult) -> LoginCode {
        LoginCode::from_code(r as u8).unwrap_or(LoginCode::InvalidIdentifier)
    }
}

/// What the server knows once a provider's ID token is verified.
#[derive(Clone, Copy, Debug)]
pub struct IdentityFacts {
    /// The status of the member already linked to this provider account, if any.
    pub linked: Option<MemberStatus>,
    /// Whether a member of the site has the token's email.
    pub email_member: bool,
    /// The token carries an email that the provider says it verified.
    pub verified_email: bool,
}

/// Third-party validate (spec 000 §4): a linked account signs in (or gets its status'
/// code); no link but a member with the same verified email: 12 (associate after the
/// password); no link and no member: 13 (third-party registration). Without a verified
/// email the identity cannot be matched to a member or registered: 21. A link to an
/// erased account is inconsistent too (21), never a way in.
pub fn third_party_outcome(f: IdentityFacts) -> LoginCode {
    match f.linked {
        Some(MemberStatus::Active) => LoginCode::Success,
        Some(MemberStatus::NotActivated) => LoginCode::NotActivated,
        Some(MemberStatus::Deactivated) => LoginCode::Deactivated,
        Some(MemberStatus::Blacklisted) => LoginCode::Blacklisted,
        Some(MemberStatus::Erased) => LoginCode::InconsistentSocialMember,
        None if !f.verified_email => LoginCode::InconsistentSocialMember,
        None if f.email_member => LoginCode::EmailMatchNoAssociation,
        None => LoginCode::NoAssociationNoEmail,
    }
}

/// Whether a member may remove a provider link: a member without a password keeps at
/// least one way in (they can set a password through "forgotten password" first).
pub fn can_unlink(has_password: bool, links: usize) -> bool {
    has_password || links > 1
}

/// Client versions (codes 9 and 14): below the minimum the client must upgrade, below the
/// recommended version it should. Versions are `major.minor.patch`; an unreadable version
/// is treated as too old.
pub fn client_version_outcome(
    version: &str,
    minimum: &str,
    recommended: &str,
) -> Option<LoginCode> {
    let parse = |v: &str| -> Option<(u32, u32, u32)> {
        let mut it = v.trim().split('.').map(|p| p.parse::<u32>().ok());
        Some((
            it.next()??,
            it.next().unwrap_or(Some(0))?,
            it.next().unwrap_or(Some(0))?,
        ))
    };
    let Some(v) = parse(version) else {
        return Some(LoginCode::MustUpgradeClient);
    };
    if parse(minimum).is_some_and(|m| v < m) {
        Some(LoginCode::MustUpgradeClient)
    } else if parse(recommended).is_some_and(|r| v < r) {
        Some(LoginCode::ShouldUpgradeClient)
    } else {
        None
    }
}

/// Seconds an authorization request (state, nonce, PKCE verifier) stays usable.
pub const STATE_TTL_SECS: i64 = 600;
/// Seconds a verified identity waits for its association or registration step.
pub const PENDING_TTL_SECS: i64 = 900;
/// Social sign-ins one client may start per window (review N6): each start keeps a row
/// for [`STATE_TTL_SECS`]; a person clicking "Continue with ..." a few times stays far
/// below, a script filling the table does not.
pub const STARTS_PER_WINDOW: i64 = 20;
pub const STARTS_WINDOW_SECS: i64 = 600;

/// A name from an ID token as the registration form may take it (letters and spaces, 60
/// at most: `auth::rules::is_valid_name`): hyphens, apostrophes, dots and other separators
/// become spaces, anything else that is not a letter goes, spaces collapse. Providers send
/// "Jean-Luc" or "O'Neil"; pre-filling them as sent made the pre-filled form refuse itself.
pub fn prefill_name(s: &str) -> String {
    let spaced: String = s
        .chars()
        .filter_map(|c| {
            if c.is_alphabetic() {
                Some(c)
            } else if c.is_whitespace() || matches!(c, '-' | '\'' | '’' | '.' | '_' | ',') {
                Some(' ')
            } else {
                None
            }
        })
        .collect();
    let words: Vec<&str> = spaced.split_whitespace().collect();
    let joined = words.join(" ");
    joined
        .chars()
        .take(60)
        .collect::<String>()
        .trim_end()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_token_names_are_prefilled_as_the_form_accepts_them() {
        assert_eq!(prefill_name("Jean-Luc"), "Jean Luc");
        assert_eq!(prefill_name("  O’Neil  d'Arc "), "O Neil d Arc");
        assert_eq!(prefill_name("Zoë Müller"), "Zoë Müller");
        assert_eq!(prefill_name("R2-D2"), "R D");
        assert_eq!(prefill_name("张伟"), "张伟");
        assert_eq!(prefill_name("123"), "");
        let long = "Abcdefghij ".repeat(8);
        assert_eq!(prefill_name(&long).chars().count(), 60);
        for name in ["Jean-Luc", "O'Neil", "Marie-Thérèse de la Tour", "J. R. R."] {
            assert!(
                crate::auth::rules::is_valid_name(&prefill_name(name)),
                "{name}"
            );
        }
    }

    #[test]
    fn providers_have_the_spec_numbers() {
        assert_eq!(Provider::Facebook.id(), 1);
        assert_eq!(Provider::Apple.id(), 2);
        assert_eq!(Provider::Google.id(), 3);
        assert_eq!(Provider::Klarna.id(), 4);
        for p in Provider::ALL {
            assert_eq!(Provider::from_id(i64::from(p.id())), Some(p));
            assert_eq!(Provider::from_slug(p.slug()), Some(p));
        }
        assert_eq!(Provider::from_id(0), None);
        assert_eq!(Provider::from_slug("twitter"), None);
        assert_eq!(RegistrationType::Subscribe as u8, 0);
        assert_eq!(RegistrationType::Association as u8, 1);
    }

    #[test]
    fn every_code_has_its_number_and_a_message() {
        let numbers: Vec<u8> = LoginCode::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(
            numbers,
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 21]
        );
        assert_eq!(LoginCode::from_code(17), None);
        assert_eq!(LoginCode::from(LoginResult::Locked), LoginCode::Locked);
        for c in LoginCode::ALL {
            assert_eq!(LoginCode::from_code(c.code()), Some(c));
            for lang in crate::site::i18n::LANGS {
                assert!(
                    crate::site::i18n::lookup(lang, c.message_key()).is_some(),
                    "{c:?} in {lang}"
                );
            }
        }
    }

    fn facts(linked: Option<MemberStatus>, email_member: bool, verified: bool) -> IdentityFacts {
        IdentityFacts {
            linked,
            email_member,
            verified_email: verified,
        }
    }

    #[test]
    fn identities_lead_to_the_spec_flows() {
        use MemberStatus::*;
        assert_eq!(
            third_party_outcome(facts(Some(Active), true, true)),
            LoginCode::Success
        );
        // A linked account signs in even if the provider no longer sends the email.
        assert_eq!(
            third_party_outcome(facts(Some(Active), false, false)),
            LoginCode::Success
        );
        assert_eq!(
            third_party_outcome(facts(Some(Deactivated), true, true)),
            LoginCode::Deactivated
        );
        assert_eq!(
            third_party_outcome(facts(Some(Blacklisted), true, true)),
            LoginCode::Blacklisted
        );
        assert_eq!(
            third_party_outcome(facts(Some(NotActivated), true, true)),
            LoginCode::NotActivated
        );
        assert_eq!(
            third_party_outcome(facts(Some(Erased), false, true)),
            LoginCode::InconsistentSocialMember
        );
        assert_eq!(
            third_party_outcome(facts(None, true, true)),
            LoginCode::EmailMatchNoAssociation
        );
        assert_eq!(
            third_party_outcome(facts(None, false, true)),
            LoginCode::NoAssociationNoEmail
        );
        // An unverified email never associates with (or registers as) the email's owner.
        assert_eq!(
            third_party_outcome(facts(None, true, false)),
            LoginCode::InconsistentSocialMember
        );
    }

    #[test]
    fn the_last_way_in_stays() {
        assert!(can_unlink(true, 1));
        assert!(can_unlink(false, 2));
        assert!(!can_unlink(false, 1));
    }

    #[test]
    fn client_versions_give_9_or_14() {
        assert_eq!(
            client_version_outcome("1.2.0", "2.0.0", "2.1.0"),
            Some(LoginCode::MustUpgradeClient)
        );
        assert_eq!(
            client_version_outcome("2.0.5", "2.0.0", "2.1.0"),
            Some(LoginCode::ShouldUpgradeClient)
        );
        assert_eq!(client_version_outcome("2.1", "2.0.0", "2.1.0"), None);
        assert_eq!(client_version_outcome("10.0.0", "2.0.0", "9.1.0"), None);
        assert_eq!(
            client_version_outcome("x", "2.0.0", "2.1.0"),
            Some(LoginCode::MustUpgradeClient)
        );
    }
}
