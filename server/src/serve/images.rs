//! Demo images drawn as SVG by the project (no downloads): logos, banners, products.
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use app::site::{self, Brand};

fn svg(body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        body,
    )
        .into_response()
}

/// A stable colour from an id (hue wheel, pleasant saturation).
pub fn hue(id: i64) -> i64 {
    (id.wrapping_mul(137).rem_euclid(360) + 360) % 360
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn brand_colour(brand: Brand) -> &'static str {
    match brand {
        Brand::Rosace => "#d6336c",
        Brand::Violeta => "#6f2dbd",
    }
}

fn site_from(file: &str) -> Option<&'static site::Site> {
    file.strip_suffix(".svg")?
        .parse()
        .ok()
        .and_then(site::by_id)
}

pub async fn logo(Path(file): Path<String>) -> Response {
    let Some(s) = site_from(&file) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let colour = brand_colour(s.brand);
    svg(format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 32" role="img" aria-label="{name} {cc}"><circle cx="14" cy="16" r="11" fill="{colour}"/><circle cx="14" cy="16" r="5" fill="#fff"/><text x="30" y="22" font-family="Georgia,serif" font-size="17" font-weight="700" fill="{colour}">{name}</text><text x="104" y="12" font-family="Arial,sans-serif" font-size="7" fill="#555">{cc}</text></svg>"##,
        name = s.brand.name(),
        cc = s.country_code,
    ))
}

pub async fn favicon(Path(file): Path<String>) -> Response {
    let Some(s) = site_from(&file) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    svg(format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="{}"/><circle cx="16" cy="16" r="6" fill="#fff"/></svg>"##,
        brand_colour(s.brand)
    ))
}

pub async fn sale_image(Path((id, file)): Path<(i64, String)>) -> Response {
    let h = hue(id);
    let h2 = (h + 40) % 360;
    match file.as_str() {
        "banner.svg" | "mobile.svg" => {
            let (w, hgt) = if file == "banner.svg" {
                (600, 300)
            } else {
                (400, 400)
            };
            svg(format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {hgt}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl({h},65%,62%)"/><stop offset="1" stop-color="hsl({h2},70%,42%)"/></linearGradient></defs><rect width="{w}" height="{hgt}" fill="url(#g)"/><circle cx="{cx}" cy="{cy}" r="{r}" fill="#fff" fill-opacity=".18"/><circle cx="{cx2}" cy="{cy2}" r="{r2}" fill="#fff" fill-opacity=".12"/></svg>"##,
                cx = 80 + (id * 53).rem_euclid(440),
                cy = 60 + (id * 31).rem_euclid(180),
                r = 60 + (id * 7).rem_euclid(90),
                cx2 = 40 + (id * 97).rem_euclid(520),
                cy2 = 40 + (id * 61).rem_euclid(220),
                r2 = 30 + (id * 11).rem_euclid(60),
            ))
        }
        "logo.svg" => svg(format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="8" fill="#fff"/><rect x="6" y="6" width="36" height="36" rx="18" fill="hsl({h},60%,45%)"/><text x="24" y="30" text-anchor="middle" font-family="Arial,sans-serif" font-size="14" font-weight="700" fill="#fff">{}</text></svg>"##,
            escape(&format!("{}", (b'A' + (id.rem_euclid(26)) as u8) as char))
        )),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

pub async fn product_image(Path(file): Path<String>) -> Response {
    let Some(id) = file
        .strip_suffix(".svg")
        .and_then(|s| s.parse::<i64>().ok())
    else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let h = hue(id);
    svg(format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400"><rect width="400" height="400" fill="hsl({h},30%,95%)"/><path d="M140 90 L175 70 Q200 95 225 70 L260 90 L310 140 L280 170 L262 155 L262 330 L138 330 L138 155 L120 170 L90 140 Z" fill="hsl({h},55%,50%)"/><path d="M175 70 Q200 95 225 70" stroke="hsl({h},55%,30%)" stroke-width="4" fill="none"/></svg>"##
    ))
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
pub struct WidthQuery {
    w: Option<u32>,
}

/// Where uploaded pictures of one kind are kept: the originals' table and the table of the
/// widths made from them.
#[derive(Clone, Copy)]
pub struct Pictures {
    originals: &'static str,
    variants: &'static str,
    /// The variants table's column naming the original.
    key: &'static str,
}

/// Product and option pictures (`/img/p/{id}`).
pub const PRODUCT_PICTURES: Pictures = Pictures {
    originals: "product_images",
    variants: "product_image_variants",
    key: "image_id",
};

/// Sale banners and logos (`/img/s/{id}`).
pub const SALE_PICTURES: Pictures = Pictures {
    originals: "sale_pictures",
    variants: "sale_picture_variants",
    key: "picture_id",
};

/// An uploaded picture (`/img/p/{id}?w=361`, `/img/s/{id}?w=960`) at the shop's width
/// nearest above the one asked, as WebP when the browser takes it, else JPEG. Each (width,
/// format) is made once from the original and kept in the database, where every instance
/// finds it; the answer never changes, so browsers keep it for a year.
pub async fn uploaded(
    db: app::platform::db::Db,
    pictures: Pictures,
    Path(id): Path<i64>,
    axum::extract::Query(q): axum::extract::Query<WidthQuery>,
    headers: axum::http::HeaderMap,
) -> Response {
    use crate::media::{self, Encoding};
    let Pictures {
        originals,
        variants,
        key,
    } = pictures;
    let width = media::served_width(q.w);
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let encoding = if accept.contains("image/webp") {
        Encoding::Webp
    } else {
        Encoding::Jpeg
    };
    let stored: Result<Option<Vec<u8>>, sqlx::Error> = sqlx::query_scalar(&format!(
        "SELECT bytes FROM {variants} WHERE {key} = $1 AND width = $2 AND format = $3"
    ))
    .bind(id)
    .bind(i64::from(width))
    .bind(encoding.as_str())
    .fetch_optional(&db.pool)
    .await;
    let bytes = match stored {
        Ok(Some(b)) => b,
        Ok(None) => {
            let original: Option<Vec<u8>> = match sqlx::query_scalar(&format!(
                "SELECT original FROM {originals} WHERE id = $1"
            ))
            .bind(id)
            .fetch_optional(&db.pool)
            .await
            {
                Ok(o) => o,
                Err(e) => {
                    tracing::error!(error = %e, "picture read failed");
                    return StatusCode::SERVICE_UNAVAILABLE.into_response();
                }
            };
            let Some(original) = original else {
                return StatusCode::NOT_FOUND.into_response();
            };
            // Decoding and encoding take CPU: off the async threads.
            let made =
                tokio::task::spawn_blocking(move || media::variant(&original, width, encoding))
                    .await;
            let Ok(Ok(bytes)) = made else {
                return StatusCode::INTERNAL_SERVER_ERROR.into_response();
            };
            // Two first requests may both make it: the second insert changes nothing.
            let _ = sqlx::query(&format!(
                "INSERT INTO {variants} ({key}, width, format, bytes) VALUES ($1, $2, $3, $4)
                 ON CONFLICT ({key}, width, format) DO NOTHING"
            ))
            .bind(id)
            .bind(i64::from(width))
            .bind(encoding.as_str())
            .bind(&bytes)
            .execute(&db.writes)
            .await;
            bytes
        }
        Err(e) => {
            tracing::error!(error = %e, "picture read failed");
            return StatusCode::SERVICE_UNAVAILABLE.into_response();
        }
    };
    (
        [
            (header::CONTENT_TYPE, encoding.content_type()),
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
            (header::VARY, "Accept"),
        ],
        bytes,
    )
        .into_response()
}
