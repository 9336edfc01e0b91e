//! The one error type of the REST edge. Handlers return `Result<_, ApiError>` and use `?`;
//! `IntoResponse` writes the status and the typed body of spec 000 §8 and logs the cause of
//! a server failure (with the spec's log message where it names one), never sending it.
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use app::auth::error::AuthError;
use app::cart::error::CartFailure;
use app::cart::rules::CartError;
use app::catalog::error::CatalogError;
use app::dsa::error::DsaError;
use app::home::error::HomeError;
use app::model::error::{ErrorBody, WireError};
use app::onboarding::error::OnboardingError;
use app::product::error::ProductError;
use app::search::error::SearchError;

#[derive(Debug)]
pub enum ApiError {
    /// An area's failure, as the area describes it (status, body, cause for the log).
    Wire {
        status: StatusCode,
        body: Box<ErrorBody>,
        cause: Option<String>,
        what: &'static str,
    },
    /// The report form answers with its own body shape (spec 001 §3, shared with React).
    Dsa(DsaError),
    NotFound,
    /// No signed-in member: the client's session-expiry handling sends them to sign in.
    Unauthorized,
    /// A state change without a valid XSRF token.
    Csrf,
    BadRequest {
        code: &'static str,
        key: &'static str,
    },
    /// A database or other infrastructure failure.
    Internal {
        cause: String,
        what: &'static str,
    },
}

impl ApiError {
    pub fn bad_request(code: &'static str, key: &'static str) -> ApiError {
        ApiError::BadRequest { code, key }
    }

    /// Any area error that describes itself.
    pub fn wire(e: &dyn WireError) -> ApiError {
        ApiError::Wire {
            status: StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            body: Box::new(e.body()),
            cause: e.cause(),
            what: "request failed",
        }
    }

    /// A refusal with its message already in the site's language, for calls that other
    /// clients than the shop's pages (which have the translation table) make.
    pub fn in_language(self, site_id: u16) -> ApiError {
        let ApiError::BadRequest { code, key } = self else {
            return self;
        };
        let lang = app::site::i18n::lang_of(app::site::by_id_or_default(site_id).locale);
        let mut body = ErrorBody::new(code, key);
        body.message = Some(app::site::i18n::t(lang, key));
        ApiError::Wire {
            status: StatusCode::BAD_REQUEST,
            body: Box::new(body),
            cause: None,
            what: "refused call",
        }
    }

    /// The log message of a server failure (the spec names some: "Unavailable Order Pipe").
    pub fn logged_as(mut self, message: &'static str) -> ApiError {
        match &mut self {
            ApiError::Wire { what, .. } | ApiError::Internal { what, .. } => *what = message,
            _ => {}
        }
        self
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Wire { status, .. } => *status,
            ApiError::Dsa(e) => {
                StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            }
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Csrf => StatusCode::FORBIDDEN,
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::Internal { .. } => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn body(&self) -> ErrorBody {
        match self {
            ApiError::Wire { body, .. } => (**body).clone(),
            ApiError::Dsa(e) => {
                let b = e.body();
                ErrorBody::new(&b.error_code, &b.message_key)
            }
            ApiError::NotFound => ErrorBody::new("not_found", "errors.not_found"),
            ApiError::Unauthorized => ErrorBody::new("unauthorized", "errors.session_expired"),
            ApiError::Csrf => ErrorBody::new("csrf", "errors.csrf.notification"),
            ApiError::BadRequest { code, key } => ErrorBody::new(code, key),
            ApiError::Internal { .. } => {
                ErrorBody::new("unexpected", "errors.general_retry.notification")
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        match &self {
            ApiError::Internal { cause, what } => tracing::error!(error = %cause, "{what}"),
            ApiError::Wire {
                cause: Some(cause),
                what,
                ..
            } => tracing::error!(error = %cause, "{what}"),
            ApiError::Dsa(DsaError::Storage(e)) => {
                tracing::error!(error = %e, "DsaForm setDsaForm error")
            }
            _ => {}
        }
        if let ApiError::Dsa(e) = self {
            return (status, Json(e.body())).into_response();
        }
        (status, Json(self.body())).into_response()
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        ApiError::Internal {
            cause: e.to_string(),
            what: "database failure",
        }
    }
}

impl From<DsaError> for ApiError {
    fn from(e: DsaError) -> Self {
        ApiError::Dsa(e)
    }
}

impl From<AuthError> for ApiError {
    fn from(e: AuthError) -> Self {
        ApiError::wire(&e).logged_as("sign-in call failed")
    }
}

impl From<CartError> for ApiError {
    fn from(e: CartError) -> Self {
        ApiError::wire(&CartFailure::Cart(e))
    }
}

/// Area errors that describe themselves (`WireError`) become responses as they say.
macro_rules! from_wire {
    ($($area:ty),* $(,)?) => {
        $(impl From<$area> for ApiError {
            fn from(e: $area) -> Self {
                ApiError::wire(&e)
            }
        })*
    };
}

from_wire!(
    CartFailure,
    CatalogError,
    HomeError,
    SearchError,
    OnboardingError,
    ProductError,
    app::travel::error::TravelError
);

/// `result.log_as("Unavailable Sale Content")?`: the spec's log message for a failure.
pub trait LogAs<T> {
    fn log_as(self, message: &'static str) -> Result<T, ApiError>;
}

impl<T, E: Into<ApiError>> LogAs<T> for Result<T, E> {
    fn log_as(self, message: &'static str) -> Result<T, ApiError> {
        self.map_err(|e| e.into().logged_as(message))
    }
}

/// `Ok(None)` of a lookup is a 404.
pub trait OrNotFound<T> {
    fn or_not_found(self) -> Result<T, ApiError>;
}

impl<T> OrNotFound<T> for Option<T> {
    fn or_not_found(self) -> Result<T, ApiError> {
        self.ok_or(ApiError::NotFound)
    }
}

/// axum's own refusals (a body over its limit, and the rejections of the `Json`, `Path`,
/// `Query` and `Form` extractors: "Failed to deserialize the JSON body into the target
/// type: missing field `siteId` at line 1 column 2") are plain text that names our fields
/// and serde's details. Every one becomes the standard error body with a generic key, on
/// every path: our handlers answer JSON or HTML, never a plain-text 4xx.
pub async fn json_rejections<N, F>(req: axum::extract::Request, next: N) -> axum::response::Response
where
    N: FnOnce(axum::extract::Request) -> F,
    F: std::future::Future<Output = axum::response::Response>,
{
    let api = req.uri().path().starts_with("/api/");
    let server_fn = req.uri().path().starts_with("/api/fn/");
    let res = next(req).await;
    let plain_text = res
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/plain"));
    // A server function's arguments that do not deserialize: Leptos answers 500 with
    // "Args|missing field `query`". Its other errors pass as they are (the app decodes them).
    let res = if server_fn && plain_text && res.status() == StatusCode::INTERNAL_SERVER_ERROR {
        let (parts, body) = res.into_parts();
        let bytes = axum::body::to_bytes(body, 64 * 1024)
            .await
            .unwrap_or_default();
        if bytes.starts_with(b"Args|") {
            let mut parts = parts;
            parts.status = StatusCode::BAD_REQUEST;
            Response::from_parts(parts, axum::body::Body::empty())
        } else {
            Response::from_parts(parts, axum::body::Body::from(bytes))
        }
    } else {
        res
    };
    let code = match res.status() {
        // A body past the limit may come from a part of axum with no content type.
        StatusCode::PAYLOAD_TOO_LARGE if api => "too_large",
        StatusCode::BAD_REQUEST
        | StatusCode::UNPROCESSABLE_ENTITY
        | StatusCode::UNSUPPORTED_MEDIA_TYPE
            if plain_text =>
        {
            "bad_request"
        }
        _ => return res,
    };
    let json = res
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json {
        return res;
    }
    let (mut parts, _) = res.into_parts();
    // The headers of the way out stay (security headers, request id); the body is new.
    for h in [
        axum::http::header::CONTENT_ENCODING,
        axum::http::header::CONTENT_LENGTH,
        axum::http::header::VARY,
    ] {
        parts.headers.remove(h);
    }
    parts.headers.insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    let body = serde_json::to_vec(&ErrorBody::new(code, "errors.general_retry.notification"))
        .unwrap_or_default();
    Response::from_parts(parts, axum::body::Body::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_failures_hide_their_cause() {
        let e = ApiError::from(sqlx::Error::RowNotFound).logged_as("Unavailable Sale Content");
        assert_eq!(e.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::to_string(&e.body()).unwrap();
        assert_eq!(
            body,
            r#"{"error_code":"unexpected","error_description":"errors.general_retry.notification"}"#
        );
    }

    #[test]
    fn cart_errors_keep_their_spec_status_and_code() {
        let e = ApiError::from(CartError::Frozen);
        assert_eq!(e.status().as_u16(), 261);
        assert_eq!(e.body().error_code, "frozen");
        assert_eq!(e.body().error_description, "cart.errors.frozen");
    }
}
