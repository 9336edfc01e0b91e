//! The help centre's pages, server-rendered, without islands (no WASM weight for anyone):
//! every form posts (Post/Redirect/Get through `server::forms::help`) and the enhancement
//! script sends the contact form and its rating in place.
pub mod centre;
pub mod chat;
pub mod draft;
pub mod form;
pub mod pages;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::help::rules::ContactMethod;
use crate::ui::SeoMeta;

/// Keys a redirect may show (`?notice=` / `?error=`): known keys only, so a link cannot
/// make the page say anything else.
const NOTICES: [&str; 17] = [
    "help.notice.sent",
    "help.notice.thanks",
    "help.notice.reply_sent",
    "help.notice.read",
    "help.notice.chat_sent",
    "help.errors.form",
    "help.errors.file_type",
    "help.errors.file_count",
    "help.errors.file_size",
    "help.errors.total_size",
    "help.errors.upload_quota",
    "help.errors.storage_full",
    "help.errors.tickets_closed",
    "help.errors.reply",
    "help.errors.send",
    "errors.not_found",
    "errors.general_retry.notification",
];

pub fn known_notice(key: &str) -> Option<&'static str> {
    NOTICES.iter().copied().find(|k| *k == key)
}

/// The heading, the SEO tags (never indexed) and the redirect's notice of a help page.
#[component]
pub fn HelpFrame(
    /// `helpform`, `centre`, `chat`, `selector` or `errors`.
    page: &'static str,
    title: String,
    path: String,
    children: Children,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let notice = query.get("notice").and_then(|k| known_notice(&k));
    // A form refused for its fields says so itself, above them: not twice.
    let by_fields = query.get("fields").is_some_and(|f| !f.is_empty());
    let error = query
        .get("error")
        .filter(|_| !by_fields)
        .and_then(|k| known_notice(&k));
    let brand = ctx.site().brand.name();
    let description = ctx.t_with("page.description", &[("page", &title), ("brand", brand)]);
    view! {
        <SeoMeta title=title.clone() description path indexable=false />
        <div class="help-page" data-help-page=page>
            <h1>{title}</h1>
            // "Sent" is the outcome of the contact form (a ticket made): a mark of its own.
            <p class="account-notice" data-testid=if notice == Some("help.notice.sent") { "help-sent" } else { "help-notice" }
                role="status" aria-live="polite" hidden=notice.is_none() data-enhance-focus=notice.map(|_| "")>
                {notice.map(|k| ctx.t(k))}
            </p>
            <p class="account-notice account-notice--error" data-testid="help-error" role="alert" hidden=error.is_none()>
                {error.map(|k| ctx.t(k))}
            </p>
            {children()}
        </div>
    }
}

/// The hidden XSRF field of the no-script forms.
#[component]
pub fn Xsrf() -> impl IntoView {
    view! { <input type="hidden" name="_xsrf" value=RequestCtx::current().xsrf /> }
}

/// A link that opens in a new window, saying so to assistive technologies.
#[component]
pub fn NewWindowLink(
    href: String,
    label: String,
    #[prop(optional)] testid: &'static str,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <a href=href target="_blank" rel="noopener" class="help-link" data-testid=testid>
            {label}
            <span class="visually-hidden">{format!(" ({})", ctx.t("help.new_window"))}</span>
        </a>
    }
}

/// The site's other ways to reach support (WhatsApp, Phone, Messenger).
#[component]
pub fn ContactMethods(methods: Vec<ContactMethod>) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <ul class="help-methods" data-testid="contact-methods">
            {methods.into_iter().map(|m| {
                let name = ctx.t(&format!("help.method.{}", m.platform_name.to_ascii_lowercase()));
                let external = m.href.starts_with("http");
                view! {
                    <li data-platform=m.platform_name.clone()>
                        <span class="help-methods__name">{name}</span>" "
                        {if external {
                            view! { <NewWindowLink href=m.href.clone() label=m.label.clone() /> }.into_any()
                        } else {
                            view! { <a href=m.href.clone() class="help-link">{m.label.clone()}</a> }.into_any()
                        }}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// Whether a help page's failed load is a "not found" (the member's own rows only): that
/// keeps its notice; any other failure shows the post-sales error
/// ([`pages::PostSalesErrorNotice`]).
pub fn is_not_found(e: &leptos::server_fn::ServerFnError) -> bool {
    e.to_string().contains("errors.not_found")
}

/// The label of a reason / sub-reason in the page's language.
pub fn reason_label(ctx: &RequestCtx, id: &str) -> String {
    ctx.t(&format!("help.reason.{id}"))
}

pub fn sub_reason_label(ctx: &RequestCtx, id: &str) -> String {
    ctx.t(&format!("help.subreason.{id}"))
}
