//! What the account pages share: the heading, the tabs of spec 001 §2 (manage, configure my
//! communications, deactivate, delete forever), the notice a form post redirected back with
//! (`?notice=` / `?error=`, known keys only, so a link cannot make the page say anything
//! else), the texts the script may show, and the script (loaded by these pages only).
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::text::keys::KeyFilter;
use crate::ui::SeoMeta;

/// No island: the pages are server-rendered and this small script adds the rest.
pub const SCRIPT: &str = "/js/account.js";
/// The no-script forms' target (`server/src/forms/account.rs`).
pub const FORM_ACTION: &str = "/myaccount/form";

/// Keys a redirect may show.
const NOTICES: [&str; 18] = [
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

/// The texts the script shows, as JSON for `data-messages` (it never builds wording).
pub fn messages(keys: &[&str]) -> String {
    let ctx = RequestCtx::current();
    let map: serde_json::Map<String, serde_json::Value> = keys
        .iter()
        .chain(NOTICES.iter())
        .map(|k| (k.to_string(), serde_json::Value::String(ctx.t(k))))
        .collect();
    serde_json::Value::Object(map).to_string()
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
    messages_json: String,
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
        // A region: the shell module loads the form glue (the key filters) on this page.
        <div class="account-page profile-page" data-profile-page=page data-messages=messages_json data-enhance-region="profile">
            <h1>{title}</h1>
            <nav class="profile-tabs" aria-label=ctx.t("account.tabs.label") data-testid="account-tabs">
                <a href="/myaccount" aria-current=current(Tab::Manage) data-testid="tab-manage">{ctx.t("account.tabs.manage")}</a>
                <a href="/communications" data-testid="tab-communications">{ctx.t("account.tabs.communications")}</a>
                <a href="/myaccount?tab=deactivate" aria-current=current(Tab::Deactivate) data-testid="tab-deactivate">{ctx.t("account.tabs.deactivate")}</a>
                <a href="/myaccount?tab=delete" aria-current=current(Tab::Delete) data-testid="tab-delete">{ctx.t("account.tabs.delete")}</a>
            </nav>
            <p class="account-notice" data-testid="account-notice" role="status" aria-live="polite" hidden=notice.is_none()>
                {notice.map(|k| ctx.t(k))}
            </p>
            <p class="account-notice account-notice--error" data-testid="account-error" role="alert" hidden=error.is_none()>
                {error.map(|k| ctx.t(k))}
            </p>
            {children()}
        </div>
        <script src=SCRIPT defer></script>
    }
}

/// The hidden fields every no-script form of these pages carries.
#[component]
pub fn FormBase(action: &'static str) -> impl IntoView {
    let xsrf = RequestCtx::current().xsrf;
    view! {
        <input type="hidden" name="_xsrf" value=xsrf />
        <input type="hidden" name="action" value=action />
    }
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
