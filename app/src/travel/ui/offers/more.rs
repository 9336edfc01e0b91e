//! "More offers": a link to the same page one page further (`?page=N`), which without
//! scripts shows every page up to N. `frontend-react/src/pages/travel-offers.ts` turns it into an in-place
//! append (spec 001 §4: paging appends): it fetches that page's HTML, appends the cards of
//! the new page only (`data-page`), hydrates their favourite islands and tells the map.
//! The texts it needs travel in data attributes, in the page's language.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::travel::rules::with_page;

/// `path` and `search` address the page showing the list; `next` is the 0-based page to
/// append.
#[component]
pub fn MoreOffers(
    path: String,
    search: String,
    shown: u32,
    total: u32,
    next: u32,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    // `page` in the URL is 1-based.
    let href = format!("{path}{}", with_page(&search, next + 1));
    let status = ctx.t_with(
        "travel.offer.shown",
        &[("shown", &shown.to_string()), ("total", &total.to_string())],
    );
    view! {
        <div class="trv-more" data-total=total data-template=ctx.t("travel.offer.shown") data-loading=ctx.t("common.loading")>
            <p class="trv-more__status" aria-live="polite" data-testid="offers-shown">{status}</p>
            <p class="error trv-more__error" role="alert" hidden>{ctx.t("errors.general_retry.notification")}</p>
            {(shown < total).then(|| view! {
                <a class="button button--primary trv-more__link" href=href rel="next" data-testid="more-offers"
                    data-more-offers="" data-page=next>
                    {ctx.t("travel.offer.more")}
                </a>
            })}
        </div>
    }
}
