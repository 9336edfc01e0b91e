//! A product's or an option's picture, uploaded from the sale's products page, and a sale's
//! banner and logo, uploaded from the sale's page (JPEG, PNG or WebP, read from its bytes,
//! at most 8 MB and 8,000 px a side), kept in the database, shown in the shop's widths
//! (`media`, `serve::images`). An option's own picture replaces its product's on the
//! product page when a member chooses it (coverage P9); a sale's banner is on its home
//! tiles and catalog, its logo in the header's menu and on the sale cards.
use std::sync::Arc;

use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use sqlx::{Any, Transaction};

use app::catalog::rules::{sale_picture_url, SalePicture};
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
        .route(
            &format!("{PREFIX}/sales/{{id}}/banner"),
            post(banner_upload).layer(limit()),
        )
        .route(
            &format!("{PREFIX}/sales/{{id}}/logo"),
            post(logo_upload).layer(limit()),
        )
}

/// What a picture is for.
#[derive(Clone, Copy)]
pub(crate) enum Target {
    Product(i64),
    Option(i64),
    Sale(i64, SalePicture),
}

impl Target {
    /// The form's key on the products page, where its refusal is shown.
    fn form_key(self) -> String {
        match self {
            Target::Product(id) => format!("picture-{id}"),
            Target::Option(id) => format!("option-picture-{id}"),
            Target::Sale(_, kind) => format!("sale-{}", kind.as_str()),
        }
    }

    /// The table and its row, for the audit log and the update.
    fn table_and_id(self) -> (&'static str, i64) {
        match self {
            Target::Product(id) => ("products", id),
            Target::Option(id) => ("product_options", id),
            Target::Sale(id, _) => ("sales", id),
        }
    }

    /// The column naming the picture in that row.
    fn column(self) -> &'static str {
        match self {
            Target::Sale(_, kind) => kind.column(),
            _ => "image_id",
        }
    }

    fn object_kind(self) -> &'static str {
        match self {
            Target::Product(_) => "product",
            Target::Option(_) => "option",
            Target::Sale(..) => "sale",
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

async fn banner_upload(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    request: Request,
) -> Response {
    upload(app, op, Target::Sale(id, SalePicture::Banner), request).await
}

async fn logo_upload(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    request: Request,
) -> Response {
    upload(app, op, Target::Sale(id, SalePicture::Logo), request).await
}

async fn upload(app: Arc<AppCtx>, op: Operator, target: Target, request: Request) -> Response {
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let db = &app.state.db;
    // The sale the picture belongs to and, for a product's or an option's, the product.
    let owner = match target {
        Target::Product(id) => store::sale_of_product(db, id)
            .await
            .map(|s| s.map(|sale| (sale, Some(id)))),
        Target::Option(id) => store::product_of_option(db, id)
            .await
            .map(|s| s.map(|(sale, product)| (sale, Some(product)))),
        Target::Sale(id, _) => store::by_id(db, id)
            .await
            .map(|s| s.filter(|s| s.archived_at.is_none()).map(|s| (s.id, None))),
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
        async move {
            match target {
                Target::Sale(..) => {
                    super::refused(&app, &op, sale_id, target.form_key(), message, status).await
                }
                _ => {
                    products::refused(&app, &op, sale_id, target.form_key(), message, status).await
                }
            }
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
        let (before, image_id) = save(
            &mut tx,
            target,
            sale_id,
            product_id,
            &bytes,
            (width, height),
            at,
        )
        .await?;
        let (_, id) = target.table_and_id();
        let entry = Entry {
            action: "picture",
            object_kind: target.object_kind(),
            object_id: id.to_string(),
            summary: format!(
                "picture: {before:?} → {image_id} ({width}×{height}, {} bytes)",
                bytes.len()
            ),
        };
        audit::record(&mut tx, &op.actor(), entry, at).await?;
        tx.commit().await?;
        Ok(image_id)
    }
    .await;
    match result {
        Ok(_) => match target {
            Target::Sale(..) => ui::see_other(&format!("{PREFIX}/sales/{sale_id}?done=picture")),
            _ => ui::see_other(&format!("{PREFIX}/sales/{sale_id}/products?done=picture")),
        },
        Err(e) => ui::db_error(e),
    }
}

/// Stores a checked picture as `target`'s: a new original (pictures are never changed in
/// place, so their addresses can be cached for a year), the row pointed at it and, for a
/// sale's banner, the sale's tiles on the homes that showed the old one. Answers the
/// picture it replaces and the new one. The feed import stores its pictures here too.
pub(crate) async fn save(
    tx: &mut Transaction<'static, Any>,
    target: Target,
    sale_id: i64,
    product_id: Option<i64>,
    bytes: &[u8],
    (width, height): (u32, u32),
    at: i64,
) -> Result<(Option<i64>, i64), sqlx::Error> {
    let image_id: i64 = match target {
        Target::Sale(_, kind) => sqlx::query_scalar(
            "INSERT INTO sale_pictures (sale_id, kind, width, height, original, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(sale_id)
        .bind(kind.as_str()),
        _ => sqlx::query_scalar(
            "INSERT INTO product_images (product_id, width, height, original, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(product_id),
    }
    .bind(i64::from(width))
    .bind(i64::from(height))
    .bind(bytes.to_vec())
    .bind(at)
    .fetch_one(&mut **tx)
    .await?;
    let (table, id) = target.table_and_id();
    let column = target.column();
    let before: Option<i64> =
        sqlx::query_scalar(&format!("SELECT {column} FROM {table} WHERE id = $1"))
            .bind(id)
            .fetch_one(&mut **tx)
            .await?;
    sqlx::query(&format!("UPDATE {table} SET {column} = $2 WHERE id = $1"))
        .bind(id)
        .bind(image_id)
        .execute(&mut **tx)
        .await?;
    if let Target::Sale(sale, SalePicture::Banner) = target {
        // The sale's tiles on the homes show the banner it had when placed: the new one.
        let (old, new) = (
            sale_picture_url(sale, SalePicture::Banner, before),
            sale_picture_url(sale, SalePicture::Banner, Some(image_id)),
        );
        sqlx::query(
            "UPDATE banners SET image_url = $3,
                    mobile_image_url = CASE WHEN mobile_image_url = '' THEN '' ELSE $3 END
              WHERE kind = 'SaleBanner' AND sale_id = $1 AND image_url = $2",
        )
        .bind(sale)
        .bind(old)
        .bind(new)
        .execute(&mut **tx)
        .await?;
    }
    Ok((before, image_id))
}

/// Whether `target`'s picture is already exactly `bytes` (a feed imported again).
pub(crate) async fn is_current(
    tx: &mut Transaction<'static, Any>,
    target: Target,
    bytes: &[u8],
) -> Result<bool, sqlx::Error> {
    let (table, id) = target.table_and_id();
    let column = target.column();
    let originals = match target {
        Target::Sale(..) => "sale_pictures",
        _ => "product_images",
    };
    let current: Option<Vec<u8>> = sqlx::query_scalar(&format!(
        "SELECT i.original FROM {table} r JOIN {originals} i ON i.id = r.{column} WHERE r.id = $1"
    ))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(current.as_deref() == Some(bytes))
}
