//! Saved replies, per language of the sites: a title for the desk's list and the text put
//! in a ticket's answer field.
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use leptos::prelude::*;
use serde::Deserialize;

use app::help::store;

use crate::backoffice::audit::{self, Entry};
use crate::backoffice::roles::Permission;
use crate::backoffice::session::{Operator, OperatorForm};
use crate::backoffice::{ui, PREFIX};
use crate::state::AppCtx;

const TITLE_MAX: usize = 80;
const BODY_MAX: usize = 5000;

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct ReplyFields {
    lang: String,
    title: String,
    body: String,
}

/// The fields cleaned, or the text key of what is wrong.
fn check(f: &ReplyFields) -> Result<(String, String, String), &'static str> {
    if !app::site::i18n::LANGS.contains(&f.lang.as_str()) {
        return Err("replies.error.lang");
    }
    let title: String = f.title.trim().chars().filter(|c| !c.is_control()).collect();
    if title.is_empty() || title.chars().count() > TITLE_MAX {
        return Err("replies.error.title");
    }
    let body = f.body.trim().to_string();
    if body.is_empty() || body.chars().count() > BODY_MAX {
        return Err("replies.error.body");
    }
    Ok((f.lang.clone(), title, body))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PageQuery {
    done: String,
}

/// A refused form: which (`new` or a reply's id), why, and what was typed.
struct Refused {
    form: String,
    key: &'static str,
    typed: ReplyFields,
}

pub async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(q): Query<PageQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::AnswerTickets) {
        return r;
    }
    let notice = (!q.done.is_empty()).then(|| op.t("operators.saved").to_string());
    render(&app, &op, notice, None, StatusCode::OK).await
}

fn fields(
    op: &Operator,
    form: &str,
    typed: &ReplyFields,
    error: Option<&'static str>,
) -> impl IntoView {
    let t = |k: &str| op.t(k);
    let langs = app::site::i18n::LANGS
        .iter()
        .map(|l| view! { <option value=*l selected=typed.lang == *l>{*l}</option> })
        .collect_view();
    let error = error.map(|k| view! { <p class="bo-error" role="alert">{op.t(k)}</p> });
    view! {
        {error}
        <label for=format!("{form}-lang")>{t("operators.lang")}</label>
        <select id=format!("{form}-lang") name="lang">{langs}</select>
        <label for=format!("{form}-title")>{t("replies.title_field")}</label>
        <input id=format!("{form}-title") name="title" maxlength=TITLE_MAX.to_string() required value=typed.title.clone() />
        <label for=format!("{form}-body")>{t("replies.body")}</label>
        <textarea id=format!("{form}-body") name="body" rows="4" maxlength=BODY_MAX.to_string() required>{typed.body.clone()}</textarea>
    }
}

async fn render(
    app: &AppCtx,
    op: &Operator,
    notice: Option<String>,
    refused: Option<Refused>,
    status: StatusCode,
) -> Response {
    let replies = match store::saved_replies(&app.state.db, None).await {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let for_form = |form: &str| refused.as_ref().filter(|r| r.form == form);
    let list = replies
        .iter()
        .map(|r| {
            let form = r.id.to_string();
            let (typed, error) = match for_form(&form) {
                Some(x) => (x.typed.clone(), Some(x.key)),
                None => (
                    ReplyFields {
                        lang: r.lang.clone(),
                        title: r.title.clone(),
                        body: r.body.clone(),
                    },
                    None,
                ),
            };
            view! {
                <li data-reply=r.id.to_string()>
                    <form method="post" action=format!("{PREFIX}/support/replies/{}", r.id) class="bo-stack">
                        {ui::xsrf_field(op)}
                        {fields(op, &format!("r{}", r.id), &typed, error)}
                        <button type="submit" class="bo-secondary">{t("replies.save")}</button>
                    </form>
                </li>
            }
        })
        .collect_view();
    let (typed, error) = match for_form("new") {
        Some(x) => (x.typed.clone(), Some(x.key)),
        None => (
            ReplyFields {
                lang: op.lang().replace("en", "fr"),
                ..ReplyFields::default()
            },
            None,
        ),
    };
    let body = view! {
        <p><a href=format!("{PREFIX}/support")>{t("support.title")}</a></p>
        <h2>{t("replies.new")}</h2>
        <form method="post" action=format!("{PREFIX}/support/replies") class="bo-stack" id="new-reply">
            {ui::xsrf_field(op)}
            {fields(op, "new", &typed, error)}
            <button type="submit">{t("replies.add")}</button>
        </form>
        <h2>{t("replies.list")}</h2>
        {if replies.is_empty() {
            view! { <p>{t("replies.none")}</p> }.into_any()
        } else {
            view! { <ul class="bo-list" id="replies">{list}</ul> }.into_any()
        }}
    }
    .into_any();
    ui::page(
        status,
        op.lang(),
        Some(op),
        t("support.replies"),
        notice,
        body,
    )
}

async fn write(app: &AppCtx, op: &Operator, id: Option<i64>, fields: &ReplyFields) -> Response {
    if let Err(r) = op.require(Permission::AnswerTickets) {
        return r;
    }
    let form = id.map_or("new".to_string(), |i| i.to_string());
    let (lang, title, body) = match check(fields) {
        Ok(c) => c,
        Err(key) => {
            let refused = Refused {
                form,
                key,
                typed: fields.clone(),
            };
            return render(
                app,
                op,
                None,
                Some(refused),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    let now = app::platform::state::now();
    let saved = async {
        let mut tx = app.state.db.begin().await?;
        let Some(saved) = store::save_reply(&mut tx, id, (&lang, &title, &body), now).await? else {
            return Ok(None);
        };
        let entry = Entry {
            action: if id.is_some() { "update" } else { "create" },
            object_kind: "saved_reply",
            object_id: saved.to_string(),
            summary: format!("{lang}: {title:?}"),
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(Some(saved))
    }
    .await;
    match saved {
        Ok(Some(_)) => ui::see_other(&format!("{PREFIX}/support/replies?done=1")),
        Ok(None) => ui::not_found(op),
        Err(e) => ui::db_error(e),
    }
}

pub async fn add(State(app): State<Arc<AppCtx>>, form: OperatorForm<ReplyFields>) -> Response {
    write(&app, &form.operator, None, &form.fields).await
}

pub async fn save(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<ReplyFields>,
) -> Response {
    write(&app, &form.operator, Some(id), &form.fields).await
}
