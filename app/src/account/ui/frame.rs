//! What the account pages share: the heading, the tabs of spec 001 §2 (manage, configure my
//! communications, deactivate, delete forever), the notice a form post redirected back with
//! (`?notice=` / `?error=`, known keys only, so a link cannot make the page say anything
//! else), the texts the script may show, and the script (loaded by these pages only).
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::text::keys::KeyFilter;
use crate::ui::SeoMeta;

/// The target of one of these pages' forms (`server/src/forms/account.rs`: one route per
/// action).
pub fn form_action(action: &str) -> String {
    format!("/myaccount/form/{action}")
}

/// Keys a redirect may show.
const NOTICES: [&str; 23] = [
    "reauth.error.password",
    "reauth.error.required",
    "reauth.social.required",
    "reauth.social.failed",
    "reauth.social.fresh",
    "myprofile.text.personaldata.notification",
    "myprofile.sessions.ended",
    "myprofile.email.notification",
    "myprofile.email.confirmed",
    "myprofile.password.notification",
    "myprofile.password.error.missing_field",
    "myprofile.password.error.not_valid",
    "myprofile.password.error.not_identical",
    "myprofile.email.error.link",
    "auth.email.taken",
    "auth.error.too_many",
    "account.deactivate.error.reason",
    "account.delete.error.payment",
    "errors.general_retry.notification",
    "errors.session_expired",
    "errors.csrf.notification",
    "account.deactivate.done",
    "account.delete.done",
];

pub fn known_notice(key: &str) -> Option<&'static str> {
    NOTICES.iter().copied().find(|k| *k == key)
}

/// One of the account tabs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Manage,
    Deactivate,
    Delete,
}

#[component]
pub fn ProfileFrame(
    /// `home` or `personal`.
    page: &'static str,
    title: String,
    path: String,
    tab: Tab,
    children: Children,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let notice = query.get("notice").and_then(|k| known_notice(&k));
    let error = query.get("error").and_then(|k| known_notice(&k));
    let brand = ctx.site().brand.name();
    let description = ctx.t_with("page.description", &[("page", &title), ("brand", brand)]);
    let current = move |t: Tab| (t == tab).then_some("page");
    view! {
        <SeoMeta title=title.clone() description path indexable=false />
        // The region every form of the page answers into (the shell module then loads the
        // form glue: the enhancement and the key filters).
        <div class="account-page profile-page" data-profile-page=page data-enhance-region="profile">
            <h1>{title}</h1>
            <nav class="profile-tabs" aria-label=ctx.t("account.tabs.label") data-testid="account-tabs">
                <a href="/myaccount" aria-current=current(Tab::Manage) data-testid="tab-manage">{ctx.t("account.tabs.manage")}</a>
                <a href="/communications" data-testid="tab-communications">{ctx.t("account.tabs.communications")}</a>
                <a href="/myaccount?tab=deactivate" aria-current=current(Tab::Deactivate) data-testid="tab-deactivate">{ctx.t("account.tabs.deactivate")}</a>
                <a href="/myaccount?tab=delete" aria-current=current(Tab::Delete) data-testid="tab-delete">{ctx.t("account.tabs.delete")}</a>
            </nav>
            // A notice is read out after an enhanced answer; an error takes the focus.
            <p class="account-notice" data-testid="account-notice" role="status" aria-live="polite" hidden=notice.is_none()
                data-enhance-announce=notice.map(|_| "")>
                {notice.map(|k| ctx.t(k))}
            </p>
            <p class="account-notice account-notice--error" data-testid="account-error" role="alert" hidden=error.is_none()
                data-enhance-focus=error.map(|_| "")>
                {error.map(|k| ctx.t(k))}
            </p>
            {children()}
        </div>
    }
}

/// The hidden field every form of these pages carries: the XSRF token.
#[component]
pub fn FormBase() -> impl IntoView {
    let xsrf = RequestCtx::current().xsrf;
    view! { <input type="hidden" name="_xsrf" value=xsrf /> }
}

/// A labelled text input with its error slot. `field` is the `fieldErrors` name.
#[component]
pub fn TextField(
    id: &'static str,
    name: &'static str,
    field: &'static str,
    label: String,
    value: String,
    error: Option<String>,
    #[prop(default = "text")] kind: &'static str,
    #[prop(default = "off")] autocomplete: &'static str,
    #[prop(default = "120")] maxlength: &'static str,
    /// The key filter of spec 000 §5 the browser applies while typing.
    #[prop(optional)]
    filter: Option<KeyFilter>,
    #[prop(optional)] hint: Option<String>,
    #[prop(optional)] inputmode: Option<&'static str>,
    #[prop(default = false)] required: bool,
) -> impl IntoView {
    let err_id = format!("{id}-error");
    let hint_id = format!("{id}-hint");
    let described = if hint.is_some() {
        format!("{hint_id} {err_id}")
    } else {
        err_id.clone()
    };
    let invalid = error.is_some().then_some("true");
    let no_error = error.is_none();
    view! {
        <p class="field" data-field=field>
            <label for=id>{label}</label>
            {hint.map(|h| view! { <span class="account-hint" id=hint_id>{h}</span> })}
            <input id=id name=name type=kind autocomplete=autocomplete maxlength=maxlength
                value=value aria-invalid=invalid aria-describedby=described data-key-filter=filter.map(KeyFilter::attr)
                inputmode=inputmode required=required data-testid=format!("field-{name}") />
            <span class="field__error" id=err_id data-error-for=field hidden=no_error>{error}</span>
        </p>
    }
}

/// A dialog that tells what a form did (the email change's link sent, the password changed):
/// open when the redirect says `?dialog=<name>`, shown as a modal with the script and in
/// the page without; its button closes it either way (`method="dialog"`).
#[component]
pub fn DoneDialog(id: &'static str, open: bool, title: String, body: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let title_id = format!("{id}-title");
    view! {
        <dialog id=id class="account-dialog" aria-labelledby=title_id.clone() data-testid=id open=open data-enhance-modal="">
            <h2 id=title_id.clone()>{title}</h2>
            <p>{body}</p>
            <form method="dialog">
                <button type="submit" class="button button--primary">{ctx.t("account.close")}</button>
            </form>
        </dialog>
    }
}

/// Which `DoneDialog` the redirect opens (`?dialog=`), if any.
pub fn open_dialog() -> Option<String> {
    use_query_map().get_untracked().get("dialog")
}
