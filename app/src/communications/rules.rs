//! Communication preferences (spec 001 §3 "Communication settings", §4, §9): channel and
//! frequency, the option sets each site offers, and when the cancel survey opens.
//! Pure: compiled for the server and the browser.
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "UPPERCASE")]
pub enum Channel {
    All,
    Mail,
    Push,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "UPPERCASE")]
pub enum Model {
    All,
    Regularly,
    Fewer,
    OnePerWeek,
    None,
}

impl Channel {
    pub fn wire(self) -> &'static str {
        match self {
            Channel::All => "ALL",
            Channel::Mail => "MAIL",
            Channel::Push => "PUSH",
        }
    }
    pub fn from_wire(s: &str) -> Option<Channel> {
        [Channel::All, Channel::Mail, Channel::Push]
            .into_iter()
            .find(|c| c.wire() == s)
    }
    /// Whether newsletters go out by e-mail on this channel.
    pub fn sends_mail(self) -> bool {
        self != Channel::Push
    }
}

impl Model {
    pub fn wire(self) -> &'static str {
        match self {
            Model::All => "ALL",
            Model::Regularly => "REGULARLY",
            Model::Fewer => "FEWER",
            Model::OnePerWeek => "ONEPERWEEK",
            Model::None => "NONE",
        }
    }
    pub fn from_wire(s: &str) -> Option<Model> {
        [
            Model::All,
            Model::Regularly,
            Model::Fewer,
            Model::OnePerWeek,
            Model::None,
        ]
        .into_iter()
        .find(|m| m.wire() == s)
    }
}

/// What a site offers. The spec says only that FR, IT, ES and the sister-brand sites
/// differ from DE and AT. DE and AT take the shorter lists: consent there is asked per
/// channel with a double opt-in (so no combined push channel) and the intermediate
/// frequencies are not offered; every other site (Benelux included) follows the French set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSet {
    pub channels: &'static [Channel],
    pub models: &'static [Model],
}

const FULL: OptionSet = OptionSet {
    channels: &[Channel::All, Channel::Mail, Channel::Push],
    models: &[
        Model::All,
        Model::Regularly,
        Model::Fewer,
        Model::OnePerWeek,
        Model::None,
    ],
};

const GERMAN_SPEAKING: OptionSet = OptionSet {
    channels: &[Channel::All, Channel::Mail],
    models: &[Model::All, Model::OnePerWeek, Model::None],
};

/// Germany (2) and Austria (7).
pub fn option_set(site_id: u16) -> OptionSet {
    match site_id {
        2 | 7 => GERMAN_SPEAKING,
        _ => FULL,
    }
}

impl OptionSet {
    pub fn allows(&self, channel: Channel, model: Model) -> bool {
        self.channels.contains(&channel) && self.models.contains(&model)
    }
}

/// The preferences of a member who never chose: every channel, and newsletters only if
/// they opted in to e-mails (no consent, no mail).
pub fn default_preferences(optin_email: bool) -> (Channel, Model) {
    (
        Channel::All,
        if optin_email { Model::All } else { Model::None },
    )
}

/// The e-mail opt-in the preferences amount to (kept in step with the onboarding popin's).
pub fn mail_consent(channel: Channel, model: Model) -> bool {
    model != Model::None && channel.sends_mail()
}

/// Choosing NONE when newsletters were on opens the cancel survey (spec 001 §4).
pub fn opens_cancel_survey(before: Model, after: Model) -> bool {
    after == Model::None && before != Model::None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_sets_by_site() {
        for site in [1, 3, 4, 66, 69] {
            let set = option_set(site);
            assert_eq!(set.channels, &[Channel::All, Channel::Mail, Channel::Push]);
            assert_eq!(set.models.len(), 5, "site {site}");
            assert!(set.allows(Channel::Push, Model::Fewer));
        }
        for site in [2, 7] {
            let set = option_set(site);
            assert_eq!(set.channels, &[Channel::All, Channel::Mail]);
            assert_eq!(set.models, &[Model::All, Model::OnePerWeek, Model::None]);
            assert!(!set.allows(Channel::Push, Model::All));
            assert!(!set.allows(Channel::Mail, Model::Regularly));
            assert!(set.allows(Channel::Mail, Model::None));
        }
        // Every set keeps a way out and the default choices.
        for site in crate::site::SITES.iter().map(|s| s.site_id) {
            let set = option_set(site);
            assert!(set.models.contains(&Model::None) && set.models.contains(&Model::All));
            assert!(set.channels.contains(&Channel::All));
            let german = matches!(site, 2 | 7);
            assert_eq!(set == GERMAN_SPEAKING, german, "site {site}");
        }
    }

    #[test]
    fn wire_names_round_trip_and_refuse_unknown_values() {
        for c in FULL.channels {
            assert_eq!(Channel::from_wire(c.wire()), Some(*c));
            let json = serde_json::to_string(c).unwrap();
            assert_eq!(json, format!("\"{}\"", c.wire()));
        }
        for m in FULL.models {
            assert_eq!(Model::from_wire(m.wire()), Some(*m));
            assert_eq!(
                serde_json::from_str::<Model>(&format!("\"{}\"", m.wire())).unwrap(),
                *m
            );
        }
        assert_eq!(Model::from_wire("none"), None);
        assert_eq!(Channel::from_wire("SMS"), None);
        assert!(serde_json::from_str::<Model>("\"WEEKLY\"").is_err());
    }

    #[test]
    fn survey_and_consent_follow_the_choice() {
        assert!(opens_cancel_survey(Model::All, Model::None));
        assert!(opens_cancel_survey(Model::Fewer, Model::None));
        assert!(!opens_cancel_survey(Model::None, Model::None));
        assert!(!opens_cancel_survey(Model::None, Model::All));
        assert!(mail_consent(Channel::Mail, Model::OnePerWeek));
        assert!(!mail_consent(Channel::Push, Model::All));
        assert!(!mail_consent(Channel::All, Model::None));
        assert_eq!(default_preferences(false), (Channel::All, Model::None));
        assert_eq!(default_preferences(true), (Channel::All, Model::All));
    }
}
