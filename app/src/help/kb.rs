//! The help articles (the knowledge base of the automatic answers), written per site
//! language in `kb/<lang>.json`: the same topics under the same ids in every language.
use std::sync::LazyLock;

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

/// The articles of one language (French for an unknown one).
pub fn articles(lang: &str) -> Vec<Article> {
    // Part of the build and checked by the tests below: a parse error is a bug.
    serde_json::from_str(source(lang)).expect("help articles are valid JSON")
}

static ANSWERER: LazyLock<Bm25Answerer> =
    LazyLock::new(|| Bm25Answerer::new(LANGS.iter().map(|l| (*l, articles(l))).collect()));

/// The shop's answerer over the whole knowledge base, indexed once.
pub fn answerer() -> &'static Bm25Answerer {
    &ANSWERER
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::help::answer::Answerer;

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
}
