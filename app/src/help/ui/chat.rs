//! `/chat?reason=...` (and `order`, `isPastOrder`): opened in a new window from the help
//! pages. It shows what the conversation is about, the chat thread on that reason (a
//! ticket of channel `chat`) and a message box that starts or continues it.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::centre::Thread;
use super::pages::PostSalesErrorNotice;
use super::{is_not_found, reason_label, ContactMethods, HelpFrame, Xsrf};
use crate::context::RequestCtx;
use crate::help::api::fetch_chat;
use crate::help::config;
use crate::ui::error_template::ErrorNotice;

pub const CHAT_ACTION: &str = "/chat/send";

#[component]
pub fn ChatPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let config = config::for_site(ctx.site_id);
    let reason = query
        .get("reason")
        .filter(|r| config.reason(r).is_some())
        .unwrap_or_else(|| "other".to_string());
    let order: Option<i64> = query.get("order").and_then(|o| o.parse().ok());
    let past = query.get("isPastOrder").is_some_and(|p| p == "true");
    let context = match order {
        Some(o) => ctx.t_with(
            if past {
                "help.chat.context_past_order"
            } else {
                "help.chat.context_order"
            },
            &[
                ("reason", &reason_label(&ctx, &reason)),
                ("order", &o.to_string()),
            ],
        ),
        None => ctx.t_with(
            "help.chat.context",
            &[("reason", &reason_label(&ctx, &reason))],
        ),
    };
    let r = reason.clone();
    let thread = Resource::new(move || (r.clone(), order), |(r, o)| fetch_chat(r, o));
    view! {
        <div data-enhance-region="help-chat">
            <HelpFrame page="chat" title=ctx.t("page.chat") path>
                <p class="help-chat__context" data-testid="chat-context">{context}</p>
                <Suspense fallback=|| ()>
                    {move || Suspend::new(async move {
                        match thread.await {
                            Ok(Some(t)) => view! { <div class="help-chat__thread"><Thread thread=t /></div> }.into_any(),
                            Err(e) if is_not_found(&e) => view! { <ErrorNotice key="errors.not_found" /> }.into_any(),
                            Err(_) => view! { <PostSalesErrorNotice /> }.into_any(),
                            Ok(None) => view! { <p class="account-hint">{RequestCtx::current().t("help.chat.empty")}</p> }.into_any(),
                        }
                    })}
                </Suspense>
                <form method="post" action=CHAT_ACTION class="account-form" data-testid="chat-form" data-enhance="">
                    <Xsrf />
                    <input type="hidden" name="reason" value=reason.clone() />
                    <input type="hidden" name="orderId" value=order.map(|o| o.to_string()).unwrap_or_default() />
                    <input type="hidden" name="isPastOrder" value=past.to_string() />
                    <p class="field">
                        <label for="chat-body">{ctx.t("help.chat.message")}</label>
                        <textarea id="chat-body" name="body" rows="3" required maxlength="4000" data-testid="chat-body"></textarea>
                    </p>
                    <button type="submit" class="button button--primary" data-testid="chat-send">{ctx.t("help.chat.send")}</button>
                </form>
                <section class="help-other" aria-labelledby="chat-methods-title">
                    <h2 id="chat-methods-title">{ctx.t("help.other.title")}</h2>
                    <ContactMethods methods=config.contact_methods.clone() />
                </section>
            </HelpFrame>
        </div>
    }
}
