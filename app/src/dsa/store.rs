use sqlx::{Any, Row, Transaction};

use crate::model::dsa::DsaFormRequest;

pub async fn insert_report(
    tx: &mut Transaction<'_, Any>,
    req: &DsaFormRequest,
    client_key: &str,
    now: i64,
) -> Result<i64, sqlx::Error> {
    let concerns: Vec<&str> = req.selected_concerns.iter().map(|r| r.as_str()).collect();
    let row = sqlx::query(
        "INSERT INTO dsa_reports (site_id, sale_id, product_id, made_as, concerns, description,
             last_name, denomination, copyright_reg_number, copyright_report_number, reg_office,
             email, agreement_seller_partner, client_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         RETURNING id",
    )
    .bind(i64::from(req.site_id))
    .bind(req.sale_id)
    .bind(req.product_id)
    .bind(i64::from(req.selected_made_as))
    .bind(concerns.join(","))
    .bind(req.description.trim())
    .bind(req.last_name.trim())
    .bind(req.denomination.trim())
    .bind(req.copyright_reg_number.trim())
    .bind(req.copyright_report_number.trim())
    .bind(req.selected_reg_office.trim())
    .bind(req.email.trim())
    .bind(i64::from(req.agreement_seller_partner))
    .bind(client_key)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    row.try_get("id")
}

pub async fn insert_file(
    tx: &mut Transaction<'_, Any>,
    report_id: i64,
    name: &str,
    content_type: &str,
    bytes: &[u8],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO dsa_report_files (report_id, file_name, content_type, size_bytes, data)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(report_id)
    .bind(name)
    .bind(content_type)
    .bind(bytes.len() as i64)
    .bind(bytes.to_vec())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// What a notice is about, named for the notifier's emails (a product that no longer
/// exists is named by its sale, else the shop).
pub async fn object_of(
    db: &crate::platform::db::Db,
    sale_id: Option<i64>,
    product_id: Option<i64>,
) -> Result<crate::dsa::mail::Object, sqlx::Error> {
    use crate::dsa::mail::Object;
    if let Some(id) = product_id {
        let name: Option<String> = sqlx::query_scalar("SELECT name FROM products WHERE id = $1")
            .bind(id)
            .fetch_optional(&db.pool)
            .await?;
        if let Some(name) = name {
            return Ok(Object::Product { id, name });
        }
    }
    Ok(sale_id.map_or(Object::Shop, Object::Sale))
}

/// Notes that the notifier was sent the acknowledgement.
pub async fn acknowledged(
    db: &crate::platform::db::Db,
    id: i64,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE dsa_reports SET acknowledged_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(&db.writes)
        .await?;
    Ok(())
}

/// What the emails need of a notice.
pub struct ReportHead {
    pub site_id: i64,
    pub sale_id: Option<i64>,
    pub product_id: Option<i64>,
    pub email: String,
    pub created_at: i64,
}

pub async fn report_head(
    db: &crate::platform::db::Db,
    id: i64,
) -> Result<Option<ReportHead>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT site_id, sale_id, product_id, email, created_at FROM dsa_reports WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok(ReportHead {
            site_id: r.try_get("site_id")?,
            sale_id: r.try_get("sale_id")?,
            product_id: r.try_get("product_id")?,
            email: r.try_get("email")?,
            created_at: r.try_get("created_at")?,
        })
    })
    .transpose()
}
