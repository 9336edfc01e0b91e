//! A sale's intermediate step (`app::catalog::gate`): the member accepts the sale's listing
//! conditions, emptying a cart of another kind with it when the page offered that, then is
//! back on the page they asked for (Post/Redirect/Get).
use std::sync::Arc;

use axum::extract::Path;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;

use app::catalog::gate::{return_path, FORM_ROUTE};
use app::model::error::WireError;

use super::extract::XsrfForm;
use super::outcome::FormOutcome;
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new().route(FORM_ROUTE, post(accept))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct IntermediateForm {
    #[serde(rename = "returnTo")]
    return_to: String,
    #[serde(rename = "emptyCart")]
    empty_cart: String,
}

async fn accept(Path(sale_id): Path<String>, form: XsrfForm<IntermediateForm>) -> Response {
    let Ok(sale_id) = sale_id.parse::<i64>() else {
        return form.answer(FormOutcome::error("/", "errors.not_found"));
    };
    let back = return_path(sale_id, &form.fields.return_to);
    let Some(m) = form.member() else {
        return form.sign_in_first(&back);
    };
    let member = app::cart::member::Member {
        id: m.member_id,
        site_id: i64::from(m.site_id),
    };
    let now = app::platform::state::now();
    let outcome = match app::catalog::service::accept_intermediate(
        &form.app.cart,
        form.ctx.site_id,
        member,
        sale_id,
        form.fields.empty_cart == "1",
        now,
    )
    .await
    {
        Ok(()) => FormOutcome::to(back),
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, sale_id, "a sale's intermediate step failed");
            }
            FormOutcome::error(&back, e.message_key())
        }
    };
    form.answer(outcome)
}
