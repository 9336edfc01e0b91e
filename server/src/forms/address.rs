//! The address page's forms without scripts (Post/Redirect/Get): save an address (new or
//! changed), make one the favourite, delete one. A refused address comes back filled in
//! with its errors (see `app::address::ui::draft`), on the address page or on the cart
//! when the form was the checkout's. Opened from a checkout with `returnTo` (a same-site
//! relative path, `app::address::rules::return_path`), a saved address leads back there
//! and the address page keeps `returnTo` until then.
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::Response;
use axum::Extension;
use serde::Deserialize;

use app::address::error::AddressError;
use app::address::model::AddressRequest;
use app::address::rules::return_path;
use app::address::service::{self, Owner};
use app::address::ui::draft::{Draft, COOKIE, MAX_AGE_SECS};
use app::address::ui::page::PAGE;
use app::context::RequestCtx;
use app::model::error::WireError;

use super::auth::see_other;
use super::check_xsrf;
use crate::middleware::{self, SessionInfo};
use crate::rest::auth::session::site_suffix;
use crate::state::AppCtx;

const CART: &str = "/cart";

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AddressForm {
    #[serde(rename = "_xsrf")]
    xsrf: String,
    action: String,
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

/// Back to the checkout the address page was opened from, with the site as `back` adds it.
fn back_to_checkout(ctx: &RequestCtx, path: &str) -> Response {
    let site = site_suffix(ctx, ctx.site_id);
    let url = match (site.is_empty(), path.contains('?')) {
        (true, _) => path.to_string(),
        (false, true) => format!("{path}{site}"),
        (false, false) => format!("{path}?{}", &site[1..]),
    };
    see_other(&url)
}

fn back(ctx: &RequestCtx, page: &str, query: &str, anchor: &str) -> Response {
    let site = site_suffix(ctx, ctx.site_id);
    let query = match (query.is_empty(), site.is_empty()) {
        (true, true) => String::new(),
        (true, false) => format!("?{}", &site[1..]),
        (false, _) => format!("?{query}{site}"),
    };
    see_other(&format!("{page}{query}{anchor}"))
}

fn draft_cookie(app: &AppCtx, path: &str, value: &str, max_age: i64) -> Option<HeaderValue> {
    let secure = if app.settings.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path={path}; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}"
    ))
    .ok()
}

fn parse_id(raw: &str) -> Option<i64> {
    raw.trim().parse::<i64>().ok().filter(|id| *id > 0)
}

pub async fn address_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let Ok(f) = serde_urlencoded::from_str::<AddressForm>(&body) else {
        return back(&ctx, PAGE, "error=errors.general_retry.notification", "");
    };
    if let Err(refused) = check_xsrf(&app, &session, &headers, &f.xsrf) {
        return refused;
    }
    let Some(m) = &session.member else {
        return middleware::redirect(&app::routes::login_redirect(target(&f).0));
    };
    let owner = Owner {
        member_id: m.member_id,
        site_id: m.site_id,
    };
    let db = &app.state.db;
    let now = app::platform::state::now();
    let (page, anchor) = target(&f);
    let id = parse_id(&f.id);
    match f.action.as_str() {
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
                    let mut res = match return_path(Some(&f.return_to)).filter(|_| page == PAGE) {
                        Some(path) => back_to_checkout(&ctx, &path),
                        None => back(&ctx, page, query, if page == PAGE { "" } else { anchor }),
                    };
                    if let Some(v) = draft_cookie(&app, page, "", 0) {
                        res.headers_mut().append(header::SET_COOKIE, v);
                    }
                    res
                }
                Err(AddressError::NotFound) => back(&ctx, PAGE, "error=errors.not_found", ""),
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
                    let mut res = back(&ctx, page, &with_return(&f, "retry=1"), anchor);
                    if let Some(v) = draft_cookie(&app, page, &draft.encode(), MAX_AGE_SECS) {
                        res.headers_mut().append(header::SET_COOKIE, v);
                    }
                    res
                }
            }
        }
        "favorite" | "delete" => {
            let Some(id) = id else {
                return back(&ctx, PAGE, "error=errors.not_found", "");
            };
            let (result, notice) = if f.action == "favorite" {
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
                Ok(()) => back(&ctx, PAGE, &with_return(&f, notice), ""),
                Err(e) => {
                    if let Some(cause) = e.cause() {
                        tracing::error!(error = %cause, "address change failed");
                    }
                    let query = with_return(&f, &format!("error={}", e.message_key()));
                    back(&ctx, PAGE, &query, "")
                }
            }
        }
        _ => back(&ctx, PAGE, "error=errors.general_retry.notification", ""),
    }
}
