//! A bundle into the cart (`app::product::bundle`): the product page's form names the sale,
//! the bundle and an option per product (`option_{productId}`); all of its products go in,
//! or none and the page says why by the bundle (Post/Redirect/Get).
use std::collections::HashMap;
use std::sync::Arc;

use axum::response::Response;
use axum::routing::post;
use axum::Router;

use app::product::bundle::{BundleRefusal, FORM_ROUTE, MAX_CHOICES};
use app::product::service::{add_bundle, BundleAddError};

use super::extract::XsrfForm;
use super::outcome::FormOutcome;
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new().route(FORM_ROUTE, post(add))
}

/// The product page the form was on: only a path of this sale's pages goes back.
fn back_to(fields: &HashMap<String, String>, sale_id: i64) -> String {
    let prefixes = [
        format!("/product/{sale_id}/"),
        format!("/catalog/{sale_id}/"),
    ];
    fields
        .get("returnTo")
        .filter(|p| prefixes.iter().any(|x| p.starts_with(x.as_str())))
        .filter(|p| !p.contains(['?', '#', '\\']) && !p.contains("//"))
        .cloned()
        .unwrap_or_else(|| format!("/catalog/{sale_id}/0"))
}

async fn add(form: XsrfForm<HashMap<String, String>>) -> Response {
    let id = |k: &str| {
        form.fields
            .get(k)
            .and_then(|v| v.trim().parse::<i64>().ok())
            .filter(|n| *n > 0)
    };
    let (Some(sale_id), Some(bundle_id)) = (id("saleId"), id("bundleId")) else {
        return form.answer(FormOutcome::error("/", "errors.not_found"));
    };
    let back = back_to(&form.fields, sale_id);
    let Some(m) = form.member() else {
        return form.sign_in_first(&back);
    };
    let picks: Option<Vec<i64>> = form
        .fields
        .iter()
        .filter(|(k, _)| k.starts_with("option_"))
        .map(|(_, v)| v.trim().parse::<i64>().ok().filter(|n| *n > 0))
        .collect();
    let outcome = match picks.filter(|p| p.len() <= MAX_CHOICES) {
        None => Err(BundleAddError::Refused(BundleRefusal::NotInBundle)),
        Some(picks) => {
            let member = app::cart::member::Member {
                id: m.member_id,
                site_id: i64::from(m.site_id),
            };
            let now = app::platform::state::now();
            add_bundle(
                &form.app.cart,
                form.ctx.site_id,
                member,
                sale_id,
                bundle_id,
                &picks,
                now,
            )
            .await
        }
    };
    form.answer(match outcome {
        Ok(()) => FormOutcome::to("/cart"),
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, sale_id, bundle_id, "a bundle did not go into the cart");
            }
            // `back` has no query (see `back_to`); the section is where the error shows.
            FormOutcome::to(format!("{back}?error={}#bundle", e.message_key()))
        }
    })
}
