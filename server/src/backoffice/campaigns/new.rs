//! The new-campaign form and its creation: the campaign and its vouchers in one
//! transaction with the audit entry; a refused form comes back with what was typed.
use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use leptos::prelude::*;

use super::rules::{self, DELIVERIES, DISCOUNT_TYPES, SCOPES};
use super::store::{self, Created};
use crate::backoffice::audit::{self, Entry};
use crate::backoffice::roles::Permission;
use crate::backoffice::sales::rules::FieldErrors;
use crate::backoffice::sales::site_label;
use crate::backoffice::session::{Operator, OperatorForm};
use crate::backoffice::{ui, PREFIX};
use crate::state::AppCtx;

type Fields = BTreeMap<String, String>;

pub async fn page(op: Operator) -> Response {
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let now = app::platform::state::now();
    let mut defaults = Fields::new();
    for (k, v) in [
        ("delivery", "code".to_string()),
        ("discount_type", "PERCENT".to_string()),
        ("scope", "PRODUCT".to_string()),
        ("per_member_limit", "1".to_string()),
        ("valid_from", ui::datetime_value(now - now.rem_euclid(3600))),
        (
            "valid_until",
            ui::datetime_value(now - now.rem_euclid(3600) + 7 * 86_400),
        ),
    ] {
        defaults.insert(k.to_string(), v);
    }
    form(&op, &defaults, &FieldErrors::new(), StatusCode::OK)
}

fn form(op: &Operator, f: &Fields, errors: &FieldErrors, status: StatusCode) -> Response {
    let t = |k: &str| op.t(k);
    let get = |k: &str| f.get(k).cloned().unwrap_or_default();
    let said = ui::FieldMessages::new(op, errors);
    let err = |name: &str| said.message(name);
    let invalid = |name: &str| said.invalid(name);
    let described = |name: &str| said.described(name);
    let choices = |name: &str, values: &[&'static str], key: &str| {
        let chosen = get(name);
        values
            .iter()
            .map(|v| view! { <option value=*v selected=chosen == *v>{op.t(&format!("{key}.{v}"))}</option> })
            .collect_view()
    };
    let sites = app::site::SITES
        .iter()
        .map(|s| {
            let id = i64::from(s.site_id);
            let name = rules::site_field(id);
            view! {
                <p class="bo-check">
                    <input type="checkbox" id=name.clone() name=name.clone() checked=f.contains_key(&name) />
                    <label for=name.clone()>{site_label(id)}</label>
                </p>
            }
        })
        .collect_view();
    let sites_error = err("sites")
        .map(|e| view! { <p class="bo-field-error" id="err-sites" data-error-for="sites">{e}</p> });
    let body = view! {
        {said.summary()}
        <form method="post" action=format!("{PREFIX}/campaigns") class="bo-stack" id="new-campaign">
            {ui::xsrf_field(op)}
            {ui::field(t("campaigns.name"), "name", view! { <input id="name" name="name" required maxlength="120" value=get("name") aria-invalid=invalid("name") aria-describedby=described("name") /> }.into_any(), err("name"))}
            {ui::field(t("campaigns.delivery"), "delivery", view! { <select id="delivery" name="delivery" aria-invalid=invalid("delivery") aria-describedby=described("delivery")>{choices("delivery", &DELIVERIES, "campaigns.delivery")}</select> }.into_any(), err("delivery"))}
            {ui::field(t("campaigns.code"), "code", view! { <input id="code" name="code" maxlength="32" autocomplete="off" value=get("code") aria-invalid=invalid("code") aria-describedby=described("code").unwrap_or_else(|| "code-hint".into()) /> }.into_any(), err("code"))}
            <p class="bo-hint" id="code-hint">{t("campaigns.code_hint")}</p>
            {ui::field(t("campaigns.discount_type"), "discount_type", view! { <select id="discount_type" name="discount_type" aria-invalid=invalid("discount_type") aria-describedby=described("discount_type")>{choices("discount_type", &DISCOUNT_TYPES, "campaigns.type")}</select> }.into_any(), err("discount_type"))}
            {ui::field(t("campaigns.value"), "value", view! { <input id="value" name="value" inputmode="decimal" required value=get("value") aria-invalid=invalid("value") aria-describedby=described("value").unwrap_or_else(|| "value-hint".into()) /> }.into_any(), err("value"))}
            <p class="bo-hint" id="value-hint">{t("campaigns.value_hint")}</p>
            {ui::field(t("campaigns.scope"), "scope", view! { <select id="scope" name="scope" aria-invalid=invalid("scope") aria-describedby=described("scope")>{choices("scope", &SCOPES, "campaigns.scope")}</select> }.into_any(), err("scope"))}
            <fieldset aria-describedby=described("sites")>
                <legend>{t("campaigns.sites")}</legend>
                {sites_error}
                {sites}
            </fieldset>
            {ui::field(t("campaigns.from"), "valid_from", view! { <input id="valid_from" name="valid_from" type="datetime-local" required value=get("valid_from") aria-invalid=invalid("valid_from") aria-describedby=described("valid_from") /> }.into_any(), err("valid_from"))}
            {ui::field(t("campaigns.until"), "valid_until", view! { <input id="valid_until" name="valid_until" type="datetime-local" required value=get("valid_until") aria-invalid=invalid("valid_until") aria-describedby=described("valid_until") /> }.into_any(), err("valid_until"))}
            {ui::field(t("campaigns.per_member"), "per_member_limit", view! { <input id="per_member_limit" name="per_member_limit" inputmode="numeric" required value=get("per_member_limit") aria-invalid=invalid("per_member_limit") aria-describedby=described("per_member_limit") /> }.into_any(), err("per_member_limit"))}
            {ui::field(t("campaigns.total"), "total_limit", view! { <input id="total_limit" name="total_limit" inputmode="numeric" value=get("total_limit") aria-invalid=invalid("total_limit") aria-describedby=described("total_limit").unwrap_or_else(|| "total-hint".into()) /> }.into_any(), err("total_limit"))}
            <p class="bo-hint" id="total-hint">{t("campaigns.total_hint")}</p>
            <button type="submit">{t("campaigns.create")}</button>
        </form>
    }
    .into_any();
    ui::page(status, op.lang(), Some(op), t("campaigns.new"), None, body)
}

pub async fn create(State(app): State<Arc<AppCtx>>, form_in: OperatorForm<Fields>) -> Response {
    let op = &form_in.operator;
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let f = &form_in.fields;
    let now = app::platform::state::now();
    let campaign = match rules::campaign(f, now) {
        Ok(c) => c,
        Err(errors) => return form(op, f, &errors, StatusCode::UNPROCESSABLE_ENTITY),
    };
    let created = async {
        let mut tx = app.state.db.begin().await?;
        let id = match store::create(&mut tx, &campaign, op.row.id, now).await? {
            Created::Id(id) => id,
            Created::CodeTaken => return Ok(None),
        };
        let entry = Entry {
            action: "create",
            object_kind: "campaign",
            object_id: id.to_string(),
            summary: format!(
                "{:?} {} {} {} {} on sites {:?}",
                campaign.name,
                campaign.delivery,
                campaign.discount_type,
                campaign.value,
                campaign.scope,
                campaign.sites
            ),
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(Some(id))
    }
    .await;
    match created {
        Ok(Some(id)) => ui::see_other(&format!("{PREFIX}/campaigns/{id}?done=1")),
        Ok(None) => form(
            op,
            f,
            &vec![("code", "campaigns.error.code_taken")],
            StatusCode::CONFLICT,
        ),
        Err(e) => ui::db_error(e),
    }
}
