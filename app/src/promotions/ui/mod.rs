//! `/vouchers-promotions`: the member's vouchers and the site's promotions in two lists
//! (code, value, scope, validity, uses left), each with a toggle that puts it into the
//! basket or takes it out (the cart applies what is selected), and a print link.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::model::experiments::Feature;
use crate::promotions::api::fetch_vouchers;
use crate::promotions::model::{VoucherEntry, VouchersAndPromotions};
use crate::ui::error_template::ErrorNotice;
use crate::wallet::ui::frame::{AccountFrame, FormBase};

/// The target of one of the page's forms (`server/src/forms/promotions.rs`: one route per
/// action).
pub fn form_action(action: &str) -> String {
    format!("/vouchers-promotions/form/{action}")
}

#[component]
pub fn VouchersPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let load = Resource::new(|| (), |_| fetch_vouchers());
    view! {
        <AccountFrame page="vouchers" title=ctx.t("page.vouchers") path>
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {move || Suspend::new(async move {
                    match load.await {
                        Ok(all) => view! { <Lists all /> }.into_any(),
                        Err(_) => view! { <ErrorNotice /> }.into_any(),
                    }
                })}
            </Suspense>
        </AccountFrame>
    }
}

/// `10 %` or `5,00 €` off products or shipping.
fn value_text(ctx: &RequestCtx, v: &VoucherEntry) -> String {
    let amount = if v.discount_type == "PERCENT" {
        format!("{} %", v.value)
    } else {
        ctx.money(v.value)
    };
    let scope = if v.scope == "SHIPPING" {
        "vouchers.scope.shipping"
    } else {
        "vouchers.scope.product"
    };
    ctx.t_with(scope, &[("value", &amount)])
}

fn entry(v: VoucherEntry) -> impl IntoView {
    let ctx = RequestCtx::current();
    let validity = match (v.valid_from, v.valid_until) {
        (_, Some(until)) => ctx.t_with("vouchers.valid_until", &[("date", &ctx.date(until))]),
        (Some(from), None) => ctx.t_with("vouchers.valid_from", &[("date", &ctx.date(from))]),
        (None, None) => ctx.t("vouchers.valid_always"),
    };
    let uses = ctx.t_with("vouchers.uses_left", &[("n", &v.uses_left.to_string())]);
    let usable = v.uses_left > 0;
    let participation = v
        .participation_id
        .map(|p| p.to_string())
        .unwrap_or_default();
    let label = ctx.t(if v.selected {
        "vouchers.unselect"
    } else {
        "vouchers.select"
    });
    view! {
        <li class="voucher-card" data-testid="voucher-card" data-code=v.code.clone() data-selected=v.selected.to_string()>
            <p class="voucher-card__code">{v.code.clone()}</p>
            <p class="voucher-card__value">{value_text(&ctx, &v)}</p>
            <p class="voucher-card__meta">{validity}" · "{uses}</p>
            {(usable || v.selected).then(|| view! {
                <form method="post" action=form_action("toggle") data-enhance="">
                    <FormBase />
                    <input type="hidden" name="voucherId" value=v.voucher_id />
                    <input type="hidden" name="participationId" value=participation />
                    <button type="submit" class="button" aria-pressed=v.selected.to_string() data-testid="voucher-toggle">{label}</button>
                </form>
            })}
        </li>
    }
}

/// The two lists' titles and empty texts: classic, or revamped (experiment
/// `member_vouchers_revamp`: titles that count what each list holds, and empty texts that
/// say where vouchers come from and when promotions return).
struct ListTexts {
    version: &'static str,
    mine_title: &'static str,
    mine_empty: &'static str,
    promotions_title: &'static str,
    promotions_empty: &'static str,
}

impl ListTexts {
    const fn of(revamped: bool) -> ListTexts {
        if revamped {
            ListTexts {
                version: "revamped",
                mine_title: "vouchers.revamp.mine.title",
                mine_empty: "vouchers.revamp.mine.empty",
                promotions_title: "vouchers.revamp.promotions.title",
                promotions_empty: "vouchers.revamp.promotions.empty",
            }
        } else {
            ListTexts {
                version: "classic",
                mine_title: "vouchers.mine.title",
                mine_empty: "vouchers.mine.empty",
                promotions_title: "vouchers.promotions.title",
                promotions_empty: "vouchers.promotions.empty",
            }
        }
    }
}

#[component]
fn Lists(all: VouchersAndPromotions) -> impl IntoView {
    let ctx = RequestCtx::current();
    // The print form's answer: the printable page's link (a token made for the member).
    let printed = use_query_map()
        .get_untracked()
        .get("print")
        .filter(|t| !t.is_empty() && t.len() <= 128 && t.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(|t| format!("/vouchers/print/{t}"));
    let no_vouchers = all.vouchers.is_empty();
    let no_promotions = all.promotions.is_empty();
    let texts = ListTexts::of(ctx.experiments.on(Feature::VouchersRevamp));
    // The classic titles hold no count; the revamped ones do.
    let (mine, promotions) = (
        all.vouchers.len().to_string(),
        all.promotions.len().to_string(),
    );
    view! {
        <section class="account-section" aria-labelledby="my-vouchers-title" data-titles=texts.version>
            <h2 id="my-vouchers-title">{ctx.t_with(texts.mine_title, &[("n", &mine)])}</h2>
            {no_vouchers.then(|| view! { <p class="account-empty" data-testid="vouchers-empty">{ctx.t(texts.mine_empty)}</p> })}
            <ul class="voucher-list" data-testid="my-vouchers">{all.vouchers.into_iter().map(entry).collect_view()}</ul>
        </section>
        <section class="account-section" aria-labelledby="promotions-title">
            <h2 id="promotions-title">{ctx.t_with(texts.promotions_title, &[("n", &promotions)])}</h2>
            {no_promotions.then(|| view! { <p class="account-empty" data-testid="promotions-empty">{ctx.t(texts.promotions_empty)}</p> })}
            <ul class="voucher-list" data-testid="promotions">{all.promotions.into_iter().map(entry).collect_view()}</ul>
        </section>
        <section class="account-section">
            <p class="account-hint">{ctx.t("vouchers.cart_hint")}" "<a href="/cart" data-testid="vouchers-cart-link">{ctx.t("vouchers.to_cart")}</a></p>
            <form method="post" action=form_action("print") data-enhance="" data-testid="print-form" id="print-form">
                <FormBase />
                <button type="submit" class="button" data-testid="vouchers-print">{ctx.t("vouchers.print")}</button>
            </form>
            <p data-testid="print-link-slot">
                {printed.map(|href| view! {
                    <a href=href target="_blank" rel="noopener" data-testid="print-link" data-enhance-focus="">{ctx.t("vouchers.print_open")}</a>
                })}
            </p>
        </section>
    }
}
