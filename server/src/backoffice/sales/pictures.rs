//! A product's picture: uploaded from the sale's products page (JPEG, PNG or WebP, read
//! from its bytes, at most 8 MB and 8,000 px a side), kept in the database, shown in the
//! catalogs and on the product page in the shop's widths (`media`, `serve::images`).
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
    Router::new().route(
        &format!("{PREFIX}/products/{{id}}/picture"),
        post(upload).layer(axum::extract::DefaultBodyLimit::max(
            media::MAX_BYTES + 64 * 1024,
        )),
    )
}

pub async fn upload(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(product_id): Path<i64>,
    request: Request,
) -> Response {
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let sale_id = match store::sale_of_product(&app.state.db, product_id).await {
        Ok(Some(s)) => s,
        Ok(None) => return ui::not_found(&op),
        Err(e) => return ui::db_error(e),
    };
    let refuse = |key: &str, status: StatusCode| {
        let app = app.clone();
        let op = op.clone();
        let message = op.t(key).to_string();
        async move {
            products::refused(
                &app,
                &op,
                sale_id,
                format!("picture-{product_id}"),
                message,
                status,
            )
            .await
        }
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
        let before: Option<i64> = sqlx::query_scalar("SELECT image_id FROM products WHERE id = $1")
            .bind(product_id)
            .fetch_one(&mut *tx)
            .await?;
        sqlx::query("UPDATE products SET image_id = $2 WHERE id = $1")
            .bind(product_id)
            .bind(image_id)
            .execute(&mut *tx)
            .await?;
        let entry = Entry {
            action: "picture",
            object_kind: "product",
            object_id: product_id.to_string(),
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
