//! A sale's intermediate step (`catalog::gate`): the sale's listing conditions, a server
//! form to accept them (emptying a cart of another kind with it when there is one), and a
//! way back. Shown in place of the sale's catalog or product page until the member
//! answers; the page is theirs alone (`ui::personal::mark_not_shared`).
use leptos::prelude::*;

use crate::catalog::gate::{form_action, SaleGate};
use crate::context::RequestCtx;
use crate::ui::SeoMeta;

/// Messages the form may come back with (`?error=`): only these keys are shown.
const ERRORS: [&str; 3] = [
    "cart.errors.frozen",
    "errors.not_found",
    "errors.general_retry.notification",
];

#[component]
pub fn SaleIntermediate(
    sale_id: i64,
    sale_name: String,
    gate: SaleGate,
    /// The page the member asked for (path and query), where the form returns.
    path: String,
    #[prop(optional)] error: Option<String>,
) -> impl IntoView {
    #[cfg(feature = "ssr")]
    crate::ui::personal::mark_not_shared();
    let ctx = RequestCtx::current();
    let error = error.and_then(|k| ERRORS.iter().find(|e| **e == k).copied());
    let paragraphs = gate
        .conditions
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| view! { <p>{p.to_string()}</p> })
        .collect_view();
    let submit = if gate.cart_to_cancel {
        ctx.t("catalog.intermediate.accept_and_empty")
    } else {
        ctx.t("catalog.intermediate.accept")
    };
    view! {
        <SeoMeta title=sale_name.clone() description=String::new() path=format!("/catalog/{sale_id}/0") indexable=false />
        <section class="intermediate" data-testid="sale-intermediate" aria-labelledby="intermediate-title">
            <h1 id="intermediate-title">{sale_name}</h1>
            <p class="intermediate__intro">{ctx.t("catalog.intermediate.intro")}</p>
            <p class="account-notice account-notice--error" role="alert" hidden=error.is_none()
                data-testid="intermediate-error">{error.map(|k| ctx.t(k))}</p>
            <div class="intermediate__conditions" role="region" tabindex="0"
                aria-label=ctx.t("catalog.intermediate.conditions") data-testid="intermediate-conditions">
                {paragraphs}
            </div>
            {gate.cart_to_cancel.then(|| view! {
                <p class="intermediate__cart" data-testid="intermediate-cart">{ctx.t("catalog.intermediate.cart")}</p>
            })}
            <form method="post" action=form_action(sale_id) class="intermediate__form">
                <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
                <input type="hidden" name="returnTo" value=path />
                {gate.cart_to_cancel.then(|| view! { <input type="hidden" name="emptyCart" value="1" /> })}
                <button type="submit" class="button button--primary" data-testid="intermediate-accept">{submit}</button>
                <a class="intermediate__back" href="/">{ctx.t("catalog.intermediate.back")}</a>
            </form>
        </section>
    }
}
