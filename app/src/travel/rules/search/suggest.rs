//! The destination autocomplete: which names match what was typed and in what order, the
//! combobox's state (WAI-ARIA: list, active option, choice), and the departure-city cookie.
use crate::model::travel::{DestinationSuggestion, TravelSearch};
use crate::text::fold::fold;

/// The shortest text worth asking about, in characters.
pub const MIN_QUERY_CHARS: usize = 2;
/// The longest autocomplete text accepted; longer is a 400 on the REST call.
pub const MAX_QUERY_CHARS: usize = 60;
/// Suggestions shown at most.
pub const MAX_SUGGESTIONS: usize = 8;
/// Typing pause before asking.
pub const DEBOUNCE_MS: u64 = 200;

/// The departure-city cookie (spec 001 §9): the code, 30 days, the whole site.
pub const DEPARTURE_COOKIE: &str = "trv_departure_city";
pub const DEPARTURE_COOKIE_DAYS: u32 = 30;

/// Why an autocomplete text is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryProblem {
    Empty,
    TooLong,
}

impl QueryProblem {
    pub fn code(self) -> &'static str {
        match self {
            QueryProblem::Empty => "query_empty",
            QueryProblem::TooLong => "query_too_long",
        }
    }
    pub fn message_key(self) -> &'static str {
        match self {
            QueryProblem::Empty => "travel.search.errors.query_empty",
            QueryProblem::TooLong => "travel.search.errors.query_too_long",
        }
    }
}

/// The folded text to look names up with: trimmed, not empty, not too long.
pub fn autocomplete_text(q: &str) -> Result<String, QueryProblem> {
    let q = q.trim();
    if q.chars().count() > MAX_QUERY_CHARS {
        return Err(QueryProblem::TooLong);
    }
    let folded = fold(q).split_whitespace().collect::<Vec<_>>().join(" ");
    if folded.is_empty() {
        return Err(QueryProblem::Empty);
    }
    Ok(folded)
}

/// How well a folded name matches a folded query: 0 the whole name, 1 its start, 2 the
/// start of one of its words (after a space, hyphen, apostrophe ...); `None` otherwise.
pub fn match_rank(name: &str, query: &str) -> Option<u8> {
    if query.is_empty() {
        return None;
    }
    if name == query {
        return Some(0);
    }
    if name.starts_with(query) {
        return Some(1);
    }
    let mut prev_alnum = true;
    for (i, c) in name.char_indices() {
        if !prev_alnum && c.is_alphanumeric() && name[i..].starts_with(query) {
            return Some(2);
        }
        prev_alnum = c.is_alphanumeric();
    }
    None
}

/// Kinds from the widest to the narrowest, then sales.
fn kind_order(kind: &str) -> u8 {
    match kind {
        "country" => 0,
        "region" => 1,
        "city" => 2,
        _ => 3,
    }
}

/// Keeps the suggestions that match with live offers, best first (match, kind, offers,
/// name), at most [`MAX_SUGGESTIONS`].
pub fn rank(found: Vec<DestinationSuggestion>, query: &str) -> Vec<DestinationSuggestion> {
    let mut scored: Vec<(u8, DestinationSuggestion)> = found
        .into_iter()
        .filter(|s| s.count > 0)
        .filter_map(|s| match_rank(&fold(&s.label), query).map(|r| (r, s)))
        .collect();
    scored.sort_by(|(ra, a), (rb, b)| {
        ra.cmp(rb)
            .then(kind_order(&a.kind).cmp(&kind_order(&b.kind)))
            .then(b.count.cmp(&a.count))
            .then(a.label.cmp(&b.label))
    });
    scored.dedup_by(|(_, a), (_, b)| a.id == b.id);
    scored
        .into_iter()
        .map(|(_, s)| s)
        .take(MAX_SUGGESTIONS)
        .collect()
}

/// The `Set-Cookie` / `document.cookie` text keeping a departure city (an empty code
/// forgets it).
pub fn departure_cookie(code: &str) -> String {
    if code.is_empty() {
        format!("{DEPARTURE_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax")
    } else {
        format!(
            "{DEPARTURE_COOKIE}={code}; Max-Age={}; Path=/; SameSite=Lax",
            DEPARTURE_COOKIE_DAYS * 86_400
        )
    }
}

/// A cookie's value in a `Cookie` header (or `document.cookie`).
pub fn cookie_in(header: &str, name: &str) -> Option<String> {
    header.split(';').find_map(|part| {
        let (k, v) = part.trim().split_once('=')?;
        (k == name).then(|| v.trim().to_string())
    })
}

/// The departure city kept in the cookie, when it is one of `codes`.
pub fn remembered_city(header: &str, codes: &[String]) -> Option<String> {
    let code = cookie_in(header, DEPARTURE_COOKIE)?.to_ascii_uppercase();
    codes.contains(&code).then_some(code)
}

/// The destination field of the search form as a combobox.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Combobox {
    pub text: String,
    /// The chosen suggestion's id (the hidden `destinationId`); typing clears it.
    pub chosen: Option<String>,
    pub options: Vec<DestinationSuggestion>,
    pub active: Option<usize>,
    pub open: bool,
    pub loading: bool,
    /// Id of the latest request: older answers are dropped.
    pub request: u32,
}

pub enum ComboAction {
    Input(String),
    /// A request went out; its id is the new `request`.
    Pending,
    Answer(u32, Vec<DestinationSuggestion>),
    /// Arrow down (+1) or up (-1).
    Move(i32),
    /// An option chosen by click, or the active one by Enter (`None`).
    Choose(Option<usize>),
    Close,
}

impl Combobox {
    pub fn new(search: &TravelSearch) -> Combobox {
        Combobox {
            text: search.destination_text.clone(),
            chosen: search.destination_id.clone(),
            ..Combobox::default()
        }
    }

    pub fn apply(mut self, action: ComboAction) -> Self {
        match action {
            ComboAction::Input(text) => {
                self.text = text;
                self.chosen = None;
                self.active = None;
                self.open = true;
                if self.text.trim().chars().count() < MIN_QUERY_CHARS {
                    self.options.clear();
                    self.loading = false;
                    // Answers to longer texts typed before are stale now.
                    self.request += 1;
                }
            }
            ComboAction::Pending => {
                self.loading = true;
                self.request += 1;
            }
            ComboAction::Answer(id, list) if id == self.request => {
                self.options = list;
                self.loading = false;
                self.active = None;
            }
            ComboAction::Answer(..) => {}
            ComboAction::Move(step) => {
                let n = self.options.len();
                if n > 0 {
                    self.open = true;
                    self.active = Some(match (self.active, step >= 0) {
                        (None, true) => 0,
                        (None, false) => n - 1,
                        (Some(i), true) => (i + 1) % n,
                        (Some(i), false) => (i + n - 1) % n,
                    });
                }
            }
            ComboAction::Choose(index) => {
                let expanded = self.expanded();
                let picked = index.or(self.active).and_then(|i| self.options.get(i));
                if let Some(s) = picked.cloned().filter(|_| expanded) {
                    self.text = s.label;
                    self.chosen = Some(s.id);
                }
                self.open = false;
                self.active = None;
            }
            ComboAction::Close => {
                self.open = false;
                self.active = None;
            }
        }
        self
    }

    /// The list shows while open with options.
    pub fn expanded(&self) -> bool {
        self.open && !self.options.is_empty()
    }

    /// Whether Enter would choose an option (rather than submit the form).
    pub fn has_active(&self) -> bool {
        self.expanded() && self.active.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sug(id: &str, label: &str, kind: &str, count: u32) -> DestinationSuggestion {
        DestinationSuggestion {
            id: id.into(),
            label: label.into(),
            kind: kind.into(),
            count,
        }
    }

    #[test]
    fn queries_are_folded_and_bounded() {
        assert_eq!(autocomplete_text("  Séville ").as_deref(), Ok("seville"));
        assert_eq!(
            autocomplete_text("Côte   d'Azur").as_deref(),
            Ok("cote d'azur")
        );
        assert_eq!(autocomplete_text("   "), Err(QueryProblem::Empty));
        assert_eq!(
            autocomplete_text(&"a".repeat(61)),
            Err(QueryProblem::TooLong)
        );
        assert_eq!(autocomplete_text("Москва").as_deref(), Ok("москва"));
        assert_eq!(autocomplete_text("🏖️").as_deref(), Ok("🏖️"));
    }

    #[test]
    fn whole_names_then_starts_then_word_starts() {
        assert_eq!(match_rank("nice", "nice"), Some(0));
        assert_eq!(match_rank("nicea", "nice"), Some(1));
        assert_eq!(match_rank("cote d'azur", "azur"), Some(2));
        assert_eq!(match_rank("saint-tropez", "trop"), Some(2));
        assert_eq!(
            match_rank("venice", "nice"),
            None,
            "inside a word is no match"
        );
        assert_eq!(match_rank("nice", ""), None);
    }

    #[test]
    fn ranking_puts_exact_prefixes_first_and_drops_empty_destinations() {
        let found = vec![
            sug("sale-7", "Hôtel Grèce · Crète", "sale", 12),
            sug("3", "Grèce", "country", 5),
            sug("4", "Grenade", "city", 0),
            sug("5", "Grenoble", "city", 2),
            sug("6", "Athènes", "city", 3),
        ];
        let ids: Vec<String> = rank(found, "gre").into_iter().map(|s| s.id).collect();
        assert_eq!(ids, ["3", "5", "sale-7"]);
        let many: Vec<DestinationSuggestion> = (0..20)
            .map(|i| sug(&i.to_string(), &format!("Palma {i}"), "city", 1))
            .collect();
        assert_eq!(rank(many, "palma").len(), MAX_SUGGESTIONS);
    }

    #[test]
    fn the_cookie_keeps_the_city_for_30_days_and_is_read_back() {
        assert_eq!(
            departure_cookie("PAR"),
            "trv_departure_city=PAR; Max-Age=2592000; Path=/; SameSite=Lax"
        );
        assert!(departure_cookie("").contains("Max-Age=0"));
        let header = "a=1; trv_departure_city=lys; XSRF-TOKEN=x";
        assert_eq!(cookie_in(header, DEPARTURE_COOKIE).as_deref(), Some("lys"));
        let codes = vec!["PAR".to_string(), "LYS".to_string()];
        assert_eq!(remembered_city(header, &codes).as_deref(), Some("LYS"));
        assert_eq!(remembered_city("trv_departure_city=XXX", &codes), None);
        assert_eq!(remembered_city("", &codes), None);
    }

    #[test]
    fn typing_clears_the_choice_and_choosing_fills_it() {
        let s = TravelSearch {
            destination_id: Some("3".into()),
            destination_text: "Grèce".into(),
            ..TravelSearch::default()
        };
        let c = Combobox::new(&s).apply(ComboAction::Input("Gr".into()));
        assert_eq!(c.chosen, None);
        let c = c.apply(ComboAction::Pending);
        let id = c.request;
        let c = c.apply(ComboAction::Answer(
            id,
            vec![
                sug("3", "Grèce", "country", 5),
                sug("5", "Grenoble", "city", 2),
            ],
        ));
        assert!(c.expanded() && !c.has_active());
        let c = c.apply(ComboAction::Move(-1));
        assert_eq!(c.active, Some(1));
        let c = c.apply(ComboAction::Move(1));
        assert_eq!(c.active, Some(0), "arrows wrap around");
        assert!(c.has_active());
        let c = c.apply(ComboAction::Choose(None));
        assert_eq!((c.text.as_str(), c.chosen.as_deref()), ("Grèce", Some("3")));
        assert!(!c.expanded());
        let c = c.apply(ComboAction::Choose(Some(1)));
        assert_eq!(
            c.chosen.as_deref(),
            Some("3"),
            "a closed list chooses nothing new"
        );
    }

    #[test]
    fn stale_answers_and_short_texts_show_nothing() {
        let c = Combobox::default()
            .apply(ComboAction::Input("Pal".into()))
            .apply(ComboAction::Pending);
        let old = c.request;
        let c = c.apply(ComboAction::Pending);
        let c = c.apply(ComboAction::Answer(old, vec![sug("1", "Palma", "city", 1)]));
        assert!(c.options.is_empty() && c.loading);
        let c = c.apply(ComboAction::Input("P".into()));
        assert!(!c.loading);
        let c = c.apply(ComboAction::Answer(
            old + 1,
            vec![sug("1", "Palma", "city", 1)],
        ));
        assert!(c.options.is_empty(), "an answer to a longer text is stale");
        let c = c.apply(ComboAction::Close);
        assert!(!c.open);
    }
}
