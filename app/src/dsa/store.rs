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
