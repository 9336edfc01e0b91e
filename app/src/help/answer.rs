//! Automatic answers (spec 001 §4 "AI answer", §7 "AI response"): before a message becomes
//! a ticket, the help articles of the site's language are searched for one that answers it.
//!
//! [`Answerer`] is the seam: [`Bm25Answerer`] ranks the articles with BM25 over accent-folded,
//! lightly stemmed tokens and answers only above a confidence threshold; a model-backed
//! answerer can take its place later without the service or the wire changing.
//!
//! Why not tantivy: the knowledge base is about sixty short articles (twelve or more per
//! language) known at build time. An index of that size is a few kilobytes and ranks in
//! microseconds from a hundred lines of code, while tantivy (and its tokenizer and
//! stemmer crates) would add minutes to every cold build on the two shared cores that build
//! this shop, for features (segments, on-disk storage, merges) sixty articles never need.
use std::collections::HashMap;

use crate::text::fold::fold;

/// One help article of the knowledge base.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub struct Article {
    pub id: String,
    pub title: String,
    pub body: String,
    /// Words a member may use for this topic that the text does not (synonyms).
    #[serde(default)]
    pub keywords: String,
}

/// The article chosen for a question and how sure the answerer is (0 to 1 for BM25: the
/// share of the question's words the article holds).
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    pub article_id: String,
    pub score: f32,
    pub confidence: f32,
}

/// Finds the help article that answers a question, or none.
pub trait Answerer: Send + Sync {
    fn answer(&self, lang: &str, question: &str) -> Option<Match>;
    fn article(&self, lang: &str, id: &str) -> Option<&Article>;
}

/// The answerer of the contact form's holdback control (`member_contact_form`): it never
/// finds an answer, so every message goes on as a ticket, as before automatic answers.
pub struct NoAnswers;

impl Answerer for NoAnswers {
    fn answer(&self, _lang: &str, _question: &str) -> Option<Match> {
        None
    }
    fn article(&self, _lang: &str, _id: &str) -> Option<&Article> {
        None
    }
}

/// Below these, a question is not answered (the message goes on as a ticket): at least
/// this BM25 score, and at least this share of the question's words found in the article.
pub const MIN_SCORE: f32 = 2.5;
pub const MIN_COVERAGE: f32 = 0.3;

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// Words that say nothing about the topic, in the five languages (folded).
const STOPWORDS: &[&str] = &[
    // fr
    "le", "la", "les", "un", "une", "des", "du", "de", "et", "ou", "je", "j", "mon", "ma", "mes",
    "est", "sont", "pas", "ne", "que", "qui", "quoi", "pour", "dans", "sur", "avec", "ce", "cette",
    "il", "elle", "vous", "nous", "votre", "vos", "ai", "au", "aux", "en", "y", "a", "comment",
    "quand", "bonjour", "merci", "me", "m", "l", "d", "qu", "suis", "si", "plus", "par", "se",
    "son", "sa", "ses", "peux", "puis", "faire", "fait", "encore", // de
    "der", "die", "das", "ein", "eine", "einen", "und", "oder", "ich", "mein", "meine", "meinen",
    "ist", "sind", "nicht", "kein", "keine", "wie", "wann", "wo", "was", "fur", "mit", "auf", "zu",
    "im", "ihr", "ihre", "sie", "es", "hallo", "danke", "habe", "hat", "noch", "bei", "von", "den",
    "dem", "bitte", "kann", "ich", "mich", "mir", // es
    "el", "los", "las", "una", "unos", "y", "o", "yo", "mi", "mis", "es", "son", "no", "que",
    "como", "cuando", "donde", "para", "por", "con", "su", "sus", "hola", "gracias", "he", "ha",
    "lo", "al", "todavia", "aun", "puedo", // it
    "il", "lo", "gli", "uno", "e", "io", "mio", "mia", "miei", "non", "che", "come", "quando",
    "dove", "per", "con", "su", "ciao", "grazie", "ho", "ancora", "posso", "del", "della", "di",
    "da", "ai", "alla", "sono", // nl
    "de", "het", "een", "en", "of", "ik", "mijn", "is", "zijn", "niet", "geen", "hoe", "wanneer",
    "waar", "wat", "voor", "met", "op", "te", "u", "uw", "hallo", "bedankt", "heb", "nog", "van",
    "kan", "er", "dat", "die", // shared filler
    "hello", "please", "thanks",
];

/// The stem of a token: folded, its plural ending dropped, then cut to six letters
/// ("livraisons" and "livraison" → "livrai"; "remboursement" and "rembourser" → "rembou";
/// "Lieferung" and "Lieferzeit" → "liefer"). Crude, but it is the same for every language
/// and the same for articles and questions, which is all ranking needs.
pub fn stem(token: &str) -> String {
    let mut t = token;
    for ending in ["s", "x"] {
        if t.chars().count() > 4 {
            if let Some(s) = t.strip_suffix(ending) {
                t = s;
                break;
            }
        }
    }
    t.chars().take(6).collect()
}

/// The terms of a text: folded, split on anything but letters and digits, stopwords and
/// one-letter words dropped, stemmed.
pub fn terms(text: &str) -> Vec<String> {
    fold(text)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 1 && !STOPWORDS.contains(w))
        .map(stem)
        .collect()
}

struct Doc {
    tf: HashMap<String, f32>,
    len: f32,
}

/// One language's articles, indexed.
struct Index {
    articles: Vec<Article>,
    docs: Vec<Doc>,
    df: HashMap<String, f32>,
    avg_len: f32,
}

impl Index {
    fn new(articles: Vec<Article>) -> Index {
        let docs: Vec<Doc> = articles
            .iter()
            .map(|a| {
                let mut tf = HashMap::new();
                // The title and keywords count twice: they say what the article is about.
                let head = format!("{} {}", a.title, a.keywords);
                for (text, weight) in [(head.as_str(), 2.0), (a.body.as_str(), 1.0)] {
                    for t in terms(text) {
                        *tf.entry(t).or_insert(0.0) += weight;
                    }
                }
                let len = tf.values().sum();
                Doc { tf, len }
            })
            .collect();
        let mut df = HashMap::new();
        for d in &docs {
            for t in d.tf.keys() {
                *df.entry(t.clone()).or_insert(0.0) += 1.0;
            }
        }
        let avg_len = docs.iter().map(|d| d.len).sum::<f32>() / docs.len().max(1) as f32;
        Index {
            articles,
            docs,
            df,
            avg_len,
        }
    }

    fn idf(&self, term: &str) -> f32 {
        let n = self.docs.len() as f32;
        let df = self.df.get(term).copied().unwrap_or(0.0);
        ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
    }

    /// The best article's index, score and coverage.
    fn best(&self, question: &str) -> Option<(usize, f32, f32)> {
        let mut q = terms(question);
        q.sort();
        q.dedup();
        if q.is_empty() {
            return None;
        }
        self.docs
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let mut score = 0.0;
                let mut hits = 0;
                for t in &q {
                    let Some(&f) = d.tf.get(t) else { continue };
                    hits += 1;
                    let norm = K1 * (1.0 - B + B * d.len / self.avg_len);
                    score += self.idf(t) * f * (K1 + 1.0) / (f + norm);
                }
                (i, score, hits as f32 / q.len() as f32)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }
}

/// BM25 over the knowledge base, one index per language.
pub struct Bm25Answerer {
    indexes: HashMap<&'static str, Index>,
}

impl Bm25Answerer {
    pub fn new(by_lang: Vec<(&'static str, Vec<Article>)>) -> Bm25Answerer {
        Bm25Answerer {
            indexes: by_lang
                .into_iter()
                .map(|(lang, articles)| (lang, Index::new(articles)))
                .collect(),
        }
    }

    fn index(&self, lang: &str) -> Option<&Index> {
        self.indexes
            .get(crate::site::i18n::lang_of(lang))
            .or_else(|| self.indexes.get("fr"))
    }
}

impl Answerer for Bm25Answerer {
    fn answer(&self, lang: &str, question: &str) -> Option<Match> {
        let index = self.index(lang)?;
        let (i, score, coverage) = index.best(question)?;
        (score >= MIN_SCORE && coverage >= MIN_COVERAGE).then(|| Match {
            article_id: index.articles[i].id.clone(),
            score,
            confidence: coverage,
        })
    }

    fn article(&self, lang: &str, id: &str) -> Option<&Article> {
        self.index(lang)?.articles.iter().find(|a| a.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_fold_plurals_and_cut() {
        assert_eq!(terms("Livraisons"), vec!["livrai"]);
        assert_eq!(terms("livraison"), vec!["livrai"]);
        assert_eq!(terms("Rückerstattung"), vec!["rucker"]);
        assert_eq!(terms("Où est mon colis ?"), vec!["coli"]);
        assert!(terms("le la de").is_empty());
    }
}
