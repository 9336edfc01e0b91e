//! The address page's forms without scripts (Post/Redirect/Get), one route per action:
//! save an address (new or changed), make one the favourite, delete one. A refused address comes back filled in
//! with its errors (see `app::address::ui::draft`), on the address page or on the cart
//! when the form was the checkout's. Opened from a checkout with `returnTo` (a same-site
//! relative path, `app::address::rules::return_path`), a saved address leads back there
//! and the address page keeps `returnTo` until then.
use std::sync::Arc;

use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;

use app::address::error::AddressError;
use app::address::model::AddressRequest;
use app::address::rules::return_path;
use app::address::service::{self, Owner};
use app::address::ui::draft::Draft;
use app::address::ui::form::form_action as at;
use app::address::ui::page::PAGE;
use app::model::error::WireError;

use super::extract::XsrfForm;
use super::outcome::FormOutcome;
use crate::state::AppCtx;

const CART: &str = "/cart";

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AddressForm {
    #[serde(rename = "returnTo")]
    return_to: String,
    id: String,
    #[serde(rename = "firstName")]
    first_name: String,
    #[serde(rename = "lastName")]
    last_name: String,
    details: String,
    extras: String,
    #[serde(rename = "zipCode")]
    zip_code: String,
    city: String,
    country: String,
    phone: String,
    #[serde(rename = "isFavorite")]
    is_favorite: Option<String>,
}

/// Where the form came from: the cart's inline form, else the address page.
fn target(f: &AddressForm) -> (&'static str, &'static str) {
    if f.return_to == "cart" {
        (CART, "#delivery")
    } else {
        (PAGE, "#address-form")
    }
}

/// The address page's query, keeping the checkout to go back to (`returnTo`) if any.
fn with_return(f: &AddressForm, query: &str) -> String {
    match return_path(Some(&f.return_to)) {
        Some(path) => {
            let keep = format!("returnTo={}", app::routes::encode_query_value(&path));
            if query.is_empty() {
                keep
            } else {
                format!("{query}&{keep}")
            }
        }
        None => query.to_string(),
    }
}

/// `page` with its query (if any) and anchor.
fn back(page: &str, query: &str, anchor: &str) -> FormOutcome {
    let query = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    FormOutcome::to(format!("{page}{query}{anchor}"))
}

fn parse_id(raw: &str) -> Option<i64> {
    raw.trim().parse::<i64>().ok().filter(|id| *id > 0)
}

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&at("save"), post(save))
        .route(&at("favorite"), post(favorite))
        .route(&at("delete"), post(delete))
}

async fn save(form: XsrfForm<AddressForm>) -> Response {
    answer(form, "save").await
}

async fn favorite(form: XsrfForm<AddressForm>) -> Response {
    answer(form, "favorite").await
}

async fn delete(form: XsrfForm<AddressForm>) -> Response {
    answer(form, "delete").await
}

/// The three actions share their fields and their way back (the address page, or the
/// checkout the form belongs to).
async fn answer(form: XsrfForm<AddressForm>, action: &str) -> Response {
    let f = &form.fields;
    let Some(m) = form.member() else {
        return form.sign_in_first(target(f).0);
    };
    let owner = Owner {
        member_id: m.member_id,
        site_id: m.site_id,
    };
    let db = &form.app.state.db;
    let now = app::platform::state::now();
    let (page, anchor) = target(f);
    let id = parse_id(&f.id);
    let outcome = match action {
        "save" => {
            let req = AddressRequest {
                id,
                first_name: f.first_name.clone(),
                last_name: f.last_name.clone(),
                details: f.details.clone(),
                extras: f.extras.clone(),
                zip_code: f.zip_code.clone(),
                city: f.city.clone(),
                country: f.country.clone(),
                phone: f.phone.clone(),
                is_favorite: Some(f.is_favorite.is_some()),
            };
            let result = match id {
                Some(id) => service::update(db, owner, id, &req, now).await,
                None if !f.id.trim().is_empty() => Err(AddressError::NotFound),
                None => service::create(db, owner, &req, now).await,
            };
            match result {
                Ok(_) => {
                    let query = if page == PAGE {
                        "notice=address.notice.saved"
                    } else {
                        ""
                    };
                    let to = match return_path(Some(&f.return_to)).filter(|_| page == PAGE) {
                        // Back to the checkout the address page was opened from.
                        Some(path) => FormOutcome::to(path),
                        None => back(page, query, if page == PAGE { "" } else { anchor }),
                    };
                    to.clearing::<Draft>(page)
                }
                Err(AddressError::NotFound) => back(PAGE, "error=errors.not_found", ""),
                Err(e) => {
                    if let Some(cause) = e.cause() {
                        tracing::error!(error = %cause, "address save failed");
                    }
                    let draft = Draft {
                        request: req,
                        errors: match &e {
                            AddressError::Invalid(errors) => errors.clone(),
                            _ => Vec::new(),
                        },
                        failure_key: match &e {
                            AddressError::Invalid(_) => None,
                            other => Some(other.message_key().to_string()),
                        },
                    };
                    let query = with_return(f, "");
                    let page_query = if query.is_empty() {
                        page.to_string()
                    } else {
                        format!("{page}?{query}")
                    };
                    FormOutcome::retry(&format!("{page_query}{anchor}"), &draft)
                }
            }
        }
        "favorite" | "delete" => {
            let Some(id) = id else {
                return form.answer(back(PAGE, "error=errors.not_found", ""));
            };
            let (result, notice) = if action == "favorite" {
                (
                    service::make_favourite(db, owner, id).await.map(|_| ()),
                    "notice=address.notice.favorite",
                )
            } else {
                (
                    service::delete(db, owner, id).await,
                    "notice=address.notice.deleted",
                )
            };
            match result {
                Ok(()) => back(PAGE, &with_return(f, notice), ""),
                Err(e) => {
                    if let Some(cause) = e.cause() {
                        tracing::error!(error = %cause, "address change failed");
                    }
                    let query = with_return(f, &format!("error={}", e.message_key()));
                    back(PAGE, &query, "")
                }
            }
        }
        _ => back(PAGE, "error=errors.general_retry.notification", ""),
    };
    form.answer(outcome)
}
