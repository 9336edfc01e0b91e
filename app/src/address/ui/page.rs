//! `/postsales/myaccount/addresses/`: the member's addresses (the favourite marked; change,
//! make favourite, delete) and the form to add or change one. Everything posts without
//! scripts; `/js/addresses.js` adds the REST calls, the phone formatting and a confirmation
//! before deleting.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::draft;
use super::form::{form_action, AddressForm};
use crate::address::api::fetch_addresses;
use crate::address::model::Address;
use crate::address::rules::{format_phone, return_path, PhoneStyle};
use crate::context::RequestCtx;
use crate::ui::error_template::ErrorNotice;
use crate::ui::SeoMeta;

pub const PAGE: &str = "/postsales/myaccount/addresses/";
/// Keys a redirect may show (`?notice=` / `?error=`): a link cannot make the page say
/// anything else.
pub const NOTICES: [&str; 6] = [
    "address.notice.saved",
    "address.notice.deleted",
    "address.notice.favorite",
    "errors.general_retry.notification",
    "errors.not_found",
    "address.errors.limit",
];

fn known(key: &str) -> Option<&'static str> {
    NOTICES.iter().copied().find(|k| *k == key)
}

/// One address as the site writes it, line by line.
pub fn address_lines(a: &crate::address::model::DeliveryAddress) -> Vec<String> {
    let ctx = RequestCtx::current();
    let mut lines = vec![
        format!("{} {}", a.first_name, a.last_name),
        a.details.clone(),
    ];
    if !a.extras.is_empty() {
        lines.push(a.extras.clone());
    }
    lines.push(format!("{} {}", a.zip_code, a.city));
    lines.push(ctx.t(&format!("address.country.{}", a.country)));
    lines.push(format_phone(&a.phone, PhoneStyle::for_site(ctx.site_id)));
    lines
}

#[component]
pub fn AddressesPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let title = ctx.t("page.addresses");
    let query = use_query_map().get_untracked();
    let notice = query.get("notice").and_then(|k| known(&k));
    let error = query.get("error").and_then(|k| known(&k));
    let editing_id = query.get("edit").and_then(|v| v.parse::<i64>().ok());
    // Opened from a checkout: its forms go back there once an address is saved.
    let back_to = return_path(query.get("returnTo").as_deref());
    let load = Resource::new(|| (), |_| fetch_addresses());
    let brand = ctx.site().brand.name();
    let description = ctx.t_with("page.description", &[("page", &title), ("brand", brand)]);
    view! {
        <SeoMeta title=title.clone() description path indexable=false />
        <div class="account-page address-page" data-address-page data-enhance-region="addresses">
            <h1>{title}</h1>
            <p class="account-hint">{ctx.t("address.intro")}</p>
            {back_to.clone().map(|href| view! {
                <p class="address-page__back"><a href=href data-testid="address-back">{RequestCtx::current().t("address.back_to_checkout")}</a></p>
            })}
            <p class="account-notice" data-testid="account-notice" role="status" aria-live="polite" hidden=notice.is_none()
                data-enhance-focus=notice.map(|_| "")>
                {notice.map(|k| ctx.t(k))}
            </p>
            <p class="account-notice account-notice--error" data-testid="account-error" role="alert" hidden=error.is_none()
                data-enhance-focus=error.map(|_| "")>
                {error.map(|k| ctx.t(k))}
            </p>
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {move || {
                    let back_to = back_to.clone();
                    Suspend::new(async move {
                        match load.await {
                            Ok(list) => view! { <Book list editing_id back_to /> }.into_any(),
                            Err(_) => view! { <ErrorNotice /> }.into_any(),
                        }
                    })
                }}
            </Suspense>
            <p class="account-hint address-page__privacy">{ctx.t("address.privacy")}</p>
        </div>
    }
}

#[component]
fn Book(list: Vec<Address>, editing_id: Option<i64>, back_to: Option<String>) -> impl IntoView {
    let ctx = RequestCtx::current();
    let draft = draft::read().filter(|d| d.request.id.is_none() || d.is_refused());
    let editing = editing_id
        .and_then(|id| list.iter().find(|a| a.id == id).cloned())
        .filter(|_| draft.as_ref().is_none_or(|d| d.request.id == editing_id));
    let form_title = if editing.is_some() || draft.as_ref().is_some_and(|d| d.request.id.is_some())
    {
        ctx.t("address.form.edit_title")
    } else {
        ctx.t("address.form.add_title")
    };
    let empty = list.is_empty();
    view! {
        <section class="account-section" aria-labelledby="addresses-title">
            <h2 id="addresses-title">{ctx.t("address.list.title")}</h2>
            <p class="account-empty" data-testid="addresses-empty" hidden=!empty>{ctx.t("address.empty")}</p>
            <ul class="address-cards" data-testid="addresses">
                {list.into_iter().map(|a| view! { <Card a back_to=back_to.clone() /> }).collect_view()}
            </ul>
        </section>
        <section class="account-section" aria-labelledby="address-form-title" id="address-form">
            <h2 id="address-form-title">{form_title}</h2>
            <AddressForm draft editing id_prefix="address" return_to=back_to.unwrap_or_default() />
        </section>
    }
}

#[component]
fn Card(a: Address, back_to: Option<String>) -> impl IntoView {
    let ctx = RequestCtx::current();
    let lines = address_lines(&(&a).into());
    let id = a.id.to_string();
    let fav = a.is_favorite;
    let name = lines.first().cloned().unwrap_or_default();
    let back = back_to
        .as_deref()
        .map(|b| format!("&returnTo={}", crate::routes::encode_query_value(b)))
        .unwrap_or_default();
    view! {
        <li class="address-card" class:address-card--favorite=fav data-testid="address" data-address-id=id.clone() data-favorite=fav.to_string()>
            {fav.then(|| view! { <p class="address-card__badge" data-testid="address-favorite">{ctx.t("address.favorite")}</p> })}
            <p class="address-card__lines">
                {lines.into_iter().enumerate().map(|(i, l)| view! {
                    {(i > 0).then(|| view! { <br /> })}
                    <span class=if i == 0 { "address-card__name" } else { "" }>{l}</span>
                }).collect_view()}
            </p>
            <div class="address-card__actions">
                <a href=format!("{PAGE}?edit={id}{back}#address-form") class="link-button" data-testid="address-edit"
                    aria-label=format!("{} · {name}", ctx.t("address.edit"))>{ctx.t("address.edit")}</a>
                {(!fav).then(|| view! {
                    <form method="post" action=form_action("favorite") data-testid="address-favorite-form" data-enhance="">
                        <input type="hidden" name="_xsrf" value=RequestCtx::current().xsrf />
                        <input type="hidden" name="returnTo" value=back_to.clone() />
                        <input type="hidden" name="id" value=id.clone() />
                        <button type="submit" class="link-button" data-testid="address-make-favorite">{RequestCtx::current().t("address.make_favorite")}</button>
                    </form>
                })}
                // Asked first (with scripts): a deletion cannot be undone.
                <form method="post" action=form_action("delete") data-testid="address-delete-form" data-enhance=""
                    data-enhance-confirm=ctx.t("address.delete_confirm")>
                    <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
                    <input type="hidden" name="returnTo" value=back_to.clone() />
                    <input type="hidden" name="id" value=id.clone() />
                    <button type="submit" class="link-button" data-testid="address-delete"
                        aria-label=format!("{} · {name}", ctx.t("address.delete"))>{ctx.t("address.delete")}</button>
                </form>
            </div>
        </li>
    }
}
