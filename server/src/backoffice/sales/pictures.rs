//! A product's or an option's picture: uploaded from the sale's products page (JPEG, PNG or
//! WebP, read from its bytes, at most 8 MB and 8,000 px a side), kept in the database,
//! shown in the catalogs and on the product page in the shop's widths (`media`,
//! `serve::images`). An option's own picture replaces its product's on the product page
//! when a member chooses it (coverage P9).
use std::sync::Arc;

use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::post;
use axum::Router;

use app::platform::state::now;

use super::super::audit::{self, Entry};
use super::super::roles::Permission;
use super::super::session::{equal, Operator};
use super::super::{ui, PREFIX};
use super::{products, store};
use crate::media::{self, MediaError};
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    let limit = || axum::extract::DefaultBodyLimit::max(media::MAX_BYTES + 64 * 1024);
    Router::new()
        .route(
            &format!("{PREFIX}/products/{{id}}/picture"),
            post(product_upload).layer(limit()),
        )
        .route(
            &format!("{PREFIX}/options/{{id}}/picture"),
            post(option_upload).layer(limit()),
        )
}

/// What a picture is for.
#[derive(Clone, Copy)]
enum Target {
    Product(i64),
    Option(i64),
}

impl Target {
    /// The form's key on the products page, where its refusal is shown.
    fn form_key(self) -> String {
        match self {
            Target::Product(id) => format!("picture-{id}"),
            Target::Option(id) => format!("option-picture-{id}"),
        }
    }

    /// The table and its row, for the audit log and the update.
    fn table_and_id(self) -> (&'static str, i64) {
        match self {
            Target::Product(id) => ("products", id),
            Target::Option(id) => ("product_options", id),
        }
    }
}

async fn product_upload(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    request: Request,
) -> Response {
    upload(app, op, Target::Product(id), request).await
}

async fn option_upload(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    request: Request,
) -> Response {
    upload(app, op, Target::Option(id), request).await
}

async fn upload(app: Arc<AppCtx>, op: Operator, target: Target, request: Request) -> Response {
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let owner = match target {
        Target::Product(id) => store::sale_of_product(&app.state.db, id)
            .await
            .map(|s| s.map(|sale| (sale, id))),
        Target::Option(id) => store::product_of_option(&app.state.db, id).await,
    };
    let (sale_id, product_id) = match owner {
        Ok(Some(s)) => s,
        Ok(None) => return ui::not_found(&op),
        Err(e) => return ui::db_error(e),
    };
    let refuse = |key: &str, status: StatusCode| {
        let app = app.clone();
        let op = op.clone();
        let message = op.t(key).to_string();
        async move { products::refused(&app, &op, sale_id, target.form_key(), message, status).await }
    };
    let Ok(mut multipart) = Multipart::from_request(request, &app).await else {
        return refuse("pictures.error.type", StatusCode::BAD_REQUEST).await;
    };
    // The session's token comes first in the form: nothing of the file is read before it.
    let mut token_ok = false;
    let mut bytes = None;
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(_) => return refuse("pictures.error.size", StatusCode::PAYLOAD_TOO_LARGE).await,
        };
        let name = field.name().unwrap_or("").to_string();
        match name.as_str() {
            "_xsrf" => token_ok = field.text().await.is_ok_and(|t| equal(&t, &op.xsrf)),
            "picture" if token_ok => match field.bytes().await {
                Ok(b) => bytes = Some(b),
                Err(_) => {
                    return refuse("pictures.error.size", StatusCode::PAYLOAD_TOO_LARGE).await
                }
            },
            _ if !token_ok => {
                return ui::message_page(
                    op.lang(),
                    Some(&op),
                    StatusCode::FORBIDDEN,
                    op.t("signin.form_expired"),
                )
            }
            _ => {}
        }
    }
    if !token_ok {
        return ui::message_page(
            op.lang(),
            Some(&op),
            StatusCode::FORBIDDEN,
            op.t("signin.form_expired"),
        );
    }
    let Some(bytes) = bytes.filter(|b| !b.is_empty()) else {
        return refuse("pictures.error.type", StatusCode::UNPROCESSABLE_ENTITY).await;
    };
    let checked = {
        let bytes = bytes.clone();
        tokio::task::spawn_blocking(move || {
            media::decode(&bytes).map(|img| (img.width(), img.height()))
        })
        .await
    };
    let (width, height) = match checked {
        Ok(Ok(size)) => size,
        Ok(Err(MediaError::TooLarge)) => {
            return refuse("pictures.error.size", StatusCode::PAYLOAD_TOO_LARGE).await
        }
        Ok(Err(MediaError::TooManyPixels)) => {
            return refuse("pictures.error.pixels", StatusCode::UNPROCESSABLE_ENTITY).await
        }
        _ => return refuse("pictures.error.type", StatusCode::UNPROCESSABLE_ENTITY).await,
    };
    let at = now();
    let result: Result<i64, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let image_id: i64 = sqlx::query_scalar(
            "INSERT INTO product_images (product_id, width, height, original, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(product_id)
        .bind(i64::from(width))
        .bind(i64::from(height))
        .bind(bytes.to_vec())
        .bind(at)
        .fetch_one(&mut *tx)
        .await?;
        let (table, id) = target.table_and_id();
        let before: Option<i64> = sqlx::query_scalar(&format!("SELECT image_id FROM {table} WHERE id = $1"))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        sqlx::query(&format!("UPDATE {table} SET image_id = $2 WHERE id = $1"))
            .bind(id)
            .bind(image_id)
            .execute(&mut *tx)
            .await?;
        let entry = Entry {
            action: "picture",
            object_kind: if let Target::Product(_) = target { "product" } else { "option" },
            object_id: id.to_string(),
            summary: format!("picture: {before:?} → {image_id} ({width}×{height}, {} bytes)", bytes.len()),
        };
        audit::record(&mut tx, &op.actor(), entry, at).await?;
        tx.commit().await?;
        Ok(image_id)
    }
    .await;
    match result {
        Ok(_) => ui::see_other(&format!("{PREFIX}/sales/{sale_id}/products?done=picture")),
        Err(e) => ui::db_error(e),
    }
}
