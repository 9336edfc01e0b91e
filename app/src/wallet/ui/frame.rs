//! What the three account pages of this area share: the heading and the notice a form
//! post redirected back with (`?notice=` / `?error=`, known keys only, so a link cannot
//! make the page say anything else). The page is the region the enhancement script swaps
//! when one of its forms is sent in place.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::ui::SeoMeta;

/// Keys a redirect may show.
const NOTICES: [&str; 22] = [
    "reauth.error.password",
    "reauth.error.required",
    "reauth.social.required",
    "reauth.social.failed",
    "reauth.social.fresh",
    "auth.error.too_many",
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

#[component]
pub fn AccountFrame(
    /// `wallet`, `communications` or `vouchers`.
    page: &'static str,
    title: String,
    path: String,
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
        <div class="account-page" data-account-page=page data-enhance-region="account">
            <h1>{title}</h1>
            <p class="account-notice" data-testid="account-notice" role="status" aria-live="polite" hidden=notice.is_none()
                data-enhance-focus=notice.map(|_| "")>
                {notice.map(|k| ctx.t(k))}
                // A voucher chosen goes with the next order: the cart is one step away.
                {(notice == Some("vouchers.notice.selected")).then(|| view! { " "<a href="/cart">{ctx.t("vouchers.to_cart")}</a> })}
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
