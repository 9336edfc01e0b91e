//! Admins manage operators: invite one (a one-time set-up link), change a role, deactivate
//! or reactivate. The last admin cannot lose the role or be deactivated, and nobody can
//! deactivate themselves. Each change is audited.
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;

use app::platform::state::now;

use super::audit::{self, Actor, Entry};
use super::roles::{Permission, Role};
use super::session::{Operator, OperatorForm};
use super::{signin, store, text, ui, PREFIX};
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/operators"), get(list_page))
        .route(&format!("{PREFIX}/operators/invite"), post(invite_form))
        .route(&format!("{PREFIX}/operators/update"), post(update_form))
}

#[derive(Debug, PartialEq, Eq)]
pub enum InviteError {
    Email,
    Name,
    Taken,
    Db(String),
}

/// Creates an operator without credentials and their set-up link (its path). Used by the
/// admins' form and by `server operators create-admin`.
pub async fn invite(
    db: &app::platform::db::Db,
    actor: &Actor,
    email: &str,
    name: &str,
    role: Role,
    lang: &str,
) -> Result<String, InviteError> {
    let email = email.trim().to_lowercase();
    let name = name.trim();
    if !app::text::email::is_valid_email(&email) || email.len() > 254 {
        return Err(InviteError::Email);
    }
    if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(InviteError::Name);
    }
    let lang = if text::LANGS.contains(&lang) {
        lang
    } else {
        "en"
    };
    let at = now();
    let db_err = |e: sqlx::Error| InviteError::Db(e.to_string());
    let mut tx = db.begin().await.map_err(db_err)?;
    let Some(id) = store::insert(&mut tx, &email, name, role, lang, at)
        .await
        .map_err(db_err)?
    else {
        return Err(InviteError::Taken);
    };
    let link = signin::new_setup_link(&mut tx, id, at)
        .await
        .map_err(db_err)?;
    let entry = Entry {
        action: "invite",
        object_kind: "operator",
        object_id: id.to_string(),
        summary: format!("invited {email} as {}", role.as_str()),
    };
    audit::record(&mut tx, actor, entry, at)
        .await
        .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(link)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ListQuery {
    done: String,
}

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct InviteFields {
    email: String,
    name: String,
    role: String,
    lang: String,
}

fn list_view(
    op: &Operator,
    rows: Vec<store::OperatorRow>,
    fields: &InviteFields,
    errors: &[(&str, &str)],
    notice: Option<String>,
    link: Option<String>,
    status: StatusCode,
) -> Response {
    let t = |k: &str| op.t(k);
    let err = |name: &str| errors.iter().find(|(f, _)| *f == name).map(|(_, e)| *e);
    let summary = (!errors.is_empty())
        .then(|| view! { <p class="bo-error" role="alert">{t("form.errors")}</p> });
    let link = link.map(|l| view! { <p class="bo-notice" role="status">{t("operators.invited")}" "<code id="setup-link">{l}</code></p> });
    let role_options = |selected: &str| {
        Role::ALL
            .into_iter()
            .map(|r| view! { <option value=r.as_str() selected=r.as_str() == selected>{r.as_str()}</option> })
            .collect_view()
    };
    let table_rows = rows
        .into_iter()
        .map(|o| {
            let status = if !o.active {
                t("operators.inactive")
            } else if o.totp_secret.is_empty() {
                t("operators.pending")
            } else {
                t("operators.active")
            };
            let id = o.id.to_string();
            let role_label = format!("{} {}", t("operators.role"), o.email);
            let toggle = if o.active { t("operators.deactivate") } else { t("operators.reactivate") };
            view! {
                <tr>
                    <td>{o.email.clone()}</td>
                    <td>{o.name.clone()}</td>
                    <td>{status}</td>
                    <td>
                        <form method="post" action=format!("{PREFIX}/operators/update") class="bo-inline">
                            {ui::xsrf_field(op)}
                            <input type="hidden" name="id" value=id.clone() />
                            <select name="role" aria-label=role_label>{role_options(o.role.as_str())}</select>
                            <button type="submit" name="action" value="role" class="bo-secondary">{t("operators.change_role")}</button>
                            <button type="submit" name="action" value=if o.active { "deactivate" } else { "reactivate" } class="bo-secondary">{toggle}</button>
                        </form>
                    </td>
                </tr>
            }
        })
        .collect_view();
    let f = fields.clone();
    let body = view! {
        {summary}
        {link}
        <div class="bo-table-wrap" tabindex="0">
            <table>
                <thead><tr><th scope="col">"Email"</th><th scope="col">{t("operators.name")}</th><th scope="col">{t("operators.status")}</th><th scope="col">{t("operators.role")}</th></tr></thead>
                <tbody>{table_rows}</tbody>
            </table>
        </div>
        <h2>{t("operators.invite")}</h2>
        <form method="post" action=format!("{PREFIX}/operators/invite")>
            {ui::xsrf_field(op)}
            {ui::field(t("signin.email"), "email", view! { <input id="email" name="email" type="email" required value=f.email.clone() aria-invalid=err("email").map(|_| "true") aria-describedby=err("email").map(|_| "err-email") /> }.into_any(), err("email"))}
            {ui::field(t("operators.name"), "name", view! { <input id="name" name="name" required maxlength="100" value=f.name.clone() aria-invalid=err("name").map(|_| "true") aria-describedby=err("name").map(|_| "err-name") /> }.into_any(), err("name"))}
            {ui::field(t("operators.role"), "role", view! { <select id="role" name="role">{role_options(if f.role.is_empty() { "merchandiser" } else { &f.role })}</select> }.into_any(), None)}
            {ui::field(t("operators.lang"), "lang", view! { <select id="lang" name="lang"><option value="en" selected=f.lang != "fr">"English"</option><option value="fr" selected=f.lang == "fr">"Français"</option></select> }.into_any(), None)}
            <button type="submit">{t("operators.invite")}</button>
        </form>
    }
    .into_any();
    ui::page(
        status,
        op.lang(),
        Some(op),
        t("operators.title"),
        notice,
        body,
    )
}

pub async fn list_page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(q): Query<ListQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ManageOperators) {
        return r;
    }
    let rows = match store::list(&app.state.db).await {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let notice = (q.done == "saved").then(|| op.t("operators.saved").to_string());
    list_view(
        &op,
        rows,
        &InviteFields::default(),
        &[],
        notice,
        None,
        StatusCode::OK,
    )
}

pub async fn invite_form(
    State(app): State<Arc<AppCtx>>,
    form: OperatorForm<InviteFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ManageOperators) {
        return r;
    }
    let f = &form.fields;
    let role = Role::parse(&f.role).unwrap_or(Role::Merchandiser);
    let result = invite(&app.state.db, &op.actor(), &f.email, &f.name, role, &f.lang).await;
    let rows = match store::list(&app.state.db).await {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    match result {
        // The link is shown once, on this answer (not in a redirect's address: it is a
        // credential until used).
        Ok(path) => {
            let link = format!("{}{path}", app.config.public_origin.trim_end_matches('/'));
            list_view(
                op,
                rows,
                &InviteFields::default(),
                &[],
                None,
                Some(link),
                StatusCode::OK,
            )
        }
        Err(InviteError::Db(e)) => ui::db_error(sqlx::Error::Protocol(e)),
        Err(e) => {
            let errors: Vec<(&str, &str)> = match e {
                InviteError::Email => vec![("email", op.t("operators.email_invalid"))],
                InviteError::Taken => vec![("email", op.t("operators.email_taken"))],
                _ => vec![("name", op.t("operators.name_missing"))],
            };
            list_view(
                op,
                rows,
                f,
                &errors,
                None,
                None,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct UpdateFields {
    id: i64,
    role: String,
    action: String,
}

pub async fn update_form(
    State(app): State<Arc<AppCtx>>,
    form: OperatorForm<UpdateFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ManageOperators) {
        return r;
    }
    let f = &form.fields;
    let db = &app.state.db;
    let Ok(Some(target)) = store::by_id(db, f.id).await else {
        return ui::not_found(op);
    };
    if f.action == "deactivate" && target.id == op.row.id {
        return ui::message_page(
            op.lang(),
            Some(op),
            StatusCode::CONFLICT,
            op.t("operators.self"),
        );
    }
    let at = now();
    let result: Result<Result<(), &str>, sqlx::Error> = async {
        let mut tx = db.begin().await?;
        let (summary, action) = match f.action.as_str() {
            "role" => {
                let Some(role) = Role::parse(&f.role) else {
                    return Ok(Err("form.errors"));
                };
                store::set_role(&mut tx, target.id, role).await?;
                (
                    format!("role: {} → {}", target.role.as_str(), role.as_str()),
                    "role",
                )
            }
            "deactivate" => {
                store::set_active(&mut tx, target.id, false).await?;
                ("active: true → false".to_string(), "deactivate")
            }
            "reactivate" => {
                store::set_active(&mut tx, target.id, true).await?;
                ("active: false → true".to_string(), "reactivate")
            }
            _ => return Ok(Err("form.errors")),
        };
        // Checked after the change, in its transaction, so the refusal undoes it. (On
        // PostgreSQL two admins demoting the last two others at the same instant could
        // both pass; SQLite's single writer orders them.)
        if target.role == Role::Admin && store::active_admins(&mut tx).await? == 0 {
            return Ok(Err("operators.last_admin"));
        }
        let entry = Entry {
            action,
            object_kind: "operator",
            object_id: target.id.to_string(),
            summary: format!("{}: {summary}", target.email),
        };
        audit::record(&mut tx, &op.actor(), entry, at).await?;
        tx.commit().await?;
        Ok(Ok(()))
    }
    .await;
    match result {
        Ok(Ok(())) => ui::see_other(&format!("{PREFIX}/operators?done=saved")),
        Ok(Err(key)) => ui::message_page(
            op.lang(),
            Some(op),
            StatusCode::CONFLICT,
            text::t(op.lang(), key),
        ),
        Err(e) => ui::db_error(e),
    }
}
