//! The help articles behind the help centre's automatic answers, per site language:
//! the list with a tab per language, each article marked edited or original, and
//! `article`, its edit form and "back to the original text". The text bundled with the
//! build (`app/src/help/kb/<lang>.json`) is the default; an edit (`help_articles`)
//! overrides it, and the answerer is rebuilt as soon as the edit commits.
pub mod article;
pub mod store;

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;

use app::help::kb::LANGS;

use super::roles::Permission;
use super::session::Operator;
use super::{ui, PREFIX};
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/help"), get(list_page))
        .route(
            &format!("{PREFIX}/help/{{lang}}/{{id}}"),
            get(article::page).post(article::save),
        )
        .route(
            &format!("{PREFIX}/help/{{lang}}/{{id}}/restore"),
            post(article::restore),
        )
}

/// The language's label in the operator's words, with its code.
pub fn lang_label(op: &Operator, lang: &str) -> String {
    format!("{} ({lang})", op.t(&format!("help.lang.{lang}")))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ListQuery {
    lang: String,
}

async fn list_page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(q): Query<ListQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::EditHelpArticles) {
        return r;
    }
    let lang = LANGS
        .iter()
        .find(|l| **l == q.lang)
        .copied()
        .unwrap_or("fr");
    let edited = match store::edited(&app.state.db, lang).await {
        Ok(e) => e,
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let tabs = LANGS
        .iter()
        .map(|l| {
            view! {
                <a href=format!("{PREFIX}/help?lang={l}") aria-current=(*l == lang).then_some("page") lang=*l>
                    {lang_label(&op, l)}
                </a>
            }
        })
        .collect_view();
    let rows = app::help::kb::articles(lang)
        .into_iter()
        .map(|a| {
            let edit = edited.iter().find(|e| e.article_id == a.id);
            let title = edit.map_or(a.title.clone(), |e| e.title.clone());
            let state = match edit {
                Some(e) => format!(
                    "{} · {} · {}",
                    t("help.edited"),
                    e.updated_by,
                    ui::when(e.updated_at)
                ),
                None => t("help.original").to_string(),
            };
            let marked = if edit.is_some() { "edited" } else { "original" };
            view! {
                <tr data-article=a.id.clone() data-state=marked>
                    <td lang=lang><a href=format!("{PREFIX}/help/{lang}/{}", a.id)>{title}</a></td>
                    <td><code>{a.id.clone()}</code></td>
                    <td>{state}</td>
                </tr>
            }
        })
        .collect_view();
    let body = view! {
        <p>{t("help.intro")}</p>
        <nav class="bo-tabs" aria-label=t("help.langs")>{tabs}</nav>
        <div class="bo-table-wrap" tabindex="0">
            <table id="articles" data-lang=lang>
                <thead><tr>
                    <th scope="col">{t("help.title_field")}</th>
                    <th scope="col">{t("help.article")}</th>
                    <th scope="col">{t("help.state")}</th>
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
        t("help.title"),
        None,
        body,
    )
}
