//! Marketing operations: the codes of `/operation/{code}` links (spec 000 §2), each landing
//! on a home or a sale, and on its own selection of products across sales while any of them
//! is on sale (`app::operations`). A merchandiser lists them, creates one and makes its
//! selection; every write is in the audit log.
use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;

use super::audit::{self, Entry};
use super::roles::Permission;
use super::sales::rules::FieldErrors;
use super::sales::site_label;
use super::session::{Operator, OperatorForm};
use super::{ui, PREFIX};
use crate::state::AppCtx;

mod edit;
mod operation;
pub mod rules;
pub mod store;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/operations"), get(list_page).post(create))
        .route(&format!("{PREFIX}/operations/new"), get(new_page))
        .route(&format!("{PREFIX}/operations/{{id}}"), get(operation::page))
        .route(
            &format!("{PREFIX}/operations/{{id}}/edit"),
            get(edit::page).post(edit::save),
        )
        .route(
            &format!("{PREFIX}/operations/{{id}}/end"),
            post(edit::end_now),
        )
        .route(
            &format!("{PREFIX}/operations/{{id}}/products"),
            post(operation::add),
        )
        .route(
            &format!("{PREFIX}/operations/{{id}}/products/{{product}}/remove"),
            post(operation::remove),
        )
}

/// Scheduled, running or ended at `now`.
fn status(op: &Operator, starts_at: i64, ends_at: i64, now: i64) -> String {
    let key = if now < starts_at {
        "operations.status.scheduled"
    } else if app::operations::rules::is_running(starts_at, ends_at, now) {
        "operations.status.running"
    } else {
        "operations.status.ended"
    };
    op.t(key).to_string()
}

/// Where it lands, in the operator's words.
fn landing(op: &Operator, kind: &str, target: &str) -> String {
    format!("{} {target}", op.t(&format!("operations.target.{kind}")))
}

async fn list_page(State(app): State<Arc<AppCtx>>, op: Operator) -> Response {
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let all = match store::list(&app.state.db).await {
        Ok(l) => l,
        Err(e) => return ui::db_error(e),
    };
    let now = app::platform::state::now();
    let t = |k: &str| op.t(k);
    let rows = all
        .iter()
        .map(|o| {
            view! {
                <tr data-operation=o.code.clone() data-site=o.site_id.to_string()>
                    <td><a href=format!("{PREFIX}/operations/{}", o.id)>{o.code.clone()}</a></td>
                    <td>{site_label(o.site_id)}</td>
                    <td>{o.title.clone()}</td>
                    <td>{landing(&op, &o.target_kind, &o.target)}</td>
                    <td class="num">{o.chosen}</td>
                    <td>{format!("{} → {}", ui::when(o.starts_at), ui::when(o.ends_at))}</td>
                    <td>{status(&op, o.starts_at, o.ends_at, now)}</td>
                </tr>
            }
        })
        .collect_view();
    let body = view! {
        <p>{t("operations.intro")}</p>
        <p><a href=format!("{PREFIX}/operations/new")>{t("operations.new")}</a></p>
        <div class="bo-table-wrap" tabindex="0">
            <table id="operations">
                <thead><tr>
                    <th scope="col">{t("operations.code")}</th>
                    <th scope="col">{t("sales.site")}</th>
                    <th scope="col">{t("operations.title_field")}</th>
                    <th scope="col">{t("operations.lands")}</th>
                    <th scope="col" class="num">{t("operations.selection")}</th>
                    <th scope="col">{t("operations.dates")}</th>
                    <th scope="col">{t("operations.state")}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any();
    ui::page(
        StatusCode::OK,
        op.lang(),
        Some(&op),
        t("operations.page_title"),
        None,
        body,
    )
}

type Fields = BTreeMap<String, String>;

async fn new_page(op: Operator) -> Response {
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let now = app::platform::state::now();
    let hour = now - now.rem_euclid(3600);
    let defaults: Fields = [
        ("target_kind", "home".to_string()),
        ("target", "default".to_string()),
        ("starts_at", ui::datetime_value(hour)),
        ("ends_at", ui::datetime_value(hour + 14 * 86_400)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    form(&op, &defaults, &FieldErrors::new(), StatusCode::OK, None)
}

/// The operation form: a new one, or `editing` one (its id and code), whose site and code
/// stay as they are (links and cookies carry the code).
fn form(
    op: &Operator,
    f: &Fields,
    errors: &FieldErrors,
    status: StatusCode,
    editing: Option<(i64, &str)>,
) -> Response {
    let t = |k: &str| op.t(k);
    let get = |k: &str| f.get(k).cloned().unwrap_or_default();
    let said = ui::FieldMessages::new(op, errors);
    let err = |name: &str| said.message(name);
    let invalid = |name: &str| said.invalid(name);
    let described = |name: &str| said.described(name);
    let site: i64 = get("site").parse().unwrap_or(0);
    let (action, form_id) = match editing {
        Some((id, _)) => (format!("{PREFIX}/operations/{id}/edit"), "edit-operation"),
        None => (format!("{PREFIX}/operations"), "new-operation"),
    };
    let kinds = rules::TARGET_KINDS
        .iter()
        .map(|k| view! { <option value=*k selected=get("target_kind") == *k>{op.t(&format!("operations.target.{k}"))}</option> })
        .collect_view();
    let body = view! {
        {said.summary()}
        <form method="post" action=action class="bo-stack" id=form_id>
            {ui::xsrf_field(op)}
            {match editing {
                None => view! {
                    {ui::field(t("sales.site"), "site", view! { <select id="site" name="site" required aria-invalid=invalid("site") aria-describedby=described("site")>{super::sales::site_options(site, Some(t("operations.choose_site")))}</select> }.into_any(), err("site"))}
                    {ui::field(t("operations.code"), "code", view! { <input id="code" name="code" required maxlength="32" autocomplete="off" value=get("code") aria-invalid=invalid("code") aria-describedby=described("code").unwrap_or_else(|| "code-hint".into()) /> }.into_any(), err("code"))}
                    <p class="bo-hint" id="code-hint">{t("operations.code_hint")}</p>
                }.into_any(),
                Some((_, code)) => view! {
                    <dl class="bo-facts"><dt>{t("sales.site")}</dt><dd>{site_label(site)}</dd><dt>{t("operations.code")}</dt><dd><code>{code.to_string()}</code></dd></dl>
                    <p class="bo-hint">{t("operations.code_fixed")}</p>
                }.into_any(),
            }}
            {ui::field(t("operations.title_field"), "title", view! { <input id="title" name="title" maxlength="120" value=get("title") aria-invalid=invalid("title") aria-describedby=described("title").unwrap_or_else(|| "title-hint".into()) /> }.into_any(), err("title"))}
            <p class="bo-hint" id="title-hint">{t("operations.title_hint")}</p>
            {ui::field(t("operations.lands"), "target_kind", view! { <select id="target_kind" name="target_kind" aria-invalid=invalid("target_kind") aria-describedby=described("target_kind")>{kinds}</select> }.into_any(), err("target_kind"))}
            {ui::field(t("operations.target"), "target", view! { <input id="target" name="target" required maxlength="64" value=get("target") aria-invalid=invalid("target") aria-describedby=described("target").unwrap_or_else(|| "target-hint".into()) /> }.into_any(), err("target"))}
            <p class="bo-hint" id="target-hint">{t("operations.target_hint")}</p>
            {ui::field(t("operations.starts"), "starts_at", view! { <input id="starts_at" name="starts_at" type="datetime-local" required value=get("starts_at") aria-invalid=invalid("starts_at") aria-describedby=described("starts_at") /> }.into_any(), err("starts_at"))}
            {ui::field(t("operations.ends"), "ends_at", view! { <input id="ends_at" name="ends_at" type="datetime-local" required value=get("ends_at") aria-invalid=invalid("ends_at") aria-describedby=described("ends_at") /> }.into_any(), err("ends_at"))}
            <button type="submit">{t(if editing.is_some() { "operations.save" } else { "operations.create" })}</button>
        </form>
    }
    .into_any();
    let title = match editing {
        Some((_, code)) => format!("{} · {code}", t("operations.edit")),
        None => t("operations.new").to_string(),
    };
    ui::page(status, op.lang(), Some(op), &title, None, body)
}

async fn create(State(app): State<Arc<AppCtx>>, form_in: OperatorForm<Fields>) -> Response {
    let op = &form_in.operator;
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let f = &form_in.fields;
    let new = match rules::operation(f) {
        Ok(o) => o,
        Err(errors) => return form(op, f, &errors, StatusCode::UNPROCESSABLE_ENTITY, None),
    };
    let db = &app.state.db;
    match target_refusal(db, &new).await {
        Ok(None) => {}
        Ok(Some(key)) => {
            let errors = vec![("target", key)];
            return form(op, f, &errors, StatusCode::UNPROCESSABLE_ENTITY, None);
        }
        Err(e) => return ui::db_error(e),
    }
    let now = app::platform::state::now();
    let created = async {
        let mut tx = db.begin().await?;
        let Some(id) = store::create(&mut tx, &new).await? else {
            return Ok(None);
        };
        let entry = Entry {
            action: "create",
            object_kind: "operation",
            object_id: id.to_string(),
            summary: format!(
                "{} on site {} lands on {} {}",
                new.code, new.site_id, new.target_kind, new.target
            ),
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(Some(id))
    }
    .await;
    match created {
        Ok(Some(id)) => ui::see_other(&format!("{PREFIX}/operations/{id}?done=created")),
        Ok(None) => form(
            op,
            f,
            &vec![("code", "operations.error.code_taken")],
            StatusCode::CONFLICT,
            None,
        ),
        Err(e) => ui::db_error(e),
    }
}

/// Why an operation's landing cannot be used: a sale that is not one of its site's, a home
/// its site does not have.
async fn target_refusal(
    db: &app::platform::db::Db,
    o: &rules::NewOperation,
) -> Result<Option<&'static str>, sqlx::Error> {
    Ok(match o.target_kind {
        "sale" => {
            let sale = o.target.parse().unwrap_or(0);
            (!store::is_sale_of_site(db, sale, o.site_id).await?).then_some("operations.error.sale")
        }
        _ => (!store::is_home_of_site(db, &o.target, o.site_id).await?)
            .then_some("operations.error.home_unknown"),
    })
}
