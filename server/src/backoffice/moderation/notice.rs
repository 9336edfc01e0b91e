//! One notice: what the notifier wrote and sent, the product as it is now, and the
//! decision (the form, or the decision taken with its statement of reasons).
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use leptos::prelude::*;
use serde::de::IgnoredAny;
use serde::Deserialize;

use app::dsa::mail::{self, Object, Reasons};

use super::rules::{self, DecisionForm};
use super::store::{self, NewDecision, Notice, Taken};
use super::{age, reasons};
use crate::backoffice::audit::{self, Entry};
use crate::backoffice::roles::Permission;
use crate::backoffice::session::{Operator, OperatorForm};
use crate::backoffice::{ui, PREFIX};
use crate::state::AppCtx;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NoticeQuery {
    done: String,
}

/// The notice's page after a write, with what happened.
fn back(id: i64, done: &str) -> Response {
    ui::see_other(&format!("{PREFIX}/moderation/{id}?done={done}"))
}

pub async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    Query(q): Query<NoticeQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ModerateContent) {
        return r;
    }
    const DONE: [&str; 5] = [
        "decided",
        "acknowledged",
        "mailed",
        "restored",
        "mail_failed",
    ];
    let notice = DONE
        .contains(&q.done.as_str())
        .then(|| op.t(&format!("moderation.done.{}", q.done)).to_string());
    render(&app, &op, id, notice, None, StatusCode::OK).await
}

/// A refused or contested decision form, shown again with what was typed.
struct Refused<'a> {
    form: &'a DecisionForm,
    errors: &'a [(&'static str, &'static str)],
}

async fn render(
    app: &AppCtx,
    op: &Operator,
    id: i64,
    notice_text: Option<String>,
    refused: Option<Refused<'_>>,
    status: StatusCode,
) -> Response {
    let n = match notice_of(app, op, id).await {
        Ok(n) => n,
        Err(res) => return res,
    };
    let t = |k: &str| op.t(k);
    let now = app::platform::state::now();
    let title = format!("{} #{}", t("moderation.notice"), n.id);
    let body = view! {
        {facts(op, &n, now)}
        {files(op, &n)}
        {match &n.decision {
            Some(_) => decided(op, &n).into_any(),
            None => form(op, &n, refused).into_any(),
        }}
    }
    .into_any();
    ui::page(status, op.lang(), Some(op), &title, notice_text, body)
}

fn facts(op: &Operator, n: &Notice, now: i64) -> impl IntoView {
    let t = |k: &str| op.t(k);
    let who = match n.made_as {
        1 => n.last_name.clone(),
        _ => n.denomination.clone(),
    };
    let product = match (&n.product, n.product_id) {
        (Some(p), Some(id)) => {
            let state = if p.moderation.is_empty() {
                t("moderation.product_shown").to_string()
            } else {
                op.t(&format!("moderation.product_{}", p.moderation))
                    .to_string()
            };
            view! {
                <a href=format!("{PREFIX}/products/{id}")>{format!("{} (#{id})", p.name)}</a>
                {format!(" · {} #{} · ", t("moderation.sale"), p.sale_id)}
                <strong data-moderation=p.moderation.clone()>{state}</strong>
            }
            .into_any()
        }
        (None, Some(id)) => {
            view! { {format!("#{id} · {}", t("moderation.product_gone"))} }.into_any()
        }
        (_, None) => view! { {t("moderation.no_product")} }.into_any(),
    };
    let ack = match n.acknowledged_at {
        Some(at) => view! { {format!("{} {}", t("moderation.acknowledged_at"), ui::when(at))} }.into_any(),
        None => view! {
            <span>{t("moderation.not_acknowledged")}</span>
            <form method="post" action=format!("{PREFIX}/moderation/{}/acknowledge", n.id) class="bo-inline">
                {ui::xsrf_field(op)}
                <button type="submit" class="bo-secondary">{t("moderation.send_ack")}</button>
            </form>
        }
        .into_any(),
    };
    let optional = |label: &'static str, value: &str| {
        (!value.trim().is_empty())
            .then(|| view! { <dt>{t(label)}</dt><dd>{value.to_string()}</dd> })
    };
    view! {
        <dl class="bo-facts" id="notice-facts">
            <dt>{t("moderation.received")}</dt>
            <dd>{format!("{} ({})", ui::when(n.created_at), age(op, n.created_at, now))}</dd>
            <dt>{t("sales.site")}</dt><dd>{n.site_id}</dd>
            <dt>{t("moderation.acknowledgement")}</dt><dd>{ack}</dd>
            <dt>{t("moderation.notifier")}</dt>
            <dd>{format!("{} · {}", op.t(&format!("made_as.{}", n.made_as)), who)}</dd>
            <dt>{t("moderation.email")}</dt><dd>{n.email.clone()}</dd>
            {optional("moderation.reg_office", &n.reg_office)}
            {optional("moderation.reg_number", &n.copyright_reg_number)}
            {optional("moderation.report_number", &n.copyright_report_number)}
            <dt>{t("moderation.reasons")}</dt><dd>{reasons(op, &n.concerns)}</dd>
            <dt>{t("moderation.object")}</dt><dd>{product}</dd>
            {n.sale_id.map(|s| view! { <dt>{t("moderation.sale")}</dt><dd>{format!("#{s}")}</dd> })}
            <dt>{t("moderation.description")}</dt><dd class="bo-text">{n.description.clone()}</dd>
        </dl>
    }
}

fn files(op: &Operator, n: &Notice) -> impl IntoView {
    let t = |k: &str| op.t(k);
    let list = if n.files.is_empty() {
        view! { <p>{t("moderation.no_files")}</p> }.into_any()
    } else {
        view! {
            <ul id="notice-files">
                {n.files.iter().map(|f| view! {
                    <li><a href=format!("{PREFIX}/moderation/{}/files/{}", n.id, f.id) download=f.name.clone()>{f.name.clone()}</a>
                        {format!(" ({} kB)", (f.size + 1023) / 1024)}</li>
                }).collect_view()}
            </ul>
        }
        .into_any()
    };
    view! { <h2>{t("moderation.files")}</h2>{list} }
}

fn decided(op: &Operator, n: &Notice) -> impl IntoView {
    let t = |k: &str| op.t(k);
    let Some(d) = &n.decision else {
        return ().into_any();
    };
    let mailed = match d.mailed_at {
        Some(at) => {
            view! { <p>{format!("{} {}", t("moderation.mailed_at"), ui::when(at))}</p> }.into_any()
        }
        None => view! {
            <p class="bo-error" role="alert">{t("moderation.not_mailed")}</p>
            <form method="post" action=format!("{PREFIX}/moderation/{}/statement", n.id)>
                {ui::xsrf_field(op)}
                <button type="submit">{t("moderation.send_statement")}</button>
            </form>
        }
        .into_any(),
    };
    let restore = n
        .product
        .as_ref()
        .filter(|p| p.moderation == "disabled" || p.moderation == "restricted")
        .map(|_| {
            view! {
                <form method="post" action=format!("{PREFIX}/moderation/{}/restore", n.id)>
                    {ui::xsrf_field(op)}
                    <p>{t("moderation.restore_hint")}</p>
                    <button type="submit" class="bo-secondary">{t("moderation.restore")}</button>
                </form>
            }
        });
    view! {
        <h2>{t("moderation.decision")}</h2>
        <dl class="bo-facts" id="notice-decision" data-decision=d.decision.clone()>
            <dt>{t("moderation.decision")}</dt><dd>{op.t(&format!("decision.{}", d.decision)).to_string()}</dd>
            <dt>{t("moderation.ground")}</dt><dd>{op.t(&format!("ground.{}", d.ground)).to_string()}</dd>
            <dt>{t("moderation.by")}</dt><dd>{format!("{} · {}", d.operator_email, ui::when(d.decided_at))}</dd>
        </dl>
        <h3>{t("moderation.statement")}</h3>
        <pre class="bo-text" id="statement">{d.statement.clone()}</pre>
        {mailed}
        {restore}
    }
    .into_any()
}

fn form(op: &Operator, n: &Notice, refused: Option<Refused<'_>>) -> impl IntoView {
    let t = |k: &str| op.t(k);
    let empty = DecisionForm::default();
    let (typed, errors) = match &refused {
        Some(r) => (r.form, r.errors),
        None => (&empty, &[][..]),
    };
    let m = ui::FieldMessages::new(op, errors);
    let radios = |name: &'static str,
                  values: &[&'static str],
                  prefix: &'static str,
                  chosen: &str| {
        values
            .iter()
            .map(|v| {
                let id = format!("{name}-{v}");
                let is_chosen = chosen == *v;
                view! {
                    <div>
                        <input type="radio" id=id.clone() name=name value=*v checked=is_chosen
                            required aria-invalid=m.invalid(name) aria-describedby=m.described(name) />
                        <label for=id>{op.t(&format!("{prefix}.{v}")).to_string()}</label>
                    </div>
                }
            })
            .collect_view()
    };
    let error = |name: &'static str| {
        m.message(name).map(|e| {
            view! { <p class="bo-field-error" id=format!("err-{name}") data-error-for=name>{e}</p> }
        })
    };
    let decisions: Vec<&'static str> = app::dsa::mail::Decision::ALL
        .iter()
        .map(|d| d.as_str())
        .collect();
    view! {
        <h2>{t("moderation.decide")}</h2>
        {m.summary()}
        <form method="post" action=format!("{PREFIX}/moderation/{}", n.id) id="decide" data-enhance novalidate>
            {ui::xsrf_field(op)}
            <fieldset>
                <legend>{t("moderation.decision")}</legend>
                {radios("decision", &decisions, "decision", &typed.decision)}
                {error("decision")}
            </fieldset>
            <fieldset>
                <legend>{t("moderation.ground")}</legend>
                {radios("ground", &["illegal", "terms"], "ground", &typed.ground)}
                {error("ground")}
            </fieldset>
            <div class="bo-field" data-field>
                <label for="facts">{t("moderation.facts")}</label>
                <textarea id="facts" name="facts" rows="4" maxlength=rules::TEXT_MAX.to_string() required
                    aria-invalid=m.invalid("facts") aria-describedby=m.described("facts")>{typed.facts.clone()}</textarea>
                {error("facts")}
            </div>
            <div class="bo-field" data-field>
                <label for="explanation">{t("moderation.explanation")}</label>
                <textarea id="explanation" name="explanation" rows="4" maxlength=rules::TEXT_MAX.to_string() required
                    aria-invalid=m.invalid("explanation") aria-describedby=m.described("explanation")>{typed.explanation.clone()}</textarea>
                {error("explanation")}
            </div>
            <p>{t("moderation.decide_hint")}</p>
            <button type="submit">{t("moderation.decide_submit")}</button>
        </form>
    }
}

/// The notice, or the page that says why not (none: 404; a database failure: 500).
async fn notice_of(app: &AppCtx, op: &Operator, id: i64) -> Result<Notice, Response> {
    match store::notice(&app.state.db, id).await {
        Ok(Some(n)) => Ok(n),
        Ok(None) => Err(ui::not_found(op)),
        Err(e) => Err(ui::db_error(e)),
    }
}

/// What a notice's emails name.
async fn object(app: &AppCtx, n: &Notice) -> Result<Object, sqlx::Error> {
    app::dsa::store::object_of(&app.state.db, n.sale_id, n.product_id).await
}

/// Every copy a member could still see the product in: pages, search, cart reads.
fn forget_copies(app: &AppCtx) {
    app.page_cache.clear();
    app.search.clear();
    app.cart.forget_options();
}

pub async fn decide(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<DecisionForm>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ModerateContent) {
        return r;
    }
    let n = match notice_of(&app, op, id).await {
        Ok(n) => n,
        Err(res) => return res,
    };
    let checked = match rules::check(&form.fields, n.product.is_some()) {
        Ok(c) => c,
        Err(errors) => {
            let refused = Refused {
                form: &form.fields,
                errors: &errors,
            };
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            return render(&app, op, id, None, Some(refused), status).await;
        }
    };
    let now = app::platform::state::now();
    let object = match object(&app, &n).await {
        Ok(o) => o,
        Err(e) => return ui::db_error(e),
    };
    let reasons = Reasons {
        decision: checked.decision,
        ground: checked.ground,
        facts: &checked.facts,
        explanation: &checked.explanation,
    };
    let statement = mail::statement(n.id, n.site_id, n.created_at, &n.email, &object, &reasons);
    let written = async {
        let mut tx = app.state.db.begin().await?;
        let new = NewDecision {
            report_id: id,
            decision: checked.decision,
            ground: checked.ground,
            facts: &checked.facts,
            explanation: &checked.explanation,
            statement: &statement.body,
            operator_id: op.row.id,
            now,
        };
        let taken = store::decide(&mut tx, &new, n.product_id).await?;
        if let Taken::Done { product } = &taken {
            let mut summary = format!(
                "decision: {}; ground: {}",
                checked.decision.as_str(),
                checked.ground.as_str()
            );
            if let Some((pid, before, after)) = product {
                summary.push_str(&format!("; product {pid}: {before:?} → {after:?}"));
            }
            let entry = Entry {
                action: "decide",
                object_kind: "notice",
                object_id: id.to_string(),
                summary,
            };
            audit::record(&mut tx, &op.actor(), entry, now).await?;
            tx.commit().await?;
        }
        Ok::<Taken, sqlx::Error>(taken)
    }
    .await;
    match written {
        Ok(Taken::AlreadyDecided) => {
            let text = op.t("moderation.already_decided").to_string();
            render(&app, op, id, Some(text), None, StatusCode::CONFLICT).await
        }
        Ok(Taken::Done { product }) => {
            if product.is_some() {
                forget_copies(&app);
            }
            match app::platform::mail::send(&app.settings.mail, &statement, now).await {
                Ok(_) => match store::statement_mailed(&app.state.db, id, now).await {
                    Ok(()) => back(id, "decided"),
                    Err(e) => ui::db_error(e),
                },
                Err(e) => {
                    tracing::warn!(notice = id, error = %e, "statement of reasons not sent");
                    back(id, "mail_failed")
                }
            }
        }
        Err(e) => ui::db_error(e),
    }
}

pub async fn acknowledge(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<IgnoredAny>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ModerateContent) {
        return r;
    }
    let now = app::platform::state::now();
    if app::dsa::service::acknowledge(&app.state, &app.settings.mail, id, now).await {
        back(id, "acknowledged")
    } else {
        back(id, "mail_failed")
    }
}

pub async fn resend_statement(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<IgnoredAny>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ModerateContent) {
        return r;
    }
    let n = match notice_of(&app, op, id).await {
        Ok(n) => n,
        Err(res) => return res,
    };
    let Some(d) = &n.decision else {
        return back(id, "");
    };
    // The statement is sent as it was kept, word for word.
    let statement = app::platform::mail::Mail {
        to: n.email.clone(),
        subject: mail::statement_subject(id, n.site_id),
        body: d.statement.clone(),
    };
    let now = app::platform::state::now();
    match app::platform::mail::send(&app.settings.mail, &statement, now).await {
        Ok(_) => match store::statement_mailed(&app.state.db, id, now).await {
            Ok(()) => back(id, "mailed"),
            Err(e) => ui::db_error(e),
        },
        Err(_) => back(id, "mail_failed"),
    }
}

pub async fn restore(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<IgnoredAny>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ModerateContent) {
        return r;
    }
    let product_id = match store::notice(&app.state.db, id).await {
        Ok(Some(Notice {
            product_id: Some(p),
            ..
        })) => p,
        Ok(_) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let now = app::platform::state::now();
    let done = async {
        let mut tx = app.state.db.begin().await?;
        let before = store::restore(&mut tx, product_id).await?;
        if let Some(before) = &before {
            let entry = Entry {
                action: "restore",
                object_kind: "product",
                object_id: product_id.to_string(),
                summary: format!("moderation: {before:?} → \"\" (notice {id})"),
            };
            audit::record(&mut tx, &op.actor(), entry, now).await?;
            tx.commit().await?;
        }
        Ok::<bool, sqlx::Error>(before.is_some())
    }
    .await;
    match done {
        Ok(changed) => {
            if changed {
                forget_copies(&app);
            }
            back(id, "restored")
        }
        Err(e) => ui::db_error(e),
    }
}

pub async fn download(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path((id, file)): Path<(i64, i64)>,
) -> Response {
    if let Err(r) = op.require(Permission::ModerateContent) {
        return r;
    }
    match store::file(&app.state.db, id, file).await {
        Ok(Some((name, bytes))) => {
            crate::web::download::attachment(&name, "application/octet-stream", bytes)
        }
        Ok(None) => ui::not_found(&op),
        Err(e) => ui::db_error(e),
    }
}
