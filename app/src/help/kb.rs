//! The help articles (the knowledge base of the automatic answers), written per site
//! language in `kb/<lang>.json`: the same topics under the same ids in every language.
//! Customer care edits their title and body per language in the back office
//! (`help_articles`); an article never edited reads from the bundled text.
use std::sync::{Arc, RwLock};

use super::answer::{Article, Bm25Answerer};

pub const LANGS: [&str; 5] = ["fr", "de", "es", "it", "nl"];

fn source(lang: &str) -> &'static str {
    match lang {
        "de" => include_str!("kb/de.json"),
        "es" => include_str!("kb/es.json"),
        "it" => include_str!("kb/it.json"),
        "nl" => include_str!("kb/nl.json"),
        _ => include_str!("kb/fr.json"),
    }
}

/// The bundled articles of one language (French for an unknown one).
pub fn articles(lang: &str) -> Vec<Article> {
    // Part of the build and checked by the tests below: a parse error is a bug.
    serde_json::from_str(source(lang)).expect("help articles are valid JSON")
}

/// Customer care's text of one article in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditedText {
    pub lang: String,
    pub article_id: String,
    pub title: String,
    pub body: String,
}

/// The articles of `lang` as members read them: the bundled ones, each edited one with its
/// edited title and body. The bundled keywords stay: they are the words members use for
/// the topic, which a rewrite of the text does not change. An edit of an article the build
/// no longer has is left out (the topics are the build's).
pub fn with_edits(lang: &str, edits: &[EditedText]) -> Vec<Article> {
    let mut list = articles(lang);
    for e in edits.iter().filter(|e| e.lang == lang) {
        if let Some(a) = list.iter_mut().find(|a| a.id == e.article_id) {
            a.title.clone_from(&e.title);
            a.body.clone_from(&e.body);
        }
    }
    list
}

fn build(edits: &[EditedText]) -> Bm25Answerer {
    Bm25Answerer::new(LANGS.iter().map(|l| (*l, with_edits(l, edits))).collect())
}

/// The answerer the help centre asks, over the articles as they are now. Each question
/// takes the current snapshot (an `Arc`, so a swap never waits for a question being
/// answered, nor the reverse); an edit builds a whole new one and swaps it in. Indexing
/// every language's dozen articles takes well under a millisecond, so a rebuild redoes
/// them all rather than tracking which language changed.
pub struct KnowledgeBase {
    current: RwLock<Arc<Bm25Answerer>>,
    /// One reload at a time: a reload that read the database earlier must not swap in
    /// its older snapshot after a later one.
    #[cfg(feature = "ssr")]
    reloads: tokio::sync::Mutex<()>,
}

impl Default for KnowledgeBase {
    /// The bundled articles alone.
    fn default() -> Self {
        KnowledgeBase::new(&[])
    }
}

impl KnowledgeBase {
    pub fn new(edits: &[EditedText]) -> Self {
        KnowledgeBase {
            current: RwLock::new(Arc::new(build(edits))),
            #[cfg(feature = "ssr")]
            reloads: Default::default(),
        }
    }

    pub fn current(&self) -> Arc<Bm25Answerer> {
        // A poisoned lock still holds a whole snapshot: the swap is one assignment.
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Swaps in a snapshot built from `edits` over the bundled articles.
    pub fn replace(&self, edits: &[EditedText]) {
        let next = Arc::new(build(edits));
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = next;
    }
}

#[cfg(feature = "ssr")]
impl KnowledgeBase {
    /// The bundled articles with the edits the database holds.
    pub async fn load(db: &crate::platform::db::Db) -> Result<Self, sqlx::Error> {
        Ok(KnowledgeBase::new(
            &crate::help::store::edited_articles(db).await?,
        ))
    }

    /// Reads the edits again and swaps the snapshot: after an edit commits (the next
    /// question is answered from it), and now and then for edits made on other instances.
    pub async fn reload(&self, db: &crate::platform::db::Db) -> Result<(), sqlx::Error> {
        let _one_at_a_time = self.reloads.lock().await;
        let edits = crate::help::store::edited_articles(db).await?;
        self.replace(&edits);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::help::answer::Answerer;

    fn answerer() -> Arc<Bm25Answerer> {
        KnowledgeBase::default().current()
    }

    fn id(lang: &str, q: &str) -> Option<String> {
        answerer().answer(lang, q).map(|m| m.article_id)
    }

    #[test]
    fn every_language_has_the_same_articles_with_text() {
        let ids: Vec<String> = articles("fr").into_iter().map(|a| a.id).collect();
        assert!(ids.len() >= 12, "{ids:?}");
        for lang in LANGS {
            let a = articles(lang);
            assert_eq!(
                a.iter().map(|a| a.id.clone()).collect::<Vec<_>>(),
                ids,
                "{lang}"
            );
            assert!(
                a.iter().all(|a| !a.title.is_empty() && a.body.len() > 80),
                "{lang}"
            );
        }
    }

    #[test]
    fn clear_questions_are_answered_in_each_language() {
        let cases = [
            (
                "fr",
                "Quand vais-je recevoir ma commande ? La livraison est en retard",
                "delivery-times",
            ),
            ("fr", "Je voudrais être remboursé de mon retour", "refunds"),
            (
                "fr",
                "Où trouver le numéro de suivi de mon colis ?",
                "tracking",
            ),
            (
                "fr",
                "Mon paiement par carte a été refusé",
                "payment-declined",
            ),
            ("fr", "Comment télécharger ma facture ?", "invoices"),
            (
                "de",
                "Wann kommt meine Lieferung an? Sie hat Verspätung",
                "delivery-times",
            ),
            ("de", "Wie kann ich einen Artikel zurücksenden?", "returns"),
            (
                "de",
                "Wo kann ich meine Rechnung herunterladen?",
                "invoices",
            ),
            (
                "fr",
                "Comment télécharger la facture de ma commande ?",
                "invoices",
            ),
            (
                "de",
                "Wann bekomme ich die Erstattung meiner Rücksendung?",
                "refunds",
            ),
            (
                "de",
                "Ich habe mein Passwort vergessen und kann mich nicht anmelden",
                "account-access",
            ),
            (
                "es",
                "¿Cuándo recibiré el reembolso de mi devolución?",
                "refunds",
            ),
            (
                "es",
                "Mi pago con tarjeta fue rechazado",
                "payment-declined",
            ),
            (
                "it",
                "Come posso restituire un articolo che non mi va?",
                "returns",
            ),
            ("it", "Dove trovo la fattura del mio ordine?", "invoices"),
            ("nl", "Hoe gebruik ik mijn kortingscode?", "vouchers"),
            (
                "nl",
                "Mijn pakket is kapot aangekomen, het artikel is beschadigd",
                "damaged-item",
            ),
        ];
        for (lang, q, want) in cases {
            assert_eq!(id(lang, q).as_deref(), Some(want), "{lang}: {q}");
        }
    }

    #[test]
    fn gibberish_and_unrelated_questions_are_not_answered() {
        for lang in LANGS {
            assert_eq!(id(lang, "xqzv blorp wuggle frrrt"), None, "{lang}");
            assert_eq!(id(lang, "?!... ---"), None, "{lang}");
        }
        assert_eq!(
            id(
                "fr",
                "Quelle est la capitale de l'Australie et la hauteur du mont Blanc ?"
            ),
            None
        );
        assert_eq!(
            id("de", "Wer hat die Fußball-Weltmeisterschaft 1954 gewonnen?"),
            None
        );
        assert_eq!(
            id("es", "¿Qué tiempo hará mañana en Sevilla por la tarde?"),
            None
        );
        assert_eq!(
            id("it", "Qual è la ricetta della pizza margherita napoletana?"),
            None
        );
        assert_eq!(
            id("nl", "Hoe hoog is de Domtoren in Utrecht precies?"),
            None
        );
    }

    #[test]
    fn the_threshold_sits_between_an_answer_and_a_stray_word() {
        use crate::help::answer::{MIN_COVERAGE, MIN_SCORE};
        let m = answerer()
            .answer("fr", "remboursement de mon retour")
            .unwrap();
        assert!(m.score >= MIN_SCORE && m.confidence >= MIN_COVERAGE);
        // One shared word among many unrelated ones is not enough.
        assert_eq!(
            id(
                "fr",
                "mon chat aime la musique classique, les voyages en montagne et la cuisine du jour"
            ),
            None
        );
    }

    fn zeppelin() -> EditedText {
        EditedText {
            lang: "fr".into(),
            article_id: "delivery-times".into(),
            title: "Livraison par zeppelin".into(),
            body: "Nos colis voyagent désormais en zeppelin : le dirigeable se pose chez vous 3 jours après la clôture de la vente.".into(),
        }
    }

    #[test]
    fn an_edit_replaces_its_article_in_its_language_only() {
        let kb = KnowledgeBase::default();
        let before = kb.current();
        kb.replace(&[zeppelin()]);
        let now = kb.current();
        let a = now.article("fr", "delivery-times").unwrap();
        assert_eq!(
            (a.title.as_str(), a.body.as_str()),
            ("Livraison par zeppelin", zeppelin().body.as_str())
        );
        let bundled = &articles("fr")[0];
        assert_eq!(a.keywords, bundled.keywords, "the keywords stay");
        assert_eq!(
            now.answer("fr", "Quand arrive le zeppelin avec ma commande ?")
                .map(|m| m.article_id)
                .as_deref(),
            Some("delivery-times")
        );
        // Other languages, and the snapshot a question already holds, are as they were.
        assert_eq!(
            now.article("de", "delivery-times"),
            before.article("de", "delivery-times")
        );
        assert_eq!(before.article("fr", "delivery-times"), Some(bundled));
        // Back to the original: no edit.
        kb.replace(&[]);
        assert_eq!(kb.current().article("fr", "delivery-times"), Some(bundled));
    }

    #[test]
    fn an_edit_of_an_article_the_build_does_not_have_is_left_out() {
        let edit = EditedText {
            article_id: "no-such-topic".into(),
            ..zeppelin()
        };
        assert_eq!(with_edits("fr", &[edit]), articles("fr"));
        assert_eq!(with_edits("de", &[zeppelin()]), articles("de"));
    }
}
