//! The refund and retry forms (`/rosedeals/refund?basketId=`), the refund's result
//! (`/rosedeals/refund-result?basketId=`), and contact (`contact-form`, `mail`). The forms
//! post without scripts (multipart) to `server/src/forms/rosedeals.rs`; a refusal comes
//! back as `?form=&error=&field=` and shows in the form it concerns.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::auth::ui::reauth::{ReauthPassword, ReauthProvider, FIELD};
use crate::context::RequestCtx;
use crate::help::ui::pages::PostSalesErrorNotice;
use crate::rosedeals::api::{fetch_contact_vouchers, fetch_lists, fetch_order, is_not_found};
use crate::rosedeals::ui::draft::{self, Draft};
use crate::rosedeals::ui::orders::{not_found, ListTabs};

fn t(key: &str) -> String {
    RequestCtx::current().t(key)
}

fn xsrf() -> impl IntoView {
    view! { <input type="hidden" name="_xsrf" value=RequestCtx::current().xsrf.clone() /> }
}

/// The refusal a redirect brought back to `form` (a key the page knows), and its field.
fn refusal(form: &str) -> (Option<&'static str>, Option<String>) {
    let q = use_query_map().get_untracked();
    if q.get("form").as_deref() != Some(form) {
        return (None, None);
    }
    let key = q.get("error").and_then(|k| super::known_message(&k));
    (key, key.and(q.get("field")))
}

/// The form's general error slot, filled when the redirect brought one (the focus goes
/// there when the form was sent in place).
fn form_error(key: Option<&'static str>) -> impl IntoView {
    view! {
        <p class="account-form__error" role="alert" data-form-error hidden=key.is_none()
            data-enhance-focus=key.map(|_| "")>{key.map(t)}</p>
    }
}

/// A refused form keeps what the member typed (`data-enhance-keep` on the form: every
/// field; the enhancement script copies the values into the form the server answers).
fn keep(refused: Option<&'static str>) -> Option<&'static str> {
    refused.map(|_| "")
}

/// One labelled text field of a form (`form` prefixes the ids).
fn field(
    form: &'static str,
    name: &'static str,
    key: &str,
    autocomplete: &'static str,
    required: bool,
    draft: &Draft,
) -> impl IntoView {
    let id = format!("{form}-{name}");
    let err = format!("{id}-error");
    view! {
        <p class="field" data-field=name>
            <label for=id.clone()>{t(key)}</label>
            <input id=id name=name type="text" autocomplete=autocomplete maxlength="200" required=required
                value=draft.value(name) aria-describedby=err.clone() data-testid=format!("{form}-{name}") />
            <span class="field__error" id=err data-error-for=name hidden=true></span>
        </p>
    }
}

/// The address fieldset, filled from `draft` (a refused refund posted without scripts).
fn address_fields(form: &'static str, draft: &Draft) -> impl IntoView {
    view! {
        <fieldset class="account-form__group">
            <legend>{t("rosedeals.form.address")}</legend>
            {field(form, "firstName", "rosedeals.form.first_name", "given-name", true, draft)}
            {field(form, "lastName", "rosedeals.form.last_name", "family-name", true, draft)}
            {field(form, "details", "rosedeals.form.details", "address-line1", false, draft)}
            {field(form, "extras", "rosedeals.form.extras", "address-line2", false, draft)}
            {field(form, "zipCode", "rosedeals.form.zip_code", "postal-code", false, draft)}
            {field(form, "city", "rosedeals.form.city", "address-level2", true, draft)}
            {field(form, "country", "rosedeals.form.country", "country", true, draft)}
        </fieldset>
    }
}

fn content_field(form: &'static str, draft: &Draft) -> impl IntoView {
    let id = format!("{form}-content");
    view! {
        <p class="field">
            <label for=id.clone()>{t("rosedeals.form.content")}</label>
            <textarea id=id name="content" maxlength="2000" rows="4" data-testid=format!("{form}-content")>{draft.content.clone()}</textarea>
        </p>
    }
}

#[component]
pub fn RefundPage(basket_id: Option<i64>) -> impl IntoView {
    let Some(id) = basket_id else {
        return not_found().into_any();
    };
    let load = Resource::new(move || id, fetch_order);
    let reauth = Resource::new(|| (), |_| crate::auth::api::fetch_reauth());
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{t("common.loading")}</p> }>
            {move || Suspend::new(async move {
                match (load.await, reauth.await) {
                    (Ok(order), Ok(reauth)) => {
                        let ctx = RequestCtx::current();
                        let active: Vec<_> = order.vouchers.iter().filter(|v| v.status == "active").cloned().collect();
                        let refundable: i64 = active.iter().map(|v| v.price).sum();
                        let (refund_error, refund_field) = refusal("refund");
                        let iban_error = refund_field.as_deref().filter(|f| *f == "iban").and(refund_error);
                        let password_error = refund_field.as_deref().filter(|f| *f == FIELD).and(refund_error).map(t);
                        let here = format!("/rosedeals/refund?basketId={id}");
                        let (retry_error, _) = refusal("retry");
                        // What a refusal without scripts brought back (the cookie is read only
                        // on `?retry=1`); the retry form starts empty.
                        let draft = refund_error.map(|_| draft::read()).unwrap_or_default();
                        let blank = Draft::default();
                        view! {
                            <p class="account-hint" data-testid="refund-summary">{ctx.t_with("rosedeals.refund.intro", &[("id", &id.to_string()), ("amount", &ctx.money(refundable))])}</p>
                            <section class="account-section" aria-labelledby="refund-title">
                                <h2 id="refund-title">{t("rosedeals.refund.form_title")}</h2>
                                <ReauthProvider reauth=reauth.clone() return_to=here />
                                <form class="account-form" method="post" enctype="multipart/form-data" action=format!("/rosedeals/forms/refund/{id}")
                                    data-enhance="" data-enhance-keep=keep(refund_error) novalidate data-testid="refund-form">
                                    {xsrf()}
                                    {form_error(refund_error)}
                                    {address_fields("refund", &draft)}
                                    <p class="field" data-field="iban">
                                        <label for="refund-iban">{t("rosedeals.form.iban")}</label>
                                        <input id="refund-iban" name="iban" type="text" autocomplete="off" maxlength="64" spellcheck="false" value=draft.iban.clone()
                                            aria-describedby="refund-iban-hint refund-iban-error" data-testid="refund-iban"
                                            aria-invalid=iban_error.map(|_| "true") />
                                        <span class="account-hint" id="refund-iban-hint">{t("rosedeals.form.iban_hint")}</span>
                                        <span class="field__error" id="refund-iban-error" data-error-for="iban" data-testid="refund-iban-error" hidden=iban_error.is_none()>{iban_error.map(t)}</span>
                                    </p>
                                    <p class="field field--check">
                                        <input id="refund-storeIban" name="storeIban" type="checkbox" value="true" checked=draft.store_iban />
                                        <label for="refund-storeIban">{t("rosedeals.form.store_iban")}</label>
                                    </p>
                                    <p class="field field--check">
                                        <input id="refund-isSuspended" name="isSuspended" type="checkbox" value="true" checked=draft.is_suspended />
                                        <label for="refund-isSuspended">{t("rosedeals.form.is_suspended")}</label>
                                    </p>
                                    {content_field("refund", &draft)}
                                    <ReauthPassword reauth id="refund-reauth" error=password_error
                                        only_when=t("reauth.password.hint_new_iban") />
                                    <button type="submit" class="button button--primary" data-testid="refund-submit">{t("rosedeals.refund.submit")}</button>
                                </form>
                            </section>
                            <section class="account-section" aria-labelledby="retry-title">
                                <h2 id="retry-title">{t("rosedeals.retry.title")}</h2>
                                <p class="account-hint">{t("rosedeals.retry.intro")}</p>
                                <form class="account-form" method="post" enctype="multipart/form-data" action=format!("/rosedeals/forms/retry/{id}")
                                    data-enhance="" data-enhance-keep=keep(retry_error) novalidate data-testid="retry-form">
                                    {xsrf()}
                                    {form_error(retry_error)}
                                    <fieldset class="account-form__group">
                                        <legend>{t("rosedeals.form.vouchers")}</legend>
                                        {active.into_iter().enumerate().map(|(i, v)| {
                                            let vid = format!("retry-voucher-{i}");
                                            view! {
                                                <p class="field field--check">
                                                    <input id=vid.clone() name="vouchers" type="checkbox" value=v.code.clone() />
                                                    <label for=vid>{format!("{} · {}", v.partner, v.code)}</label>
                                                </p>
                                            }
                                        }).collect_view()}
                                    </fieldset>
                                    {address_fields("retry", &blank)}
                                    {content_field("retry", &blank)}
                                    <button type="submit" class="button" data-testid="retry-submit">{t("rosedeals.retry.submit")}</button>
                                </form>
                            </section>
                        }.into_any()
                    }
                    (Err(e), _) if is_not_found(&e) => not_found().into_any(),
                    _ => view! { <PostSalesErrorNotice /> }.into_any(),
                }
            })}
        </Suspense>
    }
    .into_any()
}

#[component]
pub fn RefundResultPage(basket_id: Option<i64>) -> impl IntoView {
    let Some(id) = basket_id else {
        return not_found().into_any();
    };
    // The order and, after the refund, page 1 of both lists again (spec 001 §4: after a
    // successful refund or retry both lists reload), fetched together.
    let load = Resource::new(
        move || id,
        |id| async move {
            let (order, lists) = futures_join(fetch_order(id), fetch_lists(1, 1)).await;
            Ok::<_, ServerFnError>((order?, lists?))
        },
    );
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{t("common.loading")}</p> }>
            {move || Suspend::new(async move {
                let ctx = RequestCtx::current();
                match load.await {
                    Ok((order, lists)) => {
                        let tabs = view! { <ListTabs lists /> };
                        match order.refund_amount {
                            Some(amount) => view! {
                                <p class="deal-result" data-testid="refund-amount" role="status">
                                    {ctx.t_with("rosedeals.result.amount", &[("amount", &ctx.money(amount))])}
                                </p>
                                <p>{ctx.t("rosedeals.result.next")}</p>
                                {tabs}
                            }.into_any(),
                            None => view! { <p data-testid="refund-none">{ctx.t("rosedeals.result.none")}</p> {tabs} }.into_any(),
                        }
                    }
                    Err(e) if is_not_found(&e) => not_found().into_any(),
                    Err(_) => view! { <PostSalesErrorNotice /> }.into_any(),
                }
            })}
        </Suspense>
    }
    .into_any()
}

/// Two futures at once (the order and the lists of the result page).
async fn futures_join<A: std::future::Future, B: std::future::Future>(
    a: A,
    b: B,
) -> (A::Output, B::Output) {
    #[cfg(feature = "ssr")]
    {
        tokio::join!(a, b)
    }
    #[cfg(not(feature = "ssr"))]
    {
        (a.await, b.await)
    }
}

#[component]
pub fn ContactPage(basket_id: Option<i64>) -> impl IntoView {
    // Every voucher of the member's orders, current and archived (newest first, bounded);
    // `?basketId=` (an order's contact link) ticks that order's.
    let load = Resource::new(|| (), |_| fetch_contact_vouchers());
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{t("common.loading")}</p> }>
            {move || Suspend::new(async move {
                let vouchers = match load.await {
                    Ok(v) => v,
                    Err(_) => return view! { <PostSalesErrorNotice /> }.into_any(),
                };
                let ctx = RequestCtx::current();
                let codes: Vec<(String, String, bool)> = vouchers
                    .into_iter()
                    .map(|v| {
                        let label = format!("{} · {} · {}", v.partner, v.code, ctx.t(&format!("rosedeals.voucher.{}", v.status)));
                        (v.code, label, basket_id == Some(v.basket_id))
                    })
                    .collect();
                let error = use_query_map().get_untracked().get("error").and_then(|k| super::known_message(&k));
                view! {
                    <form class="account-form" method="post" enctype="multipart/form-data" action="/rosedeals/forms/contact"
                        data-enhance="" data-enhance-keep=keep(error) novalidate data-testid="contact-form">
                        {xsrf()}
                        {form_error(error)}
                        <p class="field">
                            <label for="contact-subject">{t("rosedeals.contact.subject")}</label>
                            <input id="contact-subject" name="subject" type="text" maxlength="200" required=true data-testid="contact-subject" />
                        </p>
                        <p class="field">
                            <label for="contact-message">{t("rosedeals.contact.message")}</label>
                            <textarea id="contact-message" name="message" maxlength="2000" rows="5" required=true data-testid="contact-message"></textarea>
                        </p>
                        <fieldset class="account-form__group">
                            <legend>{t("rosedeals.form.vouchers")}</legend>
                            {codes.is_empty().then(|| view! { <p class="account-empty">{t("rosedeals.contact.no_vouchers")}</p> })}
                            {codes.into_iter().enumerate().map(|(i, (code, label, ticked))| {
                                let vid = format!("contact-voucher-{i}");
                                view! {
                                    <p class="field field--check">
                                        <input id=vid.clone() name="vouchers" type="checkbox" value=code checked=ticked />
                                        <label for=vid>{label}</label>
                                    </p>
                                }
                            }).collect_view()}
                        </fieldset>
                        {address_fields("contact", &Draft::default())}
                        <p class="field">
                            <label for="contact-attachments">{t("rosedeals.contact.attachments")}</label>
                            <input id="contact-attachments" name="attachments" type="file" multiple=true accept="application/pdf,image/png,image/jpeg" />
                        </p>
                        <button type="submit" class="button button--primary" data-testid="contact-submit">{t("rosedeals.contact.submit")}</button>
                    </form>
                }.into_any()
            })}
        </Suspense>
    }
}

#[component]
pub fn MailPage() -> impl IntoView {
    view! {
        <p class="deal-result" role="status" data-testid="mail-sent">{t("rosedeals.mail.text")}</p>
        <p><a href="/rosedeals/ongoing">{t("rosedeals.nav.ongoing")}</a></p>
    }
}
