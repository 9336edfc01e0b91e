//! `/gr/sponsorship` (members only): the member's personal code, the registration link
//! to share (it pre-fills `mgmcode` and `godfatherid`), what a sponsor earns, the members
//! they brought and the reward vouchers (also listed on `/vouchers-promotions`). Server
//! HTML only: nothing here needs a script.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::sponsorship::api::fetch_sponsorship;
use crate::sponsorship::model::Sponsorship;
use crate::ui::error_template::ErrorNotice;
use crate::ui::SeoMeta;

#[component]
pub fn SponsorshipPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let title = ctx.t("page.sponsorship");
    let brand = ctx.site().brand.name();
    let description = ctx.t_with("page.description", &[("page", &title), ("brand", brand)]);
    let load = Resource::new(|| (), |_| fetch_sponsorship());
    view! {
        <SeoMeta title=title.clone() description path indexable=false />
        <div class="account-page sponsorship" data-testid="sponsorship-page">
            <h1>{title}</h1>
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {move || Suspend::new(async move {
                    match load.await {
                        Ok(s) => view! { <Details s /> }.into_any(),
                        Err(_) => view! { <ErrorNotice /> }.into_any(),
                    }
                })}
            </Suspense>
        </div>
    }
}

#[component]
fn Details(s: Sponsorship) -> impl IntoView {
    let ctx = RequestCtx::current();
    let intro = ctx.t_with(
        "sponsorship.intro",
        &[
            ("value", &ctx.money(s.reward_value)),
            ("min", &ctx.money(s.reward_min_order)),
        ],
    );
    let subject = ctx.t_with(
        "sponsorship.mail.subject",
        &[("brand", ctx.site().brand.name())],
    );
    let body = ctx.t_with(
        "sponsorship.mail.body",
        &[("link", &s.share_link), ("code", &s.code)],
    );
    let mailto = format!(
        "mailto:?subject={}&body={}",
        crate::routes::encode_query_value(&subject),
        crate::routes::encode_query_value(&body)
    );
    let empty = s.sponsored.is_empty();
    let no_rewards = s.rewards.is_empty();
    view! {
        <p class="sponsorship__intro">{intro}</p>
        <section class="account-section" aria-labelledby="sponsorship-code-title">
            <h2 id="sponsorship-code-title">{ctx.t("sponsorship.code.title")}</h2>
            <p class="sponsorship__code" data-testid="sponsorship-code">{s.code.clone()}</p>
            <label for="sponsorship-link">{ctx.t("sponsorship.link.label")}</label>
            <input id="sponsorship-link" class="sponsorship__link" type="url" readonly value=s.share_link.clone() data-testid="sponsorship-link" />
            <p><a class="button button--primary" href=mailto data-testid="sponsorship-mail">{ctx.t("sponsorship.mail.share")}</a></p>
        </section>
        <section class="account-section" aria-labelledby="sponsorship-friends-title">
            <h2 id="sponsorship-friends-title">{ctx.t("sponsorship.friends.title")}</h2>
            <p class="account-empty" hidden=!empty data-testid="sponsorship-empty">{ctx.t("sponsorship.friends.empty")}</p>
            <ul class="sponsorship__list" data-testid="sponsorship-friends">
                {s.sponsored.iter().map(|m| {
                    let status = match m.rewarded_at {
                        Some(at) => ctx.t_with("sponsorship.friends.rewarded", &[("date", &ctx.date(at))]),
                        None => ctx.t("sponsorship.friends.waiting"),
                    };
                    let joined = ctx.t_with("sponsorship.friends.joined", &[("date", &ctx.date(m.joined_at))]);
                    view! {
                        <li data-testid="sponsored-member">
                            <strong>{m.first_name.clone()}</strong>" · "{joined}" · "{status}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
        <section class="account-section" aria-labelledby="sponsorship-rewards-title">
            <h2 id="sponsorship-rewards-title">{ctx.t("sponsorship.rewards.title")}</h2>
            <p class="account-empty" hidden=!no_rewards>{ctx.t("sponsorship.rewards.empty")}</p>
            <ul class="sponsorship__list" data-testid="sponsorship-rewards">
                {s.rewards.iter().map(|r| {
                    let until = r.valid_until.map(|u| ctx.t_with("vouchers.valid_until", &[("date", &ctx.date(u))])).unwrap_or_default();
                    let state = ctx.t(if r.used { "sponsorship.rewards.used" } else { "sponsorship.rewards.open" });
                    view! {
                        <li data-testid="sponsorship-reward" data-code=r.code.clone()>
                            <strong>{r.code.clone()}</strong>" · "{ctx.money(r.value)}" · "{until}" · "{state}
                        </li>
                    }
                }).collect_view()}
            </ul>
            <p><a href="/vouchers-promotions">{ctx.t("sponsorship.rewards.link")}</a></p>
        </section>
    }
}
