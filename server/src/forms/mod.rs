//! Browser targets that work without scripts and are not REST calls: the HTML forms'
//! POST targets (Post/Redirect/Get) and the sign-in links (logout, autologin).
pub mod account;
pub mod address;
pub mod aftersale;
pub mod auth;
pub mod brands;
pub mod bundle;
pub mod catalog;
pub mod communications;
pub mod extract;
pub mod help;
pub mod onboarding;
pub mod operations;
pub mod outcome;
pub mod promotions;
pub mod rosedeals;
pub mod search;
pub mod social;
pub mod wallet;

use std::sync::Arc;

use axum::routing::{get, post};
use axum::Router;

use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .merge(account::router())
        .merge(wallet::router())
        .merge(communications::router())
        .merge(promotions::router())
        .merge(address::router())
        .merge(brands::router())
        .merge(catalog::router())
        .merge(bundle::router())
        .merge(aftersale::router())
        .merge(onboarding::router())
        .route("/gr/authentication/form", post(auth::auth_form))
        .route("/authentication/logout/", get(auth::logout_page))
        .route("/authentication/logout", get(auth::logout_page))
        .route("/gr/authentication/autologin", get(auth::autologin_page))
        .route(app::auth::social::ui::START, post(social::start_form))
        .route(
            crate::web::social::CALLBACK,
            get(social::callback).post(social::callback_post),
        )
        .route(
            app::auth::social::ui::ASSOCIATE,
            post(social::associate_form),
        )
        .route(app::auth::social::ui::REGISTER, post(social::register_form))
        .route(app::auth::social::ui::UNLINK, post(social::unlink_form))
        .route(app::auth::social::ui::REAUTH, post(social::reauth_form))
        // Brands place alerts, operation links (with and without the base).
        .route("/operation/form", post(operations::operation_form))
        .route("/operation/{code}", get(operations::operation_link))
        .route("/gr/operation/{code}", get(operations::operation_link))
        .route("/find/recent/{id}/delete", post(search::delete_recent_form))
        .route(
            "/helpform/send",
            post(help::send_form).layer(axum::extract::DefaultBodyLimit::max(
                app::help::rules::TOTAL_MAX_BYTES + 1024 * 1024,
            )),
        )
        .route("/helpform/feedback", post(help::feedback_form))
        .route("/my-notifications/reply", post(help::reply_form))
        .route("/my-notifications/read", post(help::read_form))
        .route("/chat/send", post(help::chat_form))
        .route(rosedeals::REFUND, post(rosedeals::refund_form))
        .route(rosedeals::RETRY, post(rosedeals::retry_form))
        .route(
            rosedeals::CONTACT,
            post(rosedeals::contact_form).layer(axum::extract::DefaultBodyLimit::max(
                crate::web::multipart::RMI_BODY_MAX,
            )),
        )
}

pub use extract::check_xsrf;
