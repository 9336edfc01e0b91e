//! The address form, on the address page and inline at checkout. It posts without scripts
//! (`form_action`); the enhancement script sends it in place on the address book, and the
//! key filters (`data-key-filter`) group the phone as the site writes it while typing.
use leptos::prelude::*;

use super::draft::Draft;
use crate::address::model::Address;
use crate::address::rules::{
    format_phone, site_countries, specificities, zip_rule, AddressField, PhoneStyle,
};
use crate::context::RequestCtx;
use crate::text::keys::KeyFilter;

/// The target of one of the address forms (`server/src/forms/address.rs`: one route per
/// action).
pub fn form_action(action: &str) -> String {
    format!("/postsales/myaccount/addresses/form/{action}")
}

/// What the form starts with: a refused post, the address being changed, or nothing.
fn initial(field: AddressField, draft: Option<&Draft>, editing: Option<&Address>) -> String {
    if let Some(d) = draft {
        return d.value(field);
    }
    let Some(a) = editing else {
        return String::new();
    };
    match field {
        AddressField::FirstName => a.first_name.clone(),
        AddressField::LastName => a.last_name.clone(),
        AddressField::Details => a.details.clone(),
        AddressField::Extras => a.extras.clone(),
        AddressField::ZipCode => a.zip_code.clone(),
        AddressField::City => a.city.clone(),
        AddressField::Country => a.country.clone(),
        AddressField::Phone => format_phone(
            &a.phone,
            PhoneStyle::for_site(RequestCtx::current().site_id),
        ),
    }
}

/// The message above a refused form (spec 001 §5), in the page's language.
pub fn refusal_text(draft: &Draft) -> Option<String> {
    let ctx = RequestCtx::current();
    let (message, other) = draft.message()?;
    Some(match (message, other) {
        (_, Some(key)) => ctx.t(key),
        (m, None) => m.text(ctx.lang()),
    })
}

#[component]
pub fn AddressForm(
    /// A refused post of this form, shown again.
    draft: Option<Draft>,
    /// The address being changed (none: a new one).
    editing: Option<Address>,
    /// `cart` to come back to the cart, a same-site path checked by
    /// `rules::return_path` (a checkout) to go back there once saved, else the address page.
    #[prop(optional, into)]
    return_to: String,
    /// Prefix of the element ids (two forms may share a page).
    id_prefix: &'static str,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let site_id = ctx.site_id;
    let style = PhoneStyle::for_site(site_id);
    let (first, rest) = style.groups();
    let countries = site_countries(site_id);
    let zip_example = countries
        .first()
        .and_then(|c| zip_rule(c))
        .map(|r| r.example)
        .unwrap_or("");
    let phone_example = specificities(site_id).phone_format.example;
    let cities_service = ctx
        .experiments
        .on(crate::model::experiments::Feature::AddressService);
    let draft_ref = draft.as_ref().filter(|d| d.is_refused());
    let refusal = draft_ref.and_then(refusal_text);
    let no_refusal = refusal.is_none();
    let id = draft_ref
        .and_then(|d| d.request.id)
        .or(editing.as_ref().map(|a| a.id));
    let favorite = draft_ref
        .map(|d| d.request.is_favorite == Some(true))
        .unwrap_or_else(|| editing.as_ref().is_some_and(|a| a.is_favorite));
    let field = |f: AddressField, autocomplete: &'static str, hint: Option<String>| {
        let ctx = RequestCtx::current();
        let name = f.wire();
        let input_id = format!("{id_prefix}-{name}");
        let error = draft_ref.and_then(|d| d.field_error(f)).map(|k| ctx.t(&k));
        let error_id = format!("{input_id}-error");
        let hint_id = format!("{input_id}-hint");
        let described = if hint.is_some() {
            format!("{hint_id} {error_id}")
        } else {
            error_id.clone()
        };
        let label = ctx.t(f.label_key());
        let optional = (!f.required()).then(|| format!(" ({})", ctx.t("address.form.optional")));
        let kind = if f == AddressField::Phone {
            "tel"
        } else {
            "text"
        };
        let filter = match f {
            AddressField::FirstName | AddressField::LastName => Some(KeyFilter::LatinName.attr()),
            AddressField::Phone => Some(KeyFilter::Phone.attr()),
            _ => None,
        };
        // The city is offered from the zip code (`frontend-react/src/pages/zip-city.ts`,
        // GET /api/members/v1/cities) among the places the code names, unless the member is
        // in the control of the `member_address_service` holdback (they type the city).
        let city_id = format!("{id_prefix}-{}", AddressField::City.wire());
        let (from_zip, country_from) = if f == AddressField::ZipCode && cities_service {
            (Some(city_id.clone()), Some(format!("{id_prefix}-country")))
        } else {
            (None, None)
        };
        let options_id =
            (f == AddressField::City && cities_service).then(|| format!("{city_id}-options"));
        let (phone_first, phone_rest) = if f == AddressField::Phone {
            (
                Some(first.to_string()),
                Some(rest.map_or("0".into(), |r| r.to_string())),
            )
        } else {
            (None, None)
        };
        view! {
            <p class="field" data-field=name>
                <label for=input_id.clone()>{label}{f.required().then_some(" *")}{optional}</label>
                <input id=input_id name=name type=kind autocomplete=autocomplete
                    maxlength=f.max_length().to_string() value=initial(f, draft_ref, editing.as_ref())
                    required=f.required() aria-invalid=error.is_some().then_some("true")
                    aria-describedby=described data-testid=format!("address-{name}")
                    data-key-filter=filter data-phone-first=phone_first data-phone-rest=phone_rest
                    data-city-from-zip=from_zip data-country-from=country_from list=options_id.clone() />
                {options_id.map(|id| view! { <datalist id=id></datalist> })}
                {hint.map(|h| view! { <span class="field__hint" id=hint_id>{h}</span> })}
                <span class="field__error" id=error_id data-error-for=name hidden=error.is_none()>{error.clone()}</span>
            </p>
        }
    };
    let country_value = initial(AddressField::Country, draft_ref, editing.as_ref());
    let country_id = format!("{id_prefix}-country");
    let country_error = draft_ref
        .and_then(|d| d.field_error(AddressField::Country))
        .map(|k| ctx.t(&k));
    view! {
        // Sent in place on the address book; on a checkout page (no region around it) the
        // browser sends it and the page comes back with the new address.
        <form method="post" action=form_action("save") class="account-form address-form" novalidate
            data-testid="address-form" data-enhance="">
            <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
            <input type="hidden" name="returnTo" value=return_to />
            {id.map(|id| view! { <input type="hidden" name="id" value=id.to_string() /> })}
            <p class="account-form__error" role="alert" data-form-error data-testid="address-form-error" hidden=no_refusal
                data-enhance-focus=(!no_refusal).then_some("")>{refusal}</p>
            <p class="account-hint">{ctx.t("address.form.required")}</p>
            <div class="address-form__row">
                {field(AddressField::FirstName, "given-name", None)}
                {field(AddressField::LastName, "family-name", None)}
            </div>
            {field(AddressField::Details, "address-line1", None)}
            {field(AddressField::Extras, "address-line2", None)}
            <div class="address-form__row">
                {field(AddressField::ZipCode, "postal-code", Some(ctx.t_with("address.form.zip_hint", &[("example", zip_example)])))}
                {field(AddressField::City, "address-level2", None)}
            </div>
            <p class="field" data-field="country">
                <label for=country_id.clone()>{ctx.t("address.field.country")}" *"</label>
                <select id=country_id.clone() name="country" autocomplete="country" data-testid="address-country"
                    aria-describedby=format!("{country_id}-error") aria-invalid=country_error.is_some().then_some("true")>
                    {countries.iter().map(|c| {
                        let selected = country_value.is_empty() || country_value.eq_ignore_ascii_case(c);
                        view! { <option value=*c selected=selected>{RequestCtx::current().t(&format!("address.country.{c}"))}</option> }
                    }).collect_view()}
                </select>
                <span class="field__error" id=format!("{country_id}-error") data-error-for="country" hidden=country_error.is_none()>{country_error.clone()}</span>
            </p>
            {field(AddressField::Phone, "tel", Some(ctx.t_with("address.form.phone_hint", &[("example", &phone_example)])))}
            <p class="field field--check">
                <input id=format!("{id_prefix}-favorite") name="isFavorite" type="checkbox" value="true" checked=favorite data-testid="address-favorite-check" />
                <label for=format!("{id_prefix}-favorite")>{ctx.t("address.form.favorite")}</label>
            </p>
            <button type="submit" class="button button--primary" data-testid="address-save">{ctx.t("address.form.save")}</button>
            {id.is_some().then(|| view! { <a class="link-button address-form__cancel" href="/postsales/myaccount/addresses/">{ctx.t("address.form.cancel")}</a> })}
        </form>
    }
}
