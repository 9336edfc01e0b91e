//! What the three account pages of this area share: the heading, the notice a form post
//! redirected back with (`?notice=` / `?error=`, known keys only, so a link cannot make
//! the page say anything else), the live region the script writes to, the texts the
//! script may show, and the script itself (loaded by these pages only).
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::ui::SeoMeta;

/// Loaded by the wallet, communications and vouchers pages only: no island, so it costs
/// other pages nothing.
pub const SCRIPT: &str = "/js/wallet.js";

/// Keys a redirect may show.
const NOTICES: [&str; 16] = [
    "myprofile.text.bank_details.notification",
    "errors.something_wrong.notification",
    "errors.general_retry.notification",
    "errors.not_found",
    "wallet.notice.iban_deleted",
    "wallet.notice.card_deleted",
    "communications.notice.saved",
    "communications.notice.cancelled",
    "communications.notice.brand_followed",
    "communications.notice.brand_unfollowed",
    "vouchers.notice.selected",
    "vouchers.notice.unselected",
    "cart.errors.frozen",
    "cart.errors.voucher_member_limit",
    "cart.errors.voucher_exhausted",
    "cart.errors.voucher_unknown",
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

#[component]
pub fn AccountFrame(
    /// `wallet`, `communications` or `vouchers`.
    page: &'static str,
    title: String,
    path: String,
    /// Texts the script needs beyond the notices.
    messages_json: String,
    children: Children,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let notice = query.get("notice").and_then(|k| known_notice(&k));
    let error = query.get("error").and_then(|k| known_notice(&k));
    let brand = ctx.site().brand.name();
    let description = ctx.t_with("page.description", &[("page", &title), ("brand", brand)]);
    view! {
        <SeoMeta title=title.clone() description path indexable=false />
        <div class="account-page" data-account-page=page data-messages=messages_json>
            <h1>{title}</h1>
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
