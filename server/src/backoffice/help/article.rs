//! One help article in one language: its edit form (title, text, the version shown) and
//! "back to the original text". A save or a restore acts only on the version the form
//! showed: when someone else saved meanwhile, the operator is told, sees what is saved
//! now, and keeps their text in the form; nothing is overwritten.
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use leptos::prelude::*;
use serde::Deserialize;

use app::help::answer::Article;

use super::store::{self, NewText, Restored, Written, KIND};
use super::{lang_label, PREFIX};
use crate::backoffice::audit::{self, change, Entry};
use crate::backoffice::roles::Permission;
use crate::backoffice::session::{Operator, OperatorForm};
use crate::backoffice::ui;
use crate::state::AppCtx;

/// The bundled titles run to 40 characters and texts to some 400: room to spare, while a
/// text stays an answer a member reads in the help form.
pub const TITLE_MAX: usize = 120;
pub const BODY_MAX: usize = 5000;

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct ArticleFields {
    version: String,
    title: String,
    body: String,
}

/// The title and text cleaned, or the text key of what is wrong.
fn check(f: &ArticleFields) -> Result<(String, String), &'static str> {
    let title: String = f.title.trim().chars().filter(|c| !c.is_control()).collect();
    if title.is_empty() || title.chars().count() > TITLE_MAX {
        return Err("help.error.title");
    }
    // Line breaks stay (the text is shown as the operator wrote it); other control
    // characters go.
    let body: String = f
        .body
        .replace("\r\n", "\n")
        .trim()
        .chars()
        .filter(|c| *c == '\n' || !c.is_control())
        .collect();
    if body.is_empty() || body.chars().count() > BODY_MAX {
        return Err("help.error.body");
    }
    Ok((title, body))
}

/// The bundled article of a known language, or none (the page answers 404).
fn bundled(lang: &str, id: &str) -> Option<(&'static str, Article)> {
    let lang = app::help::kb::LANGS.iter().find(|l| **l == lang)?;
    let article = app::help::kb::articles(lang)
        .into_iter()
        .find(|a| a.id == id)?;
    Some((lang, article))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PageQuery {
    done: String,
}

/// What the page shows besides the article as saved.
#[derive(Default)]
struct Shown {
    notice: Option<String>,
    error: Option<&'static str>,
    /// The operator's own text, when the form comes back to them.
    typed: Option<ArticleFields>,
    /// Someone saved since the form was shown: show what is saved now beside their text.
    changed: bool,
}

pub async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path((lang, id)): Path<(String, String)>,
    Query(q): Query<PageQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::EditHelpArticles) {
        return r;
    }
    let notice = match q.done.as_str() {
        "saved" => Some(op.t("help.saved").to_string()),
        "restored" => Some(op.t("help.restored").to_string()),
        _ => None,
    };
    let shown = Shown {
        notice,
        ..Shown::default()
    };
    render(&app, &op, &lang, &id, shown, StatusCode::OK).await
}

async fn render(
    app: &AppCtx,
    op: &Operator,
    lang: &str,
    id: &str,
    shown: Shown,
    status: StatusCode,
) -> Response {
    let Some((lang, original)) = bundled(lang, id) else {
        return ui::not_found(op);
    };
    let (edit, version) = match store::article(&app.state.db, lang, id).await {
        Ok(a) => a,
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let (title_now, body_now) = match &edit {
        Some(e) => (e.title.clone(), e.body.clone()),
        None => (original.title.clone(), original.body.clone()),
    };
    let typed = shown.typed.clone().unwrap_or(ArticleFields {
        version: String::new(),
        title: title_now.clone(),
        body: body_now.clone(),
    });
    let state = match &edit {
        Some(e) => format!(
            "{} · {} · {}",
            t("help.edited"),
            e.updated_by,
            ui::when(e.updated_at)
        ),
        None => t("help.original").to_string(),
    };
    let error = shown
        .error
        .map(|k| view! { <p class="bo-error" role="alert" id="article-error">{op.t(k)}</p> });
    let changed = shown.changed.then(|| {
        view! {
            <p class="bo-error" role="alert" id="article-changed">{t("help.changed")}</p>
            <section id="saved-now" aria-labelledby="saved-now-title">
                <h2 id="saved-now-title">{t("help.saved_now")}</h2>
                <h3 lang=lang>{title_now.clone()}</h3>
                <p class="bo-text" lang=lang>{body_now.clone()}</p>
            </section>
        }
    });
    let invalid = |field: &str| {
        (shown.error
            == Some(if field == "title" {
                "help.error.title"
            } else {
                "help.error.body"
            }))
        .then_some("true")
    };
    let described = |field: &str| invalid(field).map(|_| "article-error");
    let action = format!("{PREFIX}/help/{lang}/{id}");
    let restore = edit.as_ref().map(|_| {
        view! {
            <h2>{t("help.original_text")}</h2>
            <h3 lang=lang>{original.title.clone()}</h3>
            <p class="bo-text" lang=lang id="original-text">{original.body.clone()}</p>
            <form method="post" action=format!("{action}/restore") id="restore">
                {ui::xsrf_field(op)}
                <input type="hidden" name="version" value=version.to_string() />
                <p class="bo-hint">{t("help.restore_hint")}</p>
                <button type="submit" class="bo-secondary">{t("help.restore")}</button>
            </form>
        }
    });
    let marked = if edit.is_some() { "edited" } else { "original" };
    let body = view! {
        <p><a href=format!("{PREFIX}/help?lang={lang}")>{t("help.back")}</a></p>
        <dl class="bo-facts" id="article-facts" data-state=marked>
            <dt>{t("help.langs")}</dt><dd>{lang_label(op, lang)}</dd>
            <dt>{t("help.article")}</dt><dd><code>{id.to_string()}</code></dd>
            <dt>{t("help.state")}</dt><dd>{state}</dd>
        </dl>
        {changed}
        <form method="post" action=action id="article" class="bo-stack" data-enhance>
            {ui::xsrf_field(op)}
            <input type="hidden" name="version" value=version.to_string() />
            {error}
            <label for="title">{t("help.title_field")}</label>
            <input id="title" name="title" lang=lang maxlength=TITLE_MAX.to_string() required
                value=typed.title.clone() aria-invalid=invalid("title") aria-describedby=described("title") />
            <label for="body">{t("help.body")}</label>
            <textarea id="body" name="body" lang=lang rows="10" maxlength=BODY_MAX.to_string() required
                aria-invalid=invalid("body") aria-describedby=described("body")>{typed.body.clone()}</textarea>
            <button type="submit">{t("help.save")}</button>
        </form>
        {restore}
    }
    .into_any();
    let title = format!("{}: {}", t("help.title"), original.title);
    ui::page(status, op.lang(), Some(op), &title, shown.notice, body)
}

fn bad_request(op: &Operator) -> Response {
    ui::message_page(
        op.lang(),
        Some(op),
        StatusCode::BAD_REQUEST,
        op.t("form.errors"),
    )
}

/// After a write: this instance's answerer reads the edits again, so the next question is
/// answered from the saved text. The write is committed either way; a failed reload is
/// caught up by the periodic one.
async fn refresh(app: &AppCtx) {
    if let Err(e) = app.help.reload(&app.state.db).await {
        tracing::warn!(error = %e, "help articles saved but not reloaded");
    }
}

pub async fn save(
    State(app): State<Arc<AppCtx>>,
    Path((lang, id)): Path<(String, String)>,
    form: OperatorForm<ArticleFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditHelpArticles) {
        return r;
    }
    let Some((lang, original)) = bundled(&lang, &id) else {
        return ui::not_found(op);
    };
    let Ok(seen) = form.fields.version.parse::<i64>() else {
        return bad_request(op);
    };
    let (title, body) = match check(&form.fields) {
        Ok(c) => c,
        Err(key) => {
            let shown = Shown {
                error: Some(key),
                typed: Some(form.fields.clone()),
                ..Shown::default()
            };
            return render(&app, op, lang, &id, shown, StatusCode::BAD_REQUEST).await;
        }
    };
    let now = app::platform::state::now();
    let text = NewText {
        lang,
        article_id: &id,
        title: &title,
        body: &body,
        operator_id: op.row.id,
        now,
    };
    let written = async {
        let mut tx = app.state.db.begin().await?;
        let written = store::save(&mut tx, &text, seen).await?;
        if let Written::Done(before) = &written {
            let (title_before, body_before) = match before {
                Some(e) => (e.title.as_str(), e.body.as_str()),
                None => (original.title.as_str(), original.body.as_str()),
            };
            let changes: Vec<String> = [
                change("title", title_before, &title),
                change("body", body_before, &body),
            ]
            .into_iter()
            .flatten()
            .collect();
            let entry = Entry {
                action: "update",
                object_kind: KIND,
                object_id: store::object_id(lang, &id),
                summary: format!("version {} → {}; {}", seen, seen + 1, changes.join("; ")),
            };
            audit::record(&mut tx, &op.actor(), entry, now).await?;
            tx.commit().await?;
        }
        Ok::<_, sqlx::Error>(written)
    }
    .await;
    match written {
        Ok(Written::Done(_)) => {
            refresh(&app).await;
            ui::see_other(&format!("{PREFIX}/help/{lang}/{id}?done=saved"))
        }
        Ok(Written::Changed) => {
            let shown = Shown {
                typed: Some(form.fields.clone()),
                changed: true,
                ..Shown::default()
            };
            render(&app, op, lang, &id, shown, StatusCode::CONFLICT).await
        }
        Err(e) => ui::db_error(e),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RestoreFields {
    version: String,
}

pub async fn restore(
    State(app): State<Arc<AppCtx>>,
    Path((lang, id)): Path<(String, String)>,
    form: OperatorForm<RestoreFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditHelpArticles) {
        return r;
    }
    let Some((lang, original)) = bundled(&lang, &id) else {
        return ui::not_found(op);
    };
    let Ok(seen) = form.fields.version.parse::<i64>() else {
        return bad_request(op);
    };
    let now = app::platform::state::now();
    let restored = async {
        let mut tx = app.state.db.begin().await?;
        let restored = store::restore(&mut tx, lang, &id, seen).await?;
        if let Restored::Done(before) = &restored {
            let changes: Vec<String> = [
                change("title", &before.title, &original.title),
                change("body", &before.body, &original.body),
            ]
            .into_iter()
            .flatten()
            .collect();
            let entry = Entry {
                action: "restore",
                object_kind: KIND,
                object_id: store::object_id(lang, &id),
                summary: format!("back to the original text; {}", changes.join("; ")),
            };
            audit::record(&mut tx, &op.actor(), entry, now).await?;
            tx.commit().await?;
        }
        Ok::<_, sqlx::Error>(restored)
    }
    .await;
    match restored {
        Ok(Restored::Done(_)) => {
            refresh(&app).await;
            ui::see_other(&format!("{PREFIX}/help/{lang}/{id}?done=restored"))
        }
        Ok(Restored::Original) => {
            ui::see_other(&format!("{PREFIX}/help/{lang}/{id}?done=restored"))
        }
        Ok(Restored::Changed) => {
            let shown = Shown {
                changed: true,
                ..Shown::default()
            };
            render(&app, op, lang, &id, shown, StatusCode::CONFLICT).await
        }
        Err(e) => ui::db_error(e),
    }
}
