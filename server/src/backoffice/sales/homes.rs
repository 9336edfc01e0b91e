//! A sale on the homes of its site: the banner tiles that show it (home, module, tile size,
//! position), placed and taken off from the sale's "On the homes" page. A sale's banner
//! shows while the sale is live, so its dates are the sale's (the home's own rule,
//! `home::store`); it opens and closes with the sale, by itself.
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;
use sqlx::Row;

use app::platform::db::Db;
use app::platform::state::now;

use super::super::audit::{self, Entry};
use super::super::roles::Permission;
use super::super::session::{Operator, OperatorForm};
use super::super::{ui, PREFIX};
use super::store;
use crate::state::AppCtx;

/// Tile sizes and the layout each takes on the home's grid.
pub const TILES: [(&str, &str); 4] = [
    ("M", "1x1"),
    ("XL", "2x1"),
    ("XXL", "1x2"),
    ("MEGAFAT", "2x2"),
];

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/sales/{{id}}/homes"), get(page))
        .route(
            &format!("{PREFIX}/sales/{{id}}/homes/place"),
            post(place_form),
        )
        .route(
            &format!("{PREFIX}/sales/{{id}}/homes/remove"),
            post(remove_form),
        )
}

struct Module {
    id: i64,
    label: String,
}

struct Placement {
    banner_id: i64,
    home: String,
    module: String,
    tile_size: String,
    position: i64,
}

/// The modules of the site's homes that hold banner tiles.
async fn modules(db: &Db, site_id: i64) -> Result<Vec<Module>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT m.id, h.display_name, m.title, m.name FROM home_modules m JOIN homes h ON h.id = m.home_id
         WHERE h.site_id = $1 AND EXISTS (SELECT 1 FROM banners b WHERE b.module_id = m.id)
         ORDER BY h.id, m.position, m.id",
    )
    .bind(site_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let title: String = r.try_get("title")?;
            let name: String = r.try_get("name")?;
            Ok(Module {
                id: r.try_get("id")?,
                label: format!(
                    "{} · {}",
                    r.try_get::<String, _>("display_name")?,
                    if title.is_empty() { name } else { title }
                ),
            })
        })
        .collect()
}

async fn placements(db: &Db, sale_id: i64) -> Result<Vec<Placement>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT b.id, h.display_name, m.title, m.name, b.tile_size, b.position FROM banners b
         JOIN home_modules m ON m.id = b.module_id JOIN homes h ON h.id = m.home_id
         WHERE b.sale_id = $1 ORDER BY h.id, m.position, b.position",
    )
    .bind(sale_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let title: String = r.try_get("title")?;
            Ok(Placement {
                banner_id: r.try_get("id")?,
                home: r.try_get("display_name")?,
                module: if title.is_empty() {
                    r.try_get("name")?
                } else {
                    title
                },
                tile_size: r.try_get("tile_size")?,
                position: r.try_get("position")?,
            })
        })
        .collect()
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PageQuery {
    done: String,
}

async fn view_page(
    app: &AppCtx,
    op: &Operator,
    sale_id: i64,
    notice: Option<String>,
    error: Option<String>,
    status: StatusCode,
) -> Response {
    let db = &app.state.db;
    let sale = match store::by_id(db, sale_id).await {
        Ok(Some(s)) => s,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let (modules, placed) =
        match tokio::try_join!(modules(db, sale.site_id), placements(db, sale_id)) {
            Ok(r) => r,
            Err(e) => return ui::db_error(e),
        };
    let t = |k: &str| op.t(k);
    let can_edit = op.can(Permission::EditCatalogue) && sale.archived_at.is_none();
    let error = error.map(|e| view! { <p class="bo-error" role="alert">{e}</p> });
    let empty = placed
        .is_empty()
        .then(|| view! { <p>{t("homes.none")}</p> });
    let rows = placed
        .into_iter()
        .map(|p| {
            let remove = can_edit.then(|| {
                view! {
                    <form method="post" action=format!("{PREFIX}/sales/{sale_id}/homes/remove")>
                        {ui::xsrf_field(op)}
                        <input type="hidden" name="banner" value=p.banner_id.to_string() />
                        <button type="submit" class="bo-secondary" aria-label=format!("{} · {} · {}", t("homes.remove"), p.home, p.module)>{t("homes.remove")}</button>
                    </form>
                }
            });
            view! { <tr><td>{p.home}</td><td>{p.module}</td><td>{p.tile_size}</td><td class="num">{p.position}</td><td>{remove}</td></tr> }
        })
        .collect_view();
    let form = (can_edit && !modules.is_empty()).then(|| {
        let modules = modules.iter().map(|m| view! { <option value=m.id.to_string()>{m.label.clone()}</option> }).collect_view();
        let tiles = TILES.iter().map(|(size, layout)| view! { <option value=*size>{format!("{size} ({layout})")}</option> }).collect_view();
        view! {
            <h2>{t("homes.place")}</h2>
            <form method="post" action=format!("{PREFIX}/sales/{sale_id}/homes/place")>
                {ui::xsrf_field(op)}
                {ui::field(t("homes.module"), "module", view! { <select id="module" name="module">{modules}</select> }.into_any(), None)}
                {ui::field(t("homes.tile"), "tile", view! { <select id="tile" name="tile">{tiles}</select> }.into_any(), None)}
                {ui::field(t("homes.position"), "position", view! { <input id="position" name="position" inputmode="numeric" value="0" required /> }.into_any(), None)}
                <button type="submit">{t("homes.place")}</button>
            </form>
        }
    });
    let body = view! {
        <p><a href=format!("{PREFIX}/sales/{sale_id}")>{sale.name.clone()}</a>{format!(" · {} → {}", ui::when(sale.starts_at), ui::when(sale.ends_at))}</p>
        <p>{t("homes.help")}</p>
        {error}
        {empty}
        <div class="bo-table-wrap" tabindex="0">
            <table id="placements">
                <thead><tr><th scope="col">{t("homes.home")}</th><th scope="col">{t("homes.module")}</th><th scope="col">{t("homes.tile")}</th><th scope="col" class="num">{t("homes.position")}</th><th scope="col">{t("homes.remove")}</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {form}
    }
    .into_any();
    ui::page(
        status,
        op.lang(),
        Some(op),
        &format!("{} · {}", sale.name, t("homes.title")),
        notice,
        body,
    )
}

pub async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    Query(q): Query<PageQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ReadCatalogue) {
        return r;
    }
    let notice = match q.done.as_str() {
        "placed" => Some(op.t("homes.placed")),
        "removed" => Some(op.t("homes.removed")),
        _ => None,
    }
    .map(str::to_string);
    view_page(&app, &op, id, notice, None, StatusCode::OK).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PlaceFields {
    module: i64,
    tile: String,
    position: String,
}

pub async fn place_form(
    State(app): State<Arc<AppCtx>>,
    Path(sale_id): Path<i64>,
    form: OperatorForm<PlaceFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let db = &app.state.db;
    let sale = match store::by_id(db, sale_id).await {
        Ok(Some(s)) if s.archived_at.is_none() => s,
        Ok(Some(_)) => {
            return ui::message_page(
                op.lang(),
                Some(op),
                StatusCode::CONFLICT,
                op.t("sales.error.archived"),
            )
        }
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    };
    let f = &form.fields;
    let tile = TILES.iter().find(|(size, _)| *size == f.tile);
    let position: Option<i64> = f
        .position
        .trim()
        .parse()
        .ok()
        .filter(|p| (0..=999).contains(p));
    let module = match modules(db, sale.site_id).await {
        Ok(m) => m.into_iter().find(|m| m.id == f.module),
        Err(e) => return ui::db_error(e),
    };
    let (Some((size, layout)), Some(position), Some(module)) = (tile, position, module) else {
        return view_page(
            &app,
            op,
            sale_id,
            None,
            Some(op.t("homes.error").to_string()),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    };
    let at = now();
    let result: Result<(), sqlx::Error> = async {
        let mut tx = db.begin().await?;
        let id = store::next_id(&mut tx, "banners", 1).await?;
        let image = app::catalog::rules::sale_picture_url(
            sale_id,
            app::catalog::rules::SalePicture::Banner,
            sale.banner_image_id,
        );
        sqlx::query(
            "INSERT INTO banners (id, module_id, kind, sale_id, title, image_url, mobile_image_url, link, tile_size, layout, position)
             VALUES ($1, $2, 'SaleBanner', $3, $4, $5, $5, '', $6, $7, $8)",
        )
        .bind(id)
        .bind(module.id)
        .bind(sale_id)
        .bind(&sale.name)
        .bind(&image)
        .bind(*size)
        .bind(*layout)
        .bind(position)
        .execute(&mut *tx)
        .await?;
        let entry = Entry { action: "place", object_kind: "sale", object_id: sale_id.to_string(), summary: format!("banner {id} on {} ({size}, position {position})", module.label) };
        audit::record(&mut tx, &op.actor(), entry, at).await?;
        tx.commit().await
    }
    .await;
    match result {
        Ok(()) => ui::see_other(&format!("{PREFIX}/sales/{sale_id}/homes?done=placed")),
        Err(e) => ui::db_error(e),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RemoveFields {
    banner: i64,
}

pub async fn remove_form(
    State(app): State<Arc<AppCtx>>,
    Path(sale_id): Path<i64>,
    form: OperatorForm<RemoveFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let at = now();
    let result: Result<u64, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        // Only a banner of this sale: another id changes nothing.
        let n = sqlx::query("DELETE FROM banners WHERE id = $1 AND sale_id = $2")
            .bind(form.fields.banner)
            .bind(sale_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if n == 1 {
            let entry = Entry {
                action: "unplace",
                object_kind: "sale",
                object_id: sale_id.to_string(),
                summary: format!("banner {} taken off its home", form.fields.banner),
            };
            audit::record(&mut tx, &op.actor(), entry, at).await?;
        }
        tx.commit().await?;
        Ok(n)
    }
    .await;
    match result {
        Ok(1) => ui::see_other(&format!("{PREFIX}/sales/{sale_id}/homes?done=removed")),
        Ok(_) => ui::not_found(op),
        Err(e) => ui::db_error(e),
    }
}
