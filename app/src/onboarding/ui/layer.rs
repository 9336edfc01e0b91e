//! The onboarding layer's view: cookie consent for everyone; for signed-in members the popins,
//! the data-partner banner and (home page, phones) the app-download banner. Every control
//! is a plain form posting to `/onboarding/form/<kind>`, so it works before the WASM app
//! loads.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::onboarding::rules::{consent_accepted, PopinType, CONSENT_CATEGORIES};

/// The target of one kind of the layer's forms (`server/src/forms/onboarding.rs`: one
/// route each): `consent`, `popin`, `adot`, `app`.
pub fn form_action(kind: &str) -> String {
    format!("/onboarding/form/{kind}")
}

fn hidden(ctx: &RequestCtx, back: &str) -> impl IntoView {
    view! {
        <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
        <input type="hidden" name="back" value=back.to_string() />
    }
}

#[component]
pub fn OnboardingLayer(back: String, home: bool) -> impl IntoView {
    let ctx = RequestCtx::current();
    let view_state = ctx.onboarding.clone();
    let consent_banner = view_state
        .consent
        .is_none()
        .then(|| view! { <ConsentBanner back=back.clone() /> });
    let popin = view_state
        .popin
        .and_then(|(code, version)| PopinType::from_code(code).map(|k| (k, version)))
        .map(|(kind, version)| view! { <PopinModal kind version back=back.clone() /> });
    let adot = (view_state.adot_banner && view_state.popin.is_none())
        .then(|| view! { <AdotBanner back=back.clone() /> });
    let app = (view_state.app_banner && home).then(|| view! { <AppBanner back=back.clone() /> });
    // Scripts of a consent category run only once it is accepted (C0002: performance):
    // the diagnostics (Core Web Vitals, metrics batch, error log with breadcrumbs).
    let perf = consent_accepted(&view_state.consent, "C0002")
        .then(crate::diagnostics::ui::DiagnosticsScript);
    // The advertising script, behind its loader (spec 000 §4 advertising blocker): only
    // with the behaviour category (C0004) accepted, and not for the control of the
    // sponsored banners holdback (`*_sponsored_banners`).
    let sponsored = ctx
        .experiments
        .on(crate::model::experiments::Feature::SponsoredBanners);
    let ads = (sponsored && consent_accepted(&view_state.consent, "C0004")).then(|| {
        view! {
            <script type="module" src=crate::ui::assets::script("ads") data-consent="C0004"
                data-ads-src=crate::ui::assets::script("ads-demo")></script>
        }
    });
    view! {
        {popin}
        {adot}
        {app}
        {consent_banner}
        {perf}
        {ads}
    }
}

#[component]
fn ConsentBanner(back: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <section class="consent" role="dialog" aria-labelledby="consent-title" data-testid="consent-banner">
            <h2 id="consent-title">{ctx.t("consent.title")}</h2>
            <p>{ctx.t("consent.text")}</p>
            <form method="post" action=form_action("consent") class="consent__form">
                {hidden(&ctx, &back)}
                <details class="consent__details">
                    <summary>{ctx.t("consent.customize")}</summary>
                    {CONSENT_CATEGORIES
                        .iter()
                        .map(|c| {
                            let mandatory = *c == "C0001";
                            view! {
                                <label class="consent__category">
                                    <input type="checkbox" name="categories" value=*c checked=mandatory disabled=mandatory />
                                    {ctx.t(&format!("consent.{c}"))}
                                </label>
                            }
                        })
                        .collect_view()}
                    <button class="button" type="submit" name="choice" value="custom">{ctx.t("consent.save")}</button>
                </details>
                <div class="consent__actions">
                    <button class="button" type="submit" name="choice" value="none" data-testid="consent-refuse">{ctx.t("consent.refuse")}</button>
                    <button class="button button--primary" type="submit" name="choice" value="all" data-testid="consent-accept">{ctx.t("consent.accept")}</button>
                </div>
            </form>
        </section>
    }
}

#[component]
fn PopinModal(kind: PopinType, version: i64, back: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let key = kind.key();
    let brand = ctx.site().brand.name();
    let accept_label = ctx.t(&format!("popin.{key}.accept"));
    // What the popin gives (spec 000 §3 voucherData, the opt-ins' rewards) and its picture.
    let reward = crate::onboarding::rules::reward_of(kind).map(|r| {
        ctx.t_with(
            &format!("popin.reward.{key}"),
            &[
                ("amount", &ctx.money(r.value)),
                ("days", &r.valid_days.to_string()),
            ],
        )
    });
    let image = crate::onboarding::rules::popin_image(kind);
    view! {
        <div class="modal-backdrop" data-leave>
            <section class="modal" role="dialog" aria-modal="true" aria-labelledby="popin-title" data-testid="popin" data-popin-type=key>
                {image.map(|src| view! { <img class="modal__image" src=src alt="" width="120" height="120" data-testid="popin-image" /> })}
                <h2 id="popin-title">{ctx.t_with(&format!("popin.{key}.title"), &[("brand", brand)])}</h2>
                <p>{ctx.t_with(&format!("popin.{key}.text"), &[("brand", brand)])}</p>
                {reward.map(|text| view! { <p class="modal__reward" data-testid="popin-reward">{text}</p> })}
                <form method="post" action=form_action("popin") class="modal__form">
                    {hidden(&ctx, &back)}
                    <input type="hidden" name="popinType" value=(kind as i64).to_string() />
                    <input type="hidden" name="version" value=version.to_string() />
                    {(kind == PopinType::Birthdate).then(|| view! { <BirthdateField /> })}
                    {(kind == PopinType::TermsAndConditions).then(|| view! {
                        <a href="/registration/generalconditions" target="_blank" rel="noopener" data-testid="popin-terms-read">{ctx.t("popin.terms.read")}</a>
                    })}
                    <div class="modal__actions">
                        <button class="button" type="submit" name="action" value="close" data-testid="popin-close">{ctx.t("popin.close")}</button>
                        <button class="button button--primary" type="submit" name="action" value="accept" data-testid="popin-accept">{accept_label}</button>
                    </div>
                </form>
            </section>
        </div>
    }
}

/// The birth-date popin's field; a date the server refused comes back as typed, with why.
#[component]
fn BirthdateField() -> impl IntoView {
    let ctx = RequestCtx::current();
    let draft = crate::ui::draft::read::<super::draft::PopinDraft>();
    let typed = draft
        .as_ref()
        .map(|d| d.birth_date.clone())
        .unwrap_or_default();
    let error = draft.map(|d| ctx.t(&d.error));
    view! {
        <label for="popin-birthdate">{ctx.t("auth.birthdate")}</label>
        <input id="popin-birthdate" name="birthDate" inputmode="numeric" value=typed
            placeholder=ctx.t("auth.birthdate.placeholder") data-testid="popin-birthdate"
            aria-invalid=error.is_some().then_some("true")
            aria-describedby=error.is_some().then_some("popin-birthdate-error")
            data-enhance-focus=error.is_some().then_some("") />
        {error.map(|e| view! { <p class="field__error" id="popin-birthdate-error" role="alert" data-testid="popin-birthdate-error">{e}</p> })}
    }
    .into_any()
}

#[component]
fn AdotBanner(back: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <section class="bottom-banner" aria-labelledby="adot-title" data-testid="adot-banner" data-leave>
            <p id="adot-title">{ctx.t("adot.text")}</p>
            <form method="post" action=form_action("adot")>
                {hidden(&ctx, &back)}
                <button class="button" type="submit" name="action" value="close">{ctx.t("popin.close")}</button>
                <button class="button button--primary" type="submit" name="action" value="accept" data-testid="adot-accept">{ctx.t("adot.accept")}</button>
            </form>
        </section>
    }
}

#[component]
fn AppBanner(back: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let brand = ctx.site().brand.name();
    view! {
        <section class="app-banner" data-testid="app-banner">
            <p>{ctx.t_with("appbanner.text", &[("brand", brand)])}</p>
            <a class="button button--primary" href="/gr/aboutus">{ctx.t("appbanner.open")}</a>
            <form method="post" action=form_action("app")>
                {hidden(&ctx, &back)}
                <button class="app-banner__close" type="submit" aria-label=ctx.t("popin.close") data-testid="app-banner-close">"×"</button>
            </form>
        </section>
    }
}
