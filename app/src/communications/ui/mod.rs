//! `/communications` and `/memberaccount/communications`: newsletters (channel and
//! frequency from the site's options), the opt-ins, commercial partners and brand alerts,
//! each a form that posts without scripts. Choosing NONE opens the cancel survey: a
//! `<dialog>` the script opens, or, without scripts, the same dialog rendered open when the
//! post redirects back with `?survey=1`.
mod brands;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::communications::api::fetch_communications;
use crate::communications::model::{CancelReasons, CommunicationSettings};
use crate::context::RequestCtx;
use crate::ui::error_template::ErrorNotice;
use crate::wallet::ui::frame::{AccountFrame, FormBase};

/// The target of one of the page's forms (`server/src/forms/communications.rs`: one route
/// per action).
pub fn form_action(action: &str) -> String {
    format!("/communications/form/{action}")
}

#[component]
pub fn CommunicationsPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let load = Resource::new(|| (), |_| fetch_communications());
    let survey = use_query_map().get_untracked().get("survey").as_deref() == Some("1");
    view! {
        <AccountFrame page="communications" title=ctx.t("page.communications") path>
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {move || Suspend::new(async move {
                    match load.await {
                        Ok((settings, reasons)) => view! { <Communications settings reasons survey /> }.into_any(),
                        Err(_) => view! { <ErrorNotice /> }.into_any(),
                    }
                })}
            </Suspense>
        </AccountFrame>
    }
}

fn choice_key(group: &str, wire: &str) -> String {
    format!("communications.{group}.{}", wire.to_ascii_lowercase())
}

/// `member_communications_revamp`: what the member receives, in four lines, each a link to
/// the section that changes it; the sections follow as in the classic page.
#[component]
fn Summary(settings: CommunicationSettings) -> impl IntoView {
    let ctx = RequestCtx::current();
    let yes_no = |on: bool| {
        ctx.t(if on {
            "communications.summary.yes"
        } else {
            "communications.summary.no"
        })
    };
    let newsletters = ctx.t_with(
        "communications.summary.newsletters",
        &[
            (
                "channel",
                &ctx.t(&choice_key(
                    "channel",
                    settings.communication_channel.wire(),
                )),
            ),
            (
                "model",
                &ctx.t(&choice_key("model", settings.communication_model.wire())),
            ),
        ],
    );
    let optins = ctx.t_with(
        "communications.summary.optins",
        &[
            ("perso", &yes_no(settings.is_optin_perso)),
            ("partner", &yes_no(settings.is_optin_partner)),
        ],
    );
    let partners = &settings.member_commercial_partner_settings;
    let accepted = partners.iter().filter(|p| p.status).count().to_string();
    let partners = ctx.t_with(
        "communications.summary.partners",
        &[("n", &accepted), ("total", &partners.len().to_string())],
    );
    let brands = ctx.t_with(
        "communications.summary.brands",
        &[("n", &settings.brand_alerts.brands.len().to_string())],
    );
    let lines = [
        ("#newsletters-title", newsletters),
        ("#optins-title", optins),
        ("#partners-title", partners),
        ("#brands-title", brands),
    ];
    view! {
        <section class="account-section account-summary" aria-labelledby="summary-title" data-testid="communications-summary">
            <h2 id="summary-title">{ctx.t("communications.summary.title")}</h2>
            <ul>
                {lines.into_iter().map(|(href, text)| view! { <li><a href=href>{text}</a></li> }).collect_view()}
            </ul>
        </section>
    }
}

#[component]
fn Communications(
    settings: CommunicationSettings,
    reasons: CancelReasons,
    survey: bool,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let channel = settings.communication_channel;
    let model = settings.communication_model;
    let radios = |group: &'static str, name: &'static str, options: Vec<(String, bool)>| {
        options
            .into_iter()
            .map(|(wire, checked)| {
                let id = format!("{name}-{wire}");
                view! {
                    <p class="field field--check">
                        <input type="radio" id=id.clone() name=name value=wire.clone() checked=checked data-testid=id.clone() />
                        <label for=id>{RequestCtx::current().t(&choice_key(group, &wire))}</label>
                    </p>
                }
            })
            .collect_view()
    };
    let channels: Vec<(String, bool)> = settings
        .options
        .channels
        .iter()
        .map(|c| (c.wire().to_string(), *c == channel))
        .collect();
    let models: Vec<(String, bool)> = settings
        .options
        .models
        .iter()
        .map(|m| (m.wire().to_string(), *m == model))
        .collect();
    let subscription = settings
        .subscription_id
        .map(|id| id.to_string())
        .unwrap_or_default();
    let summary = ctx
        .experiments
        .on(crate::model::experiments::Feature::CommunicationsRevamp)
        .then(|| view! { <Summary settings=settings.clone() /> });
    view! {
        {summary}
        <section class="account-section" aria-labelledby="newsletters-title">
            <h2 id="newsletters-title">{ctx.t("communications.newsletters.title")}</h2>
            <form method="post" action=form_action("preferences") data-enhance="" class="account-form" data-testid="preferences-form" id="preferences-form">
                <FormBase />
                <fieldset>
                    <legend>{ctx.t("communications.channel.legend")}</legend>
                    {radios("channel", "communicationChannel", channels)}
                </fieldset>
                <fieldset>
                    <legend>{ctx.t("communications.model.legend")}</legend>
                    {radios("model", "communicationModel", models)}
                </fieldset>
                <button type="submit" class="button button--primary" data-testid="preferences-save">{ctx.t("communications.save")}</button>
            </form>
        </section>
        <section class="account-section" aria-labelledby="optins-title">
            <h2 id="optins-title">{ctx.t("communications.optins.title")}</h2>
            <p class="account-hint">{ctx.t("communications.optins.intro")}</p>
            <form method="post" action=form_action("optins") data-enhance="" class="account-form" data-testid="optins-form" id="optins-form">
                <FormBase />
                <p class="field field--check">
                    <input type="checkbox" id="isOptinPerso" name="isOptinPerso" value="1" checked=settings.is_optin_perso data-testid="optin-perso" />
                    <label for="isOptinPerso">{ctx.t("communications.optins.perso")}</label>
                </p>
                <p class="field field--check">
                    <input type="checkbox" id="isOptinPartner" name="isOptinPartner" value="1" checked=settings.is_optin_partner data-testid="optin-partner" />
                    <label for="isOptinPartner">{ctx.t("communications.optins.partner")}</label>
                </p>
                <button type="submit" class="button button--primary" data-testid="optins-save">{ctx.t("communications.save")}</button>
            </form>
        </section>
        <section class="account-section" aria-labelledby="partners-title">
            <h2 id="partners-title">{ctx.t("communications.partners.title")}</h2>
            <form method="post" action=form_action("partners") data-enhance="" class="account-form" data-testid="partners-form" id="partners-form">
                <FormBase />
                {settings.member_commercial_partner_settings.iter().map(|p| {
                    let id = format!("partner-{}", p.id);
                    view! {
                        <p class="field field--check">
                            <input type="hidden" name="partnerIds" value=p.id />
                            <input type="checkbox" id=id.clone() name="partnerOn" value=p.id checked=p.status data-testid=id.clone() />
                            <label for=id>{p.name.clone()}<span class="account-hint">{p.purpose.clone()}</span></label>
                        </p>
                    }
                }).collect_view()}
                <button type="submit" class="button button--primary" data-testid="partners-save">{ctx.t("communications.save")}</button>
            </form>
        </section>
        <brands::BrandAlertsSection alerts=settings.brand_alerts.clone() />
        // Open in the page without scripts; the enhancement script makes it modal.
        <dialog class="account-dialog" id="cancel-survey" data-testid="cancel-survey" aria-labelledby="survey-title" open=survey
            data-enhance-modal="">
            <form method="post" action=form_action("cancel") data-enhance="" class="account-form" data-testid="survey-form" id="survey-form">
                <FormBase />
                <input type="hidden" name="subscriptionId" value=subscription />
                <fieldset>
                    <legend id="survey-title">{ctx.t("communications.survey.title")}</legend>
                    {reasons.datas.iter().enumerate().map(|(i, r)| {
                        let id = format!("reason-{}", r.id);
                        view! {
                            <p class="field field--check">
                                <input type="radio" id=id.clone() name="cancelReasonId" value=r.id required=i == 0 data-testid=id.clone() />
                                <label for=id>{r.label.clone()}</label>
                            </p>
                        }
                    }).collect_view()}
                </fieldset>
                <button type="submit" class="button button--primary" data-testid="survey-send">{ctx.t("communications.survey.send")}</button>
                <a class="link-button" href="/communications" data-testid="survey-skip">{ctx.t("communications.survey.skip")}</a>
            </form>
        </dialog>
    }
}
