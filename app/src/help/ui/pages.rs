//! `/postsales/contactselector` (choose the help form, the chat or another contact
//! method) and `/ps/errors` (the post-sales error page, shown when a post-sales page
//! cannot load its data).
use leptos::prelude::*;

use super::{ContactMethods, HelpFrame, NewWindowLink};
use crate::context::RequestCtx;
use crate::help::{config, rules};

#[component]
pub fn ContactSelectorPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let config = config::for_site(ctx.site_id);
    view! {
        <HelpFrame page="selector" title=ctx.t("page.contactselector") path>
            <p class="account-hint">{ctx.t("help.selector.intro")}</p>
            <ul class="help-choices" data-testid="contact-choices">
                <li class="help-choice">
                    <h2>{ctx.t("help.selector.form_title")}</h2>
                    <p>{ctx.t("help.selector.form_text")}</p>
                    <a class="button button--primary" href="/helpform" data-testid="choose-form">{ctx.t("help.selector.form_action")}</a>
                </li>
                <li class="help-choice">
                    <h2>{ctx.t("help.selector.chat_title")}</h2>
                    <p>{ctx.t("help.selector.chat_text")}</p>
                    <NewWindowLink href=rules::chat_link("other", None) label=ctx.t("help.chat.open") testid="choose-chat" />
                </li>
                <li class="help-choice">
                    <h2>{ctx.t("help.selector.methods_title")}</h2>
                    <ContactMethods methods=config.contact_methods.clone() />
                </li>
            </ul>
        </HelpFrame>
    }
}

#[component]
pub fn PostSalesErrorPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <HelpFrame page="errors" title=ctx.t("page.postsaleserror") path>
            <PostSalesErrorNotice />
        </HelpFrame>
    }
}

/// What `/ps/errors` says, for a post-sales page (orders, help, message centre, rose
/// deals) whose data failed to load: the page keeps its own address, so a reload retries,
/// and shows the post-sales error with the ways on instead of an empty page.
#[component]
pub fn PostSalesErrorNotice() -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <section class="help-error" role="alert" data-testid="ps-error">
            <p>{ctx.t("help.ps_error.text")}</p>
            <ul class="help-links">
                <li><a class="button button--primary" href="/gr/myaccount" data-testid="ps-error-back">{ctx.t("help.ps_error.back")}</a></li>
                <li><a class="help-link" href="/gr/my-orders">{ctx.t("menu.orders")}</a></li>
                <li><a class="help-link" href="/helpform">{ctx.t("menu.help")}</a></li>
                <li><a class="help-link" href="/">{ctx.t("notfound.home")}</a></li>
            </ul>
        </section>
    }
}
