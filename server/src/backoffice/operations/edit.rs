//! Changing an operation: its title, landing and dates (its site and code stay: links and
//! the operation cookie carry the code), or ending it now. Both audited.
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::super::audit::{self, Entry};
use super::super::roles::Permission;
use super::super::session::{Operator, OperatorForm};
use super::super::{ui, PREFIX};
use super::{form, rules, store, target_refusal, Fields};
use crate::state::AppCtx;

/// The stored operation as the form shows it.
fn fields_of(o: &store::OperationRow) -> Fields {
    [
        ("site", o.site_id.to_string()),
        ("code", o.code.clone()),
        ("title", o.title.clone()),
        ("target_kind", o.target_kind.clone()),
        ("target", o.target.clone()),
        ("starts_at", ui::datetime_value(o.starts_at)),
        ("ends_at", ui::datetime_value(o.ends_at)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

async fn load(app: &AppCtx, op: &Operator, id: i64) -> Result<store::OperationRow, Response> {
    match store::one(&app.state.db, id).await {
        Ok(Some(o)) => Ok(o),
        Ok(None) => Err(ui::not_found(op)),
        Err(e) => Err(ui::db_error(e)),
    }
}

pub async fn page(State(app): State<Arc<AppCtx>>, op: Operator, Path(id): Path<i64>) -> Response {
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let o = match load(&app, &op, id).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let f = fields_of(&o);
    form(&op, &f, &Vec::new(), StatusCode::OK, Some((id, &o.code)))
}

pub async fn save(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form_in: OperatorForm<Fields>,
) -> Response {
    let op = &form_in.operator;
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let o = match load(&app, op, id).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    // The site and code are the stored ones, whatever the post says.
    let mut f = form_in.fields.clone();
    f.insert("site".into(), o.site_id.to_string());
    f.insert("code".into(), o.code.clone());
    let editing = Some((id, o.code.as_str()));
    let changed = match rules::operation(&f) {
        Ok(c) => c,
        Err(errors) => return form(op, &f, &errors, StatusCode::UNPROCESSABLE_ENTITY, editing),
    };
    let db = &app.state.db;
    match target_refusal(db, &changed).await {
        Ok(None) => {}
        Ok(Some(key)) => {
            let errors = vec![("target", key)];
            return form(op, &f, &errors, StatusCode::UNPROCESSABLE_ENTITY, editing);
        }
        Err(e) => return ui::db_error(e),
    }
    let now = app::platform::state::now();
    let saved = async {
        let mut tx = db.begin().await?;
        if !store::update(&mut tx, id, &changed).await? {
            return Ok(false);
        }
        let entry = Entry {
            action: "update",
            object_kind: "operation",
            object_id: id.to_string(),
            summary: format!(
                "{} lands on {} {}, {} → {}",
                o.code,
                changed.target_kind,
                changed.target,
                ui::when(changed.starts_at),
                ui::when(changed.ends_at)
            ),
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(true)
    }
    .await;
    match saved {
        Ok(true) => ui::see_other(&format!("{PREFIX}/operations/{id}?done=saved")),
        Ok(false) => ui::not_found(op),
        Err(e) => ui::db_error(e),
    }
}

pub async fn end_now(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form_in: OperatorForm<Fields>,
) -> Response {
    let op = &form_in.operator;
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let o = match load(&app, op, id).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let now = app::platform::state::now();
    let ended = async {
        let mut tx = app.state.db.begin().await?;
        if !store::end_now(&mut tx, id, now).await? {
            return Ok(false);
        }
        let entry = Entry {
            action: "end",
            object_kind: "operation",
            object_id: id.to_string(),
            summary: format!("{} ended early", o.code),
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(true)
    }
    .await;
    match ended {
        // Ending twice is harmless: the page says it has ended.
        Ok(_) => ui::see_other(&format!("{PREFIX}/operations/{id}?done=ended")),
        Err(e) => ui::db_error(e),
    }
}
