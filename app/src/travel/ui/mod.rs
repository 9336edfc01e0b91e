//! The travel pages: the travel home, the search and its results, the catalogs with their
//! filters and map, the product with its configurator and price calendar, the checkout.
pub mod catalog;
pub mod checkout;
pub mod error_page;
pub mod home;
pub mod offers;
pub mod product;
pub mod search;

use leptos::prelude::*;

/// The date-change options of a flexible search (spec 000 §9: ±1, 3 or 7 days around the
/// check-in, or the exact date), `chosen` selected: the search form's and the catalog
/// filters' `flex` select.
pub(crate) fn flex_options(ctx: &crate::context::RequestCtx, chosen: u8) -> impl IntoView {
    let days = crate::travel::rules::FLEX_DAYS.map(|d| {
        let label = if d == 1 {
            ctx.t("travel.flex.one")
        } else {
            ctx.t_with("travel.flex.days", &[("n", &d.to_string())])
        };
        view! { <option value=d.to_string() selected=chosen == d>{label}</option> }
    });
    view! {
        <option value="" selected=chosen == 0>{ctx.t("travel.flex.exact")}</option>
        {days.into_iter().collect_view()}
    }
}
