//! Operations and the catalog-by-id look-up.
use sqlx::Row;

use crate::operations::rules::{self, Refusal, Target};
use crate::platform::db::Db;
use crate::platform::sql::live_window;
use crate::shell::rules::Audience;

/// The canonical catalog path of a live sale of the site, `None` for an unknown sale,
/// another site's, or one that is over.
pub async fn sale_catalog(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    now: i64,
) -> Result<Option<String>, sqlx::Error> {
    sale_landing(db, site_id, sale_id, now, Audience::Member).await
}

/// The catalog of the site's live travel sale named `slug` (`/t/c/{id}`): `None` when no
/// live travel sale of the site has it. Two with one slug (an operator's slip): the first
/// made.
pub async fn travel_catalog_by_slug(
    db: &Db,
    site_id: u16,
    slug: &str,
    now: i64,
) -> Result<Option<String>, sqlx::Error> {
    let sale: Option<i64> = sqlx::query_scalar(&format!(
        "SELECT MIN(s.id) FROM sales s
          WHERE s.site_id = $1 AND s.slug = $2 AND s.campaign_kind = 'TRAVEL' AND {}",
        live_window("$3")
    ))
    .bind(i64::from(site_id))
    .bind(slug)
    .bind(now)
    .fetch_one(&db.pool)
    .await?;
    Ok(sale.map(|id| crate::travel::rules::catalog_link(None, None, id)))
}

/// The member's page of a product by its id alone (`/product/{sale}/{id}`): `None` for an
/// unknown product, another site's, one whose sale is not live or one taken down.
pub async fn product_page(
    db: &Db,
    site_id: u16,
    product_id: i64,
    now: i64,
) -> Result<Option<String>, sqlx::Error> {
    let sale: Option<i64> = sqlx::query_scalar(&format!(
        "SELECT p.sale_id FROM products p JOIN sales s ON s.id = p.sale_id
          WHERE p.id = $1 AND s.site_id = $2 AND s.campaign_kind IN ('DEFAULT', 'EMAIL') AND {} AND {}",
        live_window("$3"),
        crate::platform::sql::shown("p")
    ))
    .bind(product_id)
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    Ok(sale.map(|sale_id| format!("/product/{sale_id}/{product_id}")))
}

/// Where a live sale of the site lands `audience` (`rules::sale_landing`: a visitor gets
/// the open-door `/c/...` catalog), `None` for an unknown sale, another site's, or one
/// that is over.
async fn sale_landing(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    now: i64,
    audience: Audience,
) -> Result<Option<String>, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT s.slug, (SELECT MIN(u.id) FROM universes u WHERE u.sale_id = s.id AND u.parent_id IS NULL) AS u
           FROM sales s WHERE s.id = $1 AND s.site_id = $2 AND s.campaign_kind IN ('DEFAULT', 'EMAIL') AND {}",
        live_window("$3")
    ))
    .bind(sale_id)
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    Ok(match row {
        Some(r) => {
            let slug: String = r.try_get("slug")?;
            r.try_get::<Option<i64>, _>("u")?
                .map(|u| rules::sale_landing(audience, sale_id, u, &slug))
        }
        None => None,
    })
}

/// Enters an operation for `audience`: where it lands (a path), or why it does not. A
/// visitor lands on the open-door page of the target when it has one (`rules`), a member
/// on the members' page.
pub async fn enter(
    db: &Db,
    site_id: u16,
    raw_code: &str,
    now: i64,
    audience: Audience,
) -> Result<Result<(String, String), Refusal>, sqlx::Error> {
    let Some(code) = rules::normalize_code(raw_code) else {
        return Ok(Err(Refusal::Unknown));
    };
    let Some(row) = sqlx::query(
        "SELECT id, target_kind, target, starts_at, ends_at FROM operations WHERE site_id = $1 AND code = $2",
    )
    .bind(i64::from(site_id))
    .bind(&code)
    .fetch_optional(&db.pool)
    .await?
    else {
        return Ok(Err(Refusal::Unknown));
    };
    if !rules::is_running(row.try_get("starts_at")?, row.try_get("ends_at")?, now) {
        return Ok(Err(Refusal::Expired));
    }
    // Its own selection first, while any of it is on sale.
    if selection_on_sale(db, site_id, row.try_get("id")?, now).await? {
        return Ok(Ok((code.clone(), rules::selection_path(&code))));
    }
    let target = Target::parse(
        &row.try_get::<String, _>("target_kind")?,
        &row.try_get::<String, _>("target")?,
    );
    Ok(match target {
        Some(Target::Sale(id)) => match sale_landing(db, site_id, id, now, audience).await? {
            Some(path) => Ok((code, path)),
            None => Err(Refusal::Expired),
        },
        Some(Target::Home(name)) => {
            let kind: Option<String> =
                sqlx::query_scalar("SELECT type FROM homes WHERE site_id = $1 AND name = $2")
                    .bind(i64::from(site_id))
                    .bind(&name)
                    .fetch_optional(&db.pool)
                    .await?;
            Ok((
                code,
                rules::home_landing(audience, &name, kind.as_deref().unwrap_or_default()),
            ))
        }
        None => Err(Refusal::Unknown),
    })
}

/// Whether any product of the operation's selection is on sale on the site now.
async fn selection_on_sale(
    db: &Db,
    site_id: u16,
    operation_id: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let found = sqlx::query(&format!(
        "SELECT 1 AS one FROM operation_products op JOIN products pr ON pr.id = op.product_id
           JOIN sales s ON s.id = pr.sale_id
          WHERE op.operation_id = $3 AND {} AND pr.moderation = '' LIMIT 1",
        crate::platform::sql::LIVE_SALE
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .bind(operation_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(found.is_some())
}

/// A running operation's selection on the site: its products on sale now (of `universe`
/// only, when one is asked: a universe's or sub-universe's id) and the universes of all
/// of them. `None` for an unknown code, an operation not running, or one without a
/// selection; a selection whose products are all sold or over has none to show.
pub async fn selection(
    db: &Db,
    site_id: u16,
    raw_code: &str,
    universe: &str,
    viewer: crate::cart::store::Viewer,
    now: i64,
) -> Result<Option<crate::operations::model::Operation>, sqlx::Error> {
    let Some(code) = rules::normalize_code(raw_code) else {
        return Ok(None);
    };
    let Some(row) = sqlx::query(
        "SELECT o.id, o.title, o.starts_at, o.ends_at,
                (SELECT COUNT(*) FROM operation_products op WHERE op.operation_id = o.id) AS chosen
           FROM operations o WHERE o.site_id = $1 AND o.code = $2",
    )
    .bind(i64::from(site_id))
    .bind(&code)
    .fetch_optional(&db.pool)
    .await?
    else {
        return Ok(None);
    };
    let running = rules::is_running(row.try_get("starts_at")?, row.try_get("ends_at")?, now);
    if !running || row.try_get::<i64, _>("chosen")? == 0 {
        return Ok(None);
    }
    let found =
        crate::catalog::store::operation_items(db, site_id, row.try_get("id")?, viewer, now)
            .await?;
    let placements: Vec<_> = found.iter().map(|(_, p)| p.clone()).collect();
    let universe = universe.trim();
    let title: String = row.try_get("title")?;
    Ok(Some(crate::operations::model::Operation {
        title: if title.trim().is_empty() {
            code.clone()
        } else {
            title
        },
        code,
        universes: rules::universes(&placements),
        products: found
            .into_iter()
            .filter(|(_, p)| p.is_in(universe))
            .map(|(item, _)| item)
            .collect(),
    }))
}
