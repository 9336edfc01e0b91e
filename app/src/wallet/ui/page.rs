//! `/postsales/myaccount/wallet/`: the bank details form (posts without scripts; the
//! script sends it to the REST call and clears a field's error flag as the field changes)
//! with the stored IBAN masked, and the saved cards, each deletable.
use leptos::prelude::*;

use super::draft::{self, Draft};
use super::frame::{AccountFrame, FormBase};
use crate::auth::api::fetch_reauth;
use crate::auth::ui::reauth::{ReauthPassword, ReauthProvider, FIELD};
use crate::context::RequestCtx;
use crate::model::reauth::ReauthView;
use crate::ui::error_template::ErrorNotice;
use crate::wallet::api::fetch_wallet;
use crate::wallet::model::WalletDetails;
use crate::wallet::rules::BankField;

/// The target of one of the page's forms (`server/src/forms/wallet.rs`: one route per action).
pub fn form_action(action: &str) -> String {
    format!("/postsales/myaccount/wallet/form/{action}")
}

/// Where "sign in again with …" comes back to.
const PAGE: &str = "/postsales/myaccount/wallet/";

#[component]
pub fn WalletPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let load = Resource::new(|| (), |_| fetch_wallet());
    let reauth = Resource::new(|| (), |_| fetch_reauth());
    let draft = draft::read();
    view! {
        <AccountFrame page="wallet" title=ctx.t("page.wallet") path>
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {
                    let draft = draft.clone();
                    move || {
                        let draft = draft.clone();
                        Suspend::new(async move {
                            match (load.await, reauth.await) {
                                (Ok(w), Ok(r)) => view! { <Wallet wallet=w draft reauth=r /> }.into_any(),
                                _ => view! { <ErrorNotice /> }.into_any(),
                            }
                        })
                    }
                }
            </Suspense>
        </AccountFrame>
    }
}

#[component]
fn Wallet(wallet: WalletDetails, draft: Draft, reauth: ReauthView) -> impl IntoView {
    let ctx = RequestCtx::current();
    let stored = wallet.iban.clone();
    let guid = stored.as_ref().map(|s| s.id.clone()).unwrap_or_default();
    let field = |f: BankField,
                 label: String,
                 kind: &'static str,
                 autocomplete: &'static str,
                 max: &'static str| {
        let ctx = RequestCtx::current();
        let name = f.wire();
        let id = format!("bank-{name}");
        let err_id = format!("{id}-error");
        let error = draft
            .errors
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, k)| ctx.t(k));
        let value = draft.value(f);
        let invalid = error.is_some().then_some("true");
        let no_error = error.is_none();
        view! {
            <p class="field" data-field=name>
                <label for=id.clone()>{label}</label>
                <input id=id name=name type=kind autocomplete=autocomplete maxlength=max spellcheck="false"
                    value=value aria-invalid=invalid
                    aria-describedby=err_id.clone() data-testid=format!("bank-{name}") />
                <span class="field__error" id=err_id data-error-for=name hidden=no_error>{error}</span>
            </p>
        }
    };
    let confirmation_error = draft
        .errors
        .iter()
        .find(|(n, _)| n == "confirmation")
        .map(|(_, k)| ctx.t(k));
    let confirmation_invalid = confirmation_error.is_some().then_some("true");
    let confirmation_ok = confirmation_error.is_none();
    let reauth_error = draft
        .errors
        .iter()
        .find(|(n, _)| n == FIELD)
        .map(|(_, k)| ctx.t(k));
    let cards = wallet.payment_methods.clone();
    let no_cards = cards.is_empty();
    view! {
        <section class="account-section" aria-labelledby="bank-title">
            <h2 id="bank-title">{ctx.t("wallet.bank.title")}</h2>
            <p class="account-hint">{ctx.t("wallet.bank.intro")}</p>
            <div class="wallet-stored" data-testid="stored-iban" hidden=stored.is_none()>
                <p class="wallet-stored__iban" data-testid="stored-iban-masked">{stored.as_ref().map(|s| s.masked.clone())}</p>
                <p class="wallet-stored__meta" data-testid="stored-iban-meta">{stored.as_ref().map(|s| format!("{} · {}", s.owner_name, s.bic))}</p>
                <form method="post" action=form_action("delete_iban") data-enhance="" class="wallet-stored__delete" data-testid="iban-delete-form">
                    <FormBase />
                    <input type="hidden" name="guid" value=guid />
                    <button type="submit" class="link-button">{ctx.t("wallet.bank.delete")}</button>
                </form>
            </div>
            <ReauthProvider reauth=reauth.clone() return_to=PAGE.to_string() />
            <form method="post" action=form_action("save") data-enhance="" class="account-form" novalidate data-testid="bank-form" id="bank-form">
                <FormBase />
                <p class="account-form__error" role="alert" data-form-error hidden=draft.errors.is_empty()>
                    {(!draft.errors.is_empty()).then(|| ctx.t("errors.something_wrong.notification"))}
                </p>
                {field(BankField::Iban, ctx.t("wallet.bank.iban"), "text", "off", "64")}
                {field(BankField::Bic, ctx.t("wallet.bank.bic"), "text", "off", "16")}
                {field(BankField::OwnerName, ctx.t("wallet.bank.owner"), "text", "name", "80")}
                <p class="field field--check" data-field="confirmation">
                    <input id="bank-confirmation" name="confirmation" type="checkbox" value="1" checked=draft.confirmation
                        aria-invalid=confirmation_invalid aria-describedby="bank-confirmation-error"
                        data-testid="bank-confirmation" />
                    <label for="bank-confirmation">{ctx.t("wallet.bank.confirmation")}</label>
                    <span class="field__error" id="bank-confirmation-error" data-error-for="confirmation" hidden=confirmation_ok>{confirmation_error}</span>
                </p>
                <ReauthPassword reauth id="bank-reauth" error=reauth_error />
                <button type="submit" class="button button--primary" data-testid="bank-save">{ctx.t("wallet.bank.save")}</button>
            </form>
        </section>
        <section class="account-section" aria-labelledby="cards-title">
            <h2 id="cards-title">{ctx.t("wallet.cards.title")}</h2>
            <p class="account-hint">{ctx.t("wallet.cards.intro")}</p>
            <p class="account-empty" data-testid="cards-empty" hidden=!no_cards>{ctx.t("wallet.cards.empty")}</p>
            <ul class="wallet-cards" data-testid="cards">
                {cards.into_iter().map(|c| {
                    let ctx = RequestCtx::current();
                    let label = ctx.t_with("wallet.cards.card", &[("brand", &c.brand), ("last4", &c.last4)]);
                    view! {
                        <li class="wallet-card" data-testid="card" data-guid=c.guid.clone()>
                            <span class="wallet-card__label">{label}</span>
                            <span class="wallet-card__date">{ctx.t_with("wallet.cards.added", &[("date", &ctx.date(c.created_at))])}</span>
                            <form method="post" action=form_action("delete_card") data-enhance="" data-testid="card-delete-form">
                                <FormBase />
                                <input type="hidden" name="guid" value=c.guid.clone() />
                                <button type="submit" class="link-button" data-testid="card-delete">{ctx.t("wallet.cards.delete")}</button>
                            </form>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}
