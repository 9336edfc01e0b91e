//! The rose-deals pages (spec 001 §2): the deals home (`/rosedeals`, `/gr/home/rosedeals`),
//! the current and archived orders (`ongoing`, `history`), one order by its basket id
//! (`order/{basketId}`), the refund and retry forms
//! (`refund`), the refund's result, and contact (`contact-form`, `mail`). Rendered by the
//! server. The refund, retry and contact forms post (multipart, to
//! `server/src/forms/rosedeals.rs`, which redirects with `?error=`/`?notice=`); the
//! enhancement script sends them in place.
pub mod add;
pub mod draft;
mod forms;
mod home;
mod orders;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::routes::ResolvedRoute;
use crate::ui::SeoMeta;

/// The messages of the forms' outcomes.
const MESSAGES: [&str; 20] = [
    "reauth.error.password",
    "reauth.error.required",
    "reauth.social.required",
    "reauth.social.failed",
    "reauth.social.fresh",
    "auth.error.too_many",
    "rosedeals.errors.invalid_iban",
    "rosedeals.errors.already_refunded",
    "rosedeals.errors.nothing_to_refund",
    "rosedeals.errors.missing_values",
    "rosedeals.errors.no_iban",
    "rosedeals.retry.done",
    "rosedeals.contact.sent",
    "rosedeals.contact.attached",
    "dsaform.error.file_type",
    "dsaform.error.file_size",
    "dsaform.error.file_count",
    "dsaform.error.upload_quota",
    "dsaform.error.storage_full",
    "errors.general_retry.notification",
];

/// Keys a redirect may show (`?error=`, `?notice=`): a link cannot make the page say
/// anything else.
pub fn known_message(key: &str) -> Option<&'static str> {
    MESSAGES
        .iter()
        .chain(["errors.not_found"].iter())
        .copied()
        .find(|k| *k == key)
}

/// `?name=` of the page, if it is a message the page knows.
fn query_message(name: &str) -> Option<&'static str> {
    use_query_map()
        .get_untracked()
        .get(name)
        .and_then(|k| known_message(&k))
}

/// `?name=` of the page as a number.
fn query_id(name: &str) -> Option<i64> {
    use_query_map()
        .get_untracked()
        .get(name)
        .and_then(|v| v.parse().ok())
}

#[component]
pub fn DealsPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let section = route.get("section").unwrap_or("").to_string();
    let title = match section.as_str() {
        "ongoing" => ctx.t("rosedeals.ongoing.title"),
        "history" => ctx.t("rosedeals.history.title"),
        "refund" => ctx.t("rosedeals.refund.title"),
        "refund-result" => ctx.t("rosedeals.result.title"),
        "contact-form" => ctx.t("rosedeals.contact.title"),
        "order" => ctx.t("rosedeals.order.heading"),
        "mail" => ctx.t("rosedeals.mail.title"),
        _ => ctx.t("page.deals"),
    };
    let brand = ctx.site().brand.name();
    let description = ctx.t_with("page.description", &[("page", &title), ("brand", brand)]);
    let body = match section.as_str() {
        "ongoing" => view! { <orders::OrdersList archived=false /> }.into_any(),
        "history" => view! { <orders::OrdersList archived=true /> }.into_any(),
        "refund" => view! { <forms::RefundPage basket_id=query_id("basketId") /> }.into_any(),
        "refund-result" => {
            view! { <forms::RefundResultPage basket_id=query_id("basketId") /> }.into_any()
        }
        "contact-form" => view! { <forms::ContactPage basket_id=query_id("basketId") /> }.into_any(),
        "order" => {
            view! { <orders::OrderPage basket_id=route.get("basketId").and_then(|v| v.parse().ok()) /> }
                .into_any()
        }
        "mail" => view! { <forms::MailPage /> }.into_any(),
        _ => view! { <home::DealsHome /> }.into_any(),
    };
    let page_kind = section.clone();
    // A refused form shows its error in the form itself.
    let in_form =
        section == "contact-form" || use_query_map().get_untracked().get("form").is_some();
    let error = query_message("error").filter(|_| !in_form);
    let notice = query_message("notice");
    view! {
        <SeoMeta title=title.clone() description path indexable=false />
        <div class="rosedeals-page" data-rosedeals-page=page_kind data-enhance-region="rosedeals">
            <h1>{title}</h1>
            <Nav current=section />
            <p class="account-notice account-notice--error" data-testid="rosedeals-error" role="alert" hidden=error.is_none()>
                {error.map(|k| RequestCtx::current().t(k))}
            </p>
            <p class="account-notice" data-testid="rosedeals-notice" role="status" aria-live="polite" hidden=notice.is_none()
                data-enhance-focus=notice.map(|_| "")>
                {notice.map(|k| RequestCtx::current().t(k))}
            </p>
            {body}
        </div>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_known_keys_come_back_from_a_redirect() {
        use super::known_message;
        assert_eq!(
            known_message("rosedeals.errors.invalid_iban"),
            Some("rosedeals.errors.invalid_iban")
        );
        assert_eq!(
            known_message("rosedeals.retry.done"),
            Some("rosedeals.retry.done")
        );
        assert_eq!(known_message("errors.not_found"), Some("errors.not_found"));
        assert_eq!(known_message("rosedeals.errors.made_up"), None);
        assert_eq!(known_message("<b>hi</b>"), None);
    }
}

#[component]
fn Nav(current: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let links = [
        ("", "/rosedeals", "rosedeals.nav.deals"),
        ("ongoing", "/rosedeals/ongoing", "rosedeals.nav.ongoing"),
        ("history", "/rosedeals/history", "rosedeals.nav.history"),
        (
            "contact-form",
            "/rosedeals/contact-form",
            "rosedeals.nav.contact",
        ),
    ];
    view! {
        <nav class="rosedeals-nav" aria-label=ctx.t("page.deals")>
            <ul>
                {links.into_iter().map(|(section, href, key)| {
                    let here = (section == current).then_some("page");
                    view! { <li><a href=href aria-current=here>{RequestCtx::current().t(key)}</a></li> }
                }).collect_view()}
            </ul>
        </nav>
    }
}
