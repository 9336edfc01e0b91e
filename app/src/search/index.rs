//! The search engine (spec 000 §2 "Search"): a small in-memory inverted index per
//! site over its live sales and their products, in the site's own language. Pure: no I/O;
//! `store.rs` loads the documents and keeps one index per site fresh.
//!
//! - Text is folded: lower case, accents removed (é→e, ß→ss, æ→ae, ø→o…), split on
//!   anything that is not a letter or digit.
//! - A query token matches a term exactly, as a prefix (the last token, the one being
//!   typed), or with typos: Damerau-Levenshtein distance 1 for tokens of 4-7 characters,
//!   2 from 8 characters, none below 4. Typos are only tried for a token that matches no
//!   term exactly or as a prefix, so "robe" does not drag in "rose".
//! - Every query token must match (AND). Score: exact > prefix > fuzzy, then the field
//!   (product name and brand weigh more than colour, sale and universe titles); ties go by
//!   the sale's position on the site, then the product's position in its sale.
// Over 400 lines: 190 of them are tests; the engine's parts all work on `SiteIndex`.
use std::collections::{HashMap, HashSet};

pub use crate::search::rules::MAX_QUERY_CHARS;
/// Query tokens considered (the rest are ignored).
const MAX_QUERY_TOKENS: usize = 8;

// ------------------------------------------------------------------ text folding

pub use crate::text::fold::fold;

/// Folded tokens of a text, in order.
pub fn tokens(s: &str) -> Vec<String> {
    fold(s)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whitespace collapsed and trimmed: how a query is shown and stored.
pub fn normalize_query(q: &str) -> String {
    q.split_whitespace().collect::<Vec<_>>().join(" ")
}

// ------------------------------------------------------------------ fuzzy matching

/// Typos allowed for a query token of `len` characters.
pub fn max_typos(len: usize) -> usize {
    match len {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// Damerau-Levenshtein distance (optimal string alignment: insertions, deletions,
/// substitutions, transpositions of neighbours), or `None` when above `max`.
pub fn distance_within(a: &[char], b: &[char], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let w = b.len() + 1;
    let mut prev2 = vec![0usize; w];
    let mut prev: Vec<usize> = (0..w).collect();
    let mut cur = vec![0usize; w];
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[b.len()]).filter(|d| *d <= max)
}

/// How a query token matched a term; the order is the ranking order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchKind {
    Fuzzy = 1,
    Prefix = 2,
    Exact = 3,
}

/// Exact or prefix match of a folded query token against a folded term.
pub fn match_plain(token: &str, term: &str, allow_prefix: bool) -> Option<MatchKind> {
    if token == term {
        Some(MatchKind::Exact)
    } else if allow_prefix && term.starts_with(token) {
        Some(MatchKind::Prefix)
    } else {
        None
    }
}

/// Typo-tolerant match: the whole term within the token's typo budget, or (for the token
/// being typed) a beginning of the term.
pub fn match_fuzzy(token: &[char], term: &[char], allow_prefix: bool) -> bool {
    let max = max_typos(token.len());
    if max == 0 {
        return false;
    }
    if distance_within(token, term, max).is_some() {
        return true;
    }
    if allow_prefix {
        let lo = token.len().saturating_sub(max).max(1);
        let hi = (token.len() + max).min(term.len().saturating_sub(1));
        return (lo..=hi).any(|k| distance_within(token, &term[..k], max).is_some());
    }
    false
}

// ------------------------------------------------------------------ documents and index

/// Field weights: how much a match in this field counts.
pub const W_NAME: u8 = 3;
pub const W_BRAND: u8 = 3;
pub const W_CONTEXT: u8 = 1;

/// A product as the index sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProductDoc {
    pub id: i64,
    pub sale_id: i64,
    pub sale_position: i64,
    pub position: i64,
    pub name: String,
    pub brand: String,
    pub color: String,
    pub sale_name: String,
    /// Its universe and that universe's parent.
    pub universes: Vec<String>,
}

/// A live sale as the index sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SaleDoc {
    pub id: i64,
    pub name: String,
    pub slug: String,
    pub position: i64,
}

/// One site's index.
#[derive(Debug, Default)]
pub struct SiteIndex {
    /// When it was built, and the moment it stops being right (a sale ends or starts).
    pub built_at: i64,
    pub valid_until: i64,
    pub products: Vec<ProductDoc>,
    pub sales: Vec<SaleDoc>,
    /// Vocabulary: folded term → (characters, product postings (doc, weight), sales).
    terms: HashMap<String, Term>,
}

#[derive(Debug, Default)]
struct Term {
    chars: Vec<char>,
    /// How the term was first written (lower case, with accents), for completions.
    display: String,
    products: Vec<(u32, u8)>,
    sales: Vec<u32>,
}

/// A ranked product hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub doc: u32,
    pub score: u32,
}

impl SiteIndex {
    pub fn build(
        products: Vec<ProductDoc>,
        sales: Vec<SaleDoc>,
        built_at: i64,
        valid_until: i64,
    ) -> SiteIndex {
        let mut index = SiteIndex {
            built_at,
            valid_until,
            products,
            sales,
            terms: HashMap::new(),
        };
        for (d, p) in index.products.iter().enumerate() {
            let mut best: HashMap<String, (u8, String)> = HashMap::new();
            let mut add = |text: &str, weight: u8| {
                for word in text.split(|c: char| !c.is_alphanumeric()) {
                    let lower = word.to_lowercase();
                    for t in tokens(word) {
                        let e = best.entry(t).or_insert((0, lower.clone()));
                        e.0 = e.0.max(weight);
                    }
                }
            };
            add(&p.name, W_NAME);
            add(&p.brand, W_BRAND);
            add(&p.color, W_CONTEXT);
            add(&p.sale_name, W_CONTEXT);
            for u in &p.universes {
                add(u, W_CONTEXT);
            }
            for (t, (weight, display)) in best {
                let term = index.terms.entry(t.clone()).or_insert_with(|| Term {
                    chars: t.chars().collect(),
                    display,
                    ..Default::default()
                });
                term.products.push((d as u32, weight));
            }
        }
        for (s, sale) in index.sales.iter().enumerate() {
            let mut seen = HashSet::new();
            for word in sale.name.split(|c: char| !c.is_alphanumeric()) {
                for t in tokens(word) {
                    if seen.insert(t.clone()) {
                        let term = index.terms.entry(t.clone()).or_insert_with(|| Term {
                            chars: t.chars().collect(),
                            display: word.to_lowercase(),
                            ..Default::default()
                        });
                        term.sales.push(s as u32);
                    }
                }
            }
        }
        index
    }

    /// Whether the index must be rebuilt at `now`.
    pub fn is_stale(&self, now: i64, max_age_secs: i64) -> bool {
        now >= self.valid_until || now - self.built_at >= max_age_secs
    }

    pub fn term_count(&self) -> usize {
        self.terms.len()
    }

    /// Terms a query token matches, with how; typos only when nothing matches plainly.
    fn candidates(&self, token: &str, allow_prefix: bool) -> Vec<(&Term, MatchKind)> {
        let mut plain: Vec<(&Term, MatchKind)> = self
            .terms
            .iter()
            .filter_map(|(t, term)| match_plain(token, t, allow_prefix).map(|k| (term, k)))
            .collect();
        if plain.is_empty() {
            let chars: Vec<char> = token.chars().collect();
            plain = self
                .terms
                .values()
                .filter(|term| match_fuzzy(&chars, &term.chars, allow_prefix))
                .map(|term| (term, MatchKind::Fuzzy))
                .collect();
        }
        plain
    }

    /// Products matching every token of the query, best first. The last token may be a
    /// prefix (it is being typed, or cut short).
    pub fn search(&self, query: &str) -> Vec<Hit> {
        let toks: Vec<String> = tokens(query).into_iter().take(MAX_QUERY_TOKENS).collect();
        self.search_tokens(&toks, true)
    }

    fn search_tokens(&self, toks: &[String], prefix_last: bool) -> Vec<Hit> {
        if toks.is_empty() {
            return vec![];
        }
        let mut scores: Option<HashMap<u32, u32>> = None;
        for (i, tok) in toks.iter().enumerate() {
            let last = prefix_last && i + 1 == toks.len();
            let mut best: HashMap<u32, u32> = HashMap::new();
            for (term, kind) in self.candidates(tok, last) {
                for (doc, weight) in &term.products {
                    let s = token_score(kind, *weight);
                    let e = best.entry(*doc).or_insert(0);
                    *e = (*e).max(s);
                }
            }
            scores = Some(match scores {
                None => best,
                Some(prev) => prev
                    .into_iter()
                    .filter_map(|(doc, s)| best.get(&doc).map(|b| (doc, s + b)))
                    .collect(),
            });
        }
        let mut hits: Vec<Hit> = scores
            .unwrap_or_default()
            .into_iter()
            .map(|(doc, score)| Hit { doc, score })
            .collect();
        hits.sort_by(|a, b| {
            let (pa, pb) = (
                &self.products[a.doc as usize],
                &self.products[b.doc as usize],
            );
            b.score
                .cmp(&a.score)
                .then(pa.sale_position.cmp(&pb.sale_position))
                .then(pa.sale_id.cmp(&pb.sale_id))
                .then(pa.position.cmp(&pb.position))
                .then(pa.id.cmp(&pb.id))
        });
        hits
    }

    /// Product ids matching the query, best first.
    pub fn search_ids(&self, query: &str) -> Vec<i64> {
        self.search(query)
            .into_iter()
            .map(|h| self.products[h.doc as usize].id)
            .collect()
    }

    /// Live sales whose name matches every token of the query, best first.
    pub fn search_sales(&self, query: &str) -> Vec<&SaleDoc> {
        let toks: Vec<String> = tokens(query).into_iter().take(MAX_QUERY_TOKENS).collect();
        if toks.is_empty() {
            return vec![];
        }
        let mut scores: Option<HashMap<u32, u32>> = None;
        for (i, tok) in toks.iter().enumerate() {
            let mut best: HashMap<u32, u32> = HashMap::new();
            for (term, kind) in self.candidates(tok, i + 1 == toks.len()) {
                for s in &term.sales {
                    let e = best.entry(*s).or_insert(0);
                    *e = (*e).max(kind as u32);
                }
            }
            scores = Some(match scores {
                None => best,
                Some(prev) => prev
                    .into_iter()
                    .filter_map(|(s, v)| best.get(&s).map(|b| (s, v + b)))
                    .collect(),
            });
        }
        let mut found: Vec<(u32, u32)> = scores.unwrap_or_default().into_iter().collect();
        found.sort_by(|a, b| {
            let (sa, sb) = (&self.sales[a.0 as usize], &self.sales[b.0 as usize]);
            b.1.cmp(&a.1)
                .then(sa.position.cmp(&sb.position))
                .then(sa.id.cmp(&sb.id))
        });
        found
            .into_iter()
            .map(|(s, _)| &self.sales[s as usize])
            .collect()
    }

    /// Completions of the query being typed: the words before the last one kept, the last
    /// one completed with terms of the products those words find, most frequent first.
    pub fn completions(&self, query: &str, max: usize) -> Vec<String> {
        // A query ending with a space or a sign has nothing being typed.
        if query.ends_with(|c: char| !c.is_alphanumeric()) {
            return vec![];
        }
        let query = normalize_query(query);
        let toks: Vec<String> = tokens(&query).into_iter().take(MAX_QUERY_TOKENS).collect();
        let Some(last) = toks.last() else {
            return vec![];
        };
        // Up to and with the last separator, which may take more than one byte ("l’ro").
        let head: String = match query.char_indices().rfind(|(_, c)| !c.is_alphanumeric()) {
            Some((i, c)) => query[..i + c.len_utf8()].to_string(),
            None => String::new(),
        };
        let allowed: Option<HashSet<u32>> = (toks.len() > 1).then(|| {
            self.search_tokens(&toks[..toks.len() - 1], false)
                .into_iter()
                .map(|h| h.doc)
                .collect()
        });
        let mut counted: Vec<(usize, &str)> = self
            .terms
            .iter()
            .filter(|(t, _)| t.len() > last.len() && t.starts_with(last.as_str()))
            .map(|(_, term)| {
                let n = term
                    .products
                    .iter()
                    .filter(|(d, _)| allowed.as_ref().is_none_or(|a| a.contains(d)))
                    .count();
                (n, term.display.as_str())
            })
            .filter(|(n, _)| *n > 0)
            .collect();
        counted.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        counted.dedup_by(|a, b| a.1 == b.1);
        counted
            .into_iter()
            .take(max)
            .map(|(_, display)| format!("{head}{display}"))
            .collect()
    }
}

/// Score of one query token in one document.
pub fn token_score(kind: MatchKind, weight: u8) -> u32 {
    kind as u32 * 10 + u32::from(weight)
}

// ------------------------------------------------------------------ recent queries

/// Recent queries kept per member.
pub const RECENT_KEPT: usize = 10;

/// The key two queries are the same recent query by (case and accents ignored).
pub fn recent_key(q: &str) -> String {
    fold(&normalize_query(q))
}

/// Whether a recent query belongs under what is being typed.
pub fn recent_matches(recent: &str, typed: &str) -> bool {
    let typed = recent_key(typed);
    typed.is_empty() || recent_key(recent).starts_with(&typed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    fn product(id: i64, sale_id: i64, sale_position: i64, name: &str, brand: &str) -> ProductDoc {
        ProductDoc {
            id,
            sale_id,
            sale_position,
            position: id % 100,
            name: format!("{name} {brand}"),
            brand: brand.into(),
            color: "rose".into(),
            sale_name: format!("{brand} · Mode femme"),
            universes: vec!["Femme".into(), "Robes".into()],
        }
    }

    fn index() -> SiteIndex {
        SiteIndex::build(
            vec![
                product(100101, 1001, 0, "Chemise", "Noa"),
                product(100102, 1001, 0, "Robe", "Noa"),
                product(100201, 1002, 1, "Écharpe", "Maison Aurore"),
                product(100202, 1002, 1, "Ceinture", "Maison Aurore"),
                product(100301, 1003, 2, "Robe", "Léna Paris"),
                product(100302, 1003, 2, "Straße", "Hanse & Co"),
            ],
            vec![
                SaleDoc {
                    id: 1001,
                    name: "Noa · Mode femme".into(),
                    slug: "noa-mode-femme".into(),
                    position: 0,
                },
                SaleDoc {
                    id: 1002,
                    name: "Maison Aurore · Beauté".into(),
                    slug: "maison-aurore-beaute".into(),
                    position: 1,
                },
            ],
            1000,
            5000,
        )
    }

    #[test]
    fn folding_lowercases_and_removes_accents() {
        assert_eq!(fold("Écharpe"), "echarpe");
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("Cinturón Niños"), "cinturon ninos");
        assert_eq!(fold("Œuvre Ærø"), "oeuvre aero");
        assert_eq!(
            tokens("Wohnen & Deko · Küche"),
            vec!["wohnen", "deko", "kuche"]
        );
        assert_eq!(normalize_query("  robe   rouge "), "robe rouge");
    }

    #[test]
    fn damerau_levenshtein_is_bounded() {
        assert_eq!(
            distance_within(&chars("chemise"), &chars("chemise"), 1),
            Some(0)
        );
        assert_eq!(
            distance_within(&chars("chemsie"), &chars("chemise"), 1),
            Some(1),
            "a transposition counts once"
        );
        assert_eq!(
            distance_within(&chars("chmise"), &chars("chemise"), 1),
            Some(1)
        );
        assert_eq!(
            distance_within(&chars("chamise"), &chars("chemise"), 1),
            Some(1)
        );
        assert_eq!(distance_within(&chars("chmse"), &chars("chemise"), 1), None);
        assert_eq!(
            distance_within(&chars("chmse"), &chars("chemise"), 2),
            Some(2)
        );
        assert_eq!(distance_within(&chars("a"), &chars("abcd"), 2), None);
        assert_eq!(distance_within(&[], &chars("ab"), 2), Some(2));
    }

    #[test]
    fn typo_budget_grows_with_the_token() {
        assert_eq!(max_typos(3), 0);
        assert_eq!(max_typos(4), 1);
        assert_eq!(max_typos(7), 1);
        assert_eq!(max_typos(8), 2);
        assert!(
            !match_fuzzy(&chars("rbe"), &chars("robe"), false),
            "too short"
        );
        assert!(match_fuzzy(&chars("robr"), &chars("robe"), false));
        assert!(match_fuzzy(&chars("cienture"), &chars("ceinture"), false));
        assert!(match_fuzzy(&chars("ceintrue"), &chars("ceinture"), false));
        assert!(!match_fuzzy(&chars("xxintrue"), &chars("ceinture"), false));
        // While typing: a typo in the beginning of a longer word.
        assert!(match_fuzzy(&chars("chmis"), &chars("chemise"), true));
        assert!(!match_fuzzy(&chars("chmis"), &chars("chemise"), false));
    }

    #[test]
    fn plain_matches_exact_or_prefix() {
        assert_eq!(match_plain("robe", "robe", true), Some(MatchKind::Exact));
        assert_eq!(match_plain("rob", "robe", true), Some(MatchKind::Prefix));
        assert_eq!(match_plain("rob", "robe", false), None);
        assert!(MatchKind::Exact > MatchKind::Prefix && MatchKind::Prefix > MatchKind::Fuzzy);
        assert!(token_score(MatchKind::Prefix, W_CONTEXT) > token_score(MatchKind::Fuzzy, W_NAME));
    }

    #[test]
    fn a_typo_finds_the_product() {
        let i = index();
        assert_eq!(i.search_ids("chemsie"), vec![100101]);
        assert_eq!(i.search_ids("Chmise noa"), vec![100101]);
        assert_eq!(
            i.search_ids("ECHARPE"),
            vec![100201],
            "accents and case folded"
        );
        assert_eq!(i.search_ids("strasse"), vec![100302]);
        assert!(i.search_ids("zzzz").is_empty());
        assert!(i.search_ids("  ").is_empty());
    }

    #[test]
    fn every_token_must_match_and_exact_beats_prefix_beats_fuzzy() {
        let i = index();
        // "robe": exact in two product names, "robes" (universe title) by prefix for all;
        // the named robes come first, ties by sale position.
        let ids = i.search_ids("robe");
        assert_eq!(&ids[..2], &[100102, 100301]);
        assert_eq!(
            ids.len(),
            6,
            "the universe title 'Robes' matches as a prefix"
        );
        // Not the last token: no prefix, so only exact "robe".
        assert_eq!(i.search_ids("robe noa"), vec![100102]);
        assert_eq!(i.search_ids("robe lena"), vec![100301]);
        // A plain match exists for "rose" (colour), so no typo expansion to "robe".
        assert_eq!(i.search_ids("rose").len(), 6);
        assert_eq!(i.search_ids("rose chemise"), vec![100101]);
    }

    #[test]
    fn sales_and_completions() {
        let i = index();
        let sales: Vec<i64> = i.search_sales("maison aur").iter().map(|s| s.id).collect();
        assert_eq!(sales, vec![1002]);
        assert_eq!(i.search_sales("mode").len(), 1);
        assert_eq!(i.completions("ch", 5), vec!["chemise".to_string()]);
        assert_eq!(
            i.completions("maison au", 5),
            vec!["maison aurore".to_string()]
        );
        assert_eq!(i.completions("Robe l", 5), vec!["Robe léna".to_string()]);
        assert!(i.completions("robe ", 5).is_empty(), "nothing being typed");
        assert!(i.completions("chemise", 5).is_empty(), "already complete");
        // A separator of more than one byte before the word being typed (it panicked).
        assert_eq!(i.completions("Robe «l", 5), vec!["Robe «léna".to_string()]);
        assert_eq!(i.completions("©cein", 5), vec!["©ceinture".to_string()]);
    }

    #[test]
    fn staleness_follows_age_and_sale_ends() {
        let i = index();
        assert!(!i.is_stale(1010, 60));
        assert!(i.is_stale(1060, 60));
        assert!(i.is_stale(5000, 10_000));
        assert!(i.term_count() > 10);
    }

    #[test]
    fn recent_queries_are_told_apart_by_folded_text() {
        assert_eq!(recent_key("  Écharpe  Rouge"), recent_key("echarpe rouge"));
        assert!(recent_matches("Écharpe rouge", "ech"));
        assert!(recent_matches("anything", ""));
        assert!(!recent_matches("robe", "ech"));
    }
}
