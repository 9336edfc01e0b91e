//! The consent checkboxes of a registration (the email form and the social sign-in's
//! registration alike).
use leptos::prelude::*;

use crate::context::RequestCtx;

/// The documents a new member accepts (their crawlable, canonical paths).
pub const CGV_PATH: &str = "/registration/generalconditions";
const PRIVACY_PATH: &str = "/registration/privacypolicy";

/// The two documents a registration accepts, as required checkboxes (the email form and the
/// social sign-in's registration alike).
pub fn consent_checks(ctx: &RequestCtx) -> impl IntoView {
    consent_checks_as(ctx, &super::draft::Draft::default())
}

/// The same, as a refused registration left them: ticked or not, with their messages.
pub fn consent_checks_as(ctx: &RequestCtx, draft: &super::draft::Draft) -> impl IntoView {
    let check = |name: &'static str, ticked: bool, label: AnyView| {
        let error = draft.error(name);
        let id = format!("{name}-error");
        view! {
            <label class="auth__check">
                <input type="checkbox" name=name value="1" required checked=ticked
                    aria-invalid=error.is_some().then_some("true") aria-describedby=error.is_some().then(|| id.clone()) />
                {label}
            </label>
            {error.map(|key| view! { <span class="field__error" id=id data-testid=format!("error-{name}")>{ctx.t(&key)}</span> })}
        }
    };
    view! {
        {check("cgv", draft.cgv, consent_label(ctx, "auth.cgv", "content.consent.cgv_link", CGV_PATH).into_any())}
        {check("privacyPolicy", draft.privacy_policy, consent_label(ctx, "auth.privacy", "content.consent.privacy_link", PRIVACY_PATH).into_any())}
    }
}

/// A consent checkbox's label: its sentence with the document's name as a link to the
/// document, in a new tab so the form being filled in stays as it is. The new-tab notice
/// (for screen readers) ends the label, so the checkbox's accessible name starts with the
/// visible sentence, and describes the link.
pub fn consent_label(
    ctx: &RequestCtx,
    label_key: &str,
    link_key: &str,
    href: &'static str,
) -> impl IntoView {
    let (before, link, after) = consent_parts(&ctx.t(label_key), &ctx.t(link_key));
    let new_tab = format!(" ({})", ctx.t("content.new_tab"));
    let notice_id = format!("{}-new-tab", label_key.replace('.', "-"));
    // One box for the sentence: beside a checkbox in a flex row, loose text and the link
    // would each become a column.
    view! {
        <span class="consent-text">
            {before}
            <a href=href target="_blank" rel="noopener" aria-describedby=notice_id.clone()>{link}</a>
            {after}
            <span id=notice_id class="visually-hidden">{new_tab}</span>
        </span>
    }
}

/// Splits a consent sentence around the document's name: (before, name, after). A
/// sentence that does not contain the name gets it appended as the link.
fn consent_parts(sentence: &str, name: &str) -> (String, String, String) {
    match sentence.find(name).filter(|_| !name.is_empty()) {
        Some(at) => (
            sentence[..at].to_string(),
            name.to_string(),
            sentence[at + name.len()..].to_string(),
        ),
        None => (format!("{sentence} "), name.to_string(), String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::consent_parts;
    use crate::site::i18n::{t, LANGS};

    #[test]
    fn every_language_links_the_document_name_inside_its_sentence() {
        for lang in LANGS {
            for (label, link) in [
                ("auth.cgv", "content.consent.cgv_link"),
                ("auth.privacy", "content.consent.privacy_link"),
            ] {
                let (sentence, name) = (t(lang, label), t(lang, link));
                let (before, linked, after) = consent_parts(&sentence, &name);
                assert_eq!(
                    format!("{before}{linked}{after}"),
                    sentence,
                    "{lang} {label}"
                );
                assert!(!linked.is_empty() && !before.is_empty(), "{lang} {label}");
            }
        }
    }

    #[test]
    fn a_sentence_without_the_name_gets_it_appended() {
        assert_eq!(
            consent_parts("I accept", "the terms"),
            ("I accept ".into(), "the terms".into(), String::new())
        );
    }
}
