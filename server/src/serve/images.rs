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

/// What a drawn product picture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawing {
    /// One of the demo's twelve item kinds (`demo::words::item_kind`).
    Item(usize),
    /// A trip: a hotel.
    Hotel,
    /// A product the demo did not name (made in the back office without a picture).
    Parcel,
}

/// The drawing for a product: a trip's hotel, else its kind from its name.
pub async fn drawing_of(db: &app::platform::db::Db, product_id: i64) -> Drawing {
    use sqlx::Row;
    let row = sqlx::query(
        "SELECT pr.name, s.campaign_kind FROM products pr JOIN sales s ON s.id = pr.sale_id WHERE pr.id = $1",
    )
    .bind(product_id)
    .fetch_optional(&db.pool)
    .await
    .ok()
    .flatten();
    let Some(row) = row else {
        return Drawing::Parcel;
    };
    let kind: String = row.try_get("campaign_kind").unwrap_or_default();
    if kind == "TRAVEL" {
        return Drawing::Hotel;
    }
    let name: String = row.try_get("name").unwrap_or_default();
    crate::demo::words::item_kind(&name).map_or(Drawing::Parcel, Drawing::Item)
}

/// The shapes of a drawing in a 400×400 box, `{fill}` and `{line}` its two colours.
fn shapes(drawing: Drawing) -> &'static str {
    match drawing {
        // Dress.
        Drawing::Item(0) => {
            r##"<path d="M170 70 L185 70 L190 110 L210 110 L215 70 L230 70 L238 130 L222 165 L290 330 L110 330 L178 165 L162 130 Z" fill="{fill}"/><path d="M178 165 L222 165" stroke="{line}" stroke-width="6"/>"##
        }
        // Shirt (collar and buttons).
        Drawing::Item(1) => {
            r##"<path d="M140 90 L178 72 L200 100 L222 72 L260 90 L312 150 L284 176 L262 156 L262 330 L138 330 L138 156 L116 176 L88 150 Z" fill="{fill}"/><path d="M178 72 L200 100 L222 72 M200 100 L200 330" stroke="{line}" stroke-width="4" fill="none"/><circle cx="200" cy="150" r="5" fill="{line}"/><circle cx="200" cy="200" r="5" fill="{line}"/><circle cx="200" cy="250" r="5" fill="{line}"/>"##
        }
        // Pullover (long sleeves, ribbed hem).
        Drawing::Item(2) => {
            r##"<path d="M140 90 L175 75 Q200 95 225 75 L260 90 L320 300 L290 308 L262 170 L262 320 L138 320 L138 170 L110 308 L80 300 Z" fill="{fill}"/><path d="M138 305 L262 305" stroke="{line}" stroke-width="10"/><path d="M175 75 Q200 95 225 75" stroke="{line}" stroke-width="5" fill="none"/>"##
        }
        // Jacket (zip, pockets).
        Drawing::Item(3) => {
            r##"<path d="M140 85 L180 70 L200 90 L220 70 L260 85 L318 290 L288 298 L262 175 L262 310 L138 310 L138 175 L112 298 L82 290 Z" fill="{fill}"/><path d="M200 90 L200 310" stroke="{line}" stroke-width="5"/><rect x="150" y="230" width="34" height="8" fill="{line}"/><rect x="216" y="230" width="34" height="8" fill="{line}"/>"##
        }
        // Jeans.
        Drawing::Item(4) => {
            r##"<path d="M145 70 L255 70 L270 340 L215 340 L200 160 L185 340 L130 340 Z" fill="{fill}"/><path d="M145 90 L255 90" stroke="{line}" stroke-width="6"/><path d="M200 90 L200 160" stroke="{line}" stroke-width="4"/>"##
        }
        // Sneaker.
        Drawing::Item(5) => {
            r##"<path d="M70 250 L90 170 Q130 175 160 205 L230 215 Q300 225 330 250 L330 275 L70 275 Z" fill="{fill}"/><rect x="66" y="272" width="268" height="22" rx="8" fill="{line}"/><path d="M140 195 L150 215 M165 200 L175 220 M190 205 L200 222" stroke="#fff" stroke-width="5"/>"##
        }
        // Bag.
        Drawing::Item(6) => {
            r##"<path d="M155 160 Q155 90 200 90 Q245 90 245 160" stroke="{line}" stroke-width="12" fill="none"/><rect x="105" y="150" width="190" height="170" rx="22" fill="{fill}"/><rect x="185" y="200" width="30" height="18" rx="4" fill="{line}"/>"##
        }
        // Watch.
        Drawing::Item(7) => {
            r##"<rect x="170" y="50" width="60" height="300" rx="18" fill="{line}"/><circle cx="200" cy="200" r="78" fill="{fill}"/><circle cx="200" cy="200" r="60" fill="#fff"/><path d="M200 200 L200 158 M200 200 L232 214" stroke="{line}" stroke-width="7" stroke-linecap="round"/>"##
        }
        // Scarf (with fringes).
        Drawing::Item(8) => {
            r##"<path d="M130 80 Q200 120 270 80 L270 120 Q240 140 232 150 L250 320 L205 320 L195 165 Q160 140 130 120 Z" fill="{fill}"/><path d="M208 320 L208 345 M218 320 L218 345 M228 320 L228 345 M238 320 L238 345 M248 320 L248 345" stroke="{line}" stroke-width="4"/>"##
        }
        // Coat (long, two rows of buttons).
        Drawing::Item(9) => {
            r##"<path d="M140 70 L180 58 L200 85 L220 58 L260 70 L320 300 L290 308 L268 180 L275 350 L125 350 L132 180 L110 308 L80 300 Z" fill="{fill}"/><path d="M180 58 L200 120 L220 58" stroke="{line}" stroke-width="5" fill="none"/><g fill="{line}"><circle cx="185" cy="170" r="6"/><circle cx="215" cy="170" r="6"/><circle cx="185" cy="230" r="6"/><circle cx="215" cy="230" r="6"/></g>"##
        }
        // Skirt.
        Drawing::Item(10) => {
            r##"<rect x="145" y="95" width="110" height="26" fill="{line}"/><path d="M145 121 L255 121 L300 320 L100 320 Z" fill="{fill}"/><path d="M175 121 L160 320 M225 121 L240 320" stroke="{line}" stroke-width="3"/>"##
        }
        // Belt.
        Drawing::Item(11) => {
            r##"<path d="M40 175 L320 175 L320 225 L40 225 Z" fill="{fill}"/><rect x="290" y="160" width="70" height="80" rx="10" fill="none" stroke="{line}" stroke-width="12"/><path d="M325 200 L290 200" stroke="{line}" stroke-width="8"/><g fill="{line}"><circle cx="110" cy="200" r="6"/><circle cx="150" cy="200" r="6"/><circle cx="190" cy="200" r="6"/></g>"##
        }
        // Hotel: a building, its windows and a palm.
        Drawing::Hotel => {
            r##"<rect x="0" y="300" width="400" height="100" fill="{line}" opacity="0.25"/><rect x="120" y="90" width="160" height="230" fill="{fill}"/><g fill="#fff"><rect x="140" y="115" width="30" height="30"/><rect x="185" y="115" width="30" height="30"/><rect x="230" y="115" width="30" height="30"/><rect x="140" y="165" width="30" height="30"/><rect x="185" y="165" width="30" height="30"/><rect x="230" y="165" width="30" height="30"/><rect x="140" y="215" width="30" height="30"/><rect x="230" y="215" width="30" height="30"/></g><rect x="185" y="260" width="30" height="60" fill="{line}"/><path d="M330 320 L335 200" stroke="{line}" stroke-width="8"/><path d="M335 200 Q300 185 285 205 M335 200 Q370 185 385 205 M335 200 Q320 165 300 165 M335 200 Q350 165 372 168" stroke="{line}" stroke-width="8" fill="none"/><circle cx="70" cy="80" r="30" fill="hsl(45,90%,60%)"/>"##
        }
        // A parcel.
        _ => {
            r##"<path d="M200 70 L320 130 L320 270 L200 330 L80 270 L80 130 Z" fill="{fill}"/><path d="M80 130 L200 190 L320 130 M200 190 L200 330" stroke="{line}" stroke-width="6" fill="none"/>"##
        }
    }
}

/// The drawn picture of a demo product (no uploaded one): what it is, in its own hue.
pub fn product_svg(product_id: i64, drawing: Drawing) -> String {
    let h = hue(product_id);
    let body = shapes(drawing)
        .replace("{fill}", &format!("hsl({h},55%,50%)"))
        .replace("{line}", &format!("hsl({h},55%,28%)"));
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400"><rect width="400" height="400" fill="hsl({h},30%,95%)"/>{body}</svg>"#
    )
}

pub async fn product_image(db: app::platform::db::Db, Path(file): Path<String>) -> Response {
    let Some(id) = file
        .strip_suffix(".svg")
        .and_then(|s| s.parse::<i64>().ok())
    else {
        return StatusCode::NOT_FOUND.into_response();
    };
    svg(product_svg(id, drawing_of(&db, id).await))
}

/// The onboarding popins' pictures (`onboarding::rules::popin_image`): a gift for the
/// welcome, an envelope for the email opt-in, a heart for personalised offers.
pub async fn popin_image(Path(file): Path<String>) -> Response {
    let shapes = match file.as_str() {
        "welcome.svg" => {
            r##"<rect x="20" y="52" width="80" height="56" rx="6" fill="#d2476b"/><rect x="14" y="38" width="92" height="18" rx="4" fill="#b8325a"/><rect x="54" y="38" width="12" height="70" fill="#f6c344"/><path d="M60 38 Q40 10 32 30 Q30 40 60 38 Q80 10 88 30 Q90 40 60 38" fill="none" stroke="#f6c344" stroke-width="6"/>"##
        }
        "optin.svg" => {
            r##"<rect x="14" y="30" width="92" height="64" rx="8" fill="#3b7dd8"/><path d="M16 34 L60 68 L104 34" fill="none" stroke="#fff" stroke-width="6" stroke-linejoin="round"/>"##
        }
        "personalisation.svg" => {
            r##"<path d="M60 100 L20 60 Q6 44 18 28 Q34 12 52 26 L60 34 L68 26 Q86 12 102 28 Q114 44 100 60 Z" fill="#d2476b"/>"##
        }
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    svg(format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 120"><circle cx="60" cy="60" r="60" fill="#fbeef2"/>{shapes}</svg>"##
    ))
}

/// A country's flag (`/img/flag/FR.svg`) of the registration's country list.
pub async fn flag(Path(file): Path<String>) -> Response {
    match file
        .strip_suffix(".svg")
        .and_then(app::auth::countries::flag_svg)
    {
        Some(picture) => svg(picture),
        None => StatusCode::NOT_FOUND.into_response(),
    }
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
