//! What the server decided the onboarding layer shows on a page (consent, popin, banners).
use serde::{Deserialize, Serialize};

/// What the server decided to show on this page.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnboardingView {
    /// Consent answers, `None` until the visitor answers (then the banner shows).
    pub consent: Option<Vec<(String, bool)>>,
    /// The modal popin to show: (popinType code, version).
    pub popin: Option<(i64, i64)>,
    pub adot_banner: bool,
    pub app_banner: bool,
    /// The home's new-member overlay may show (a member of less than a week who has not
    /// closed it, and neither a popin nor the advertising banner on this page view).
    #[serde(default)]
    pub new_member_overlay: bool,
}
