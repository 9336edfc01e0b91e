//! The notices' reads and the decision's write (one transaction with its audit record).
use sqlx::{Any, Row, Transaction};

use app::dsa::mail::{strength, Decision, Ground};
use app::platform::db::Db;

/// A notice as the queue lists it.
pub struct QueueRow {
    pub id: i64,
    pub site_id: i64,
    pub created_at: i64,
    pub concerns: String,
    pub product_id: Option<i64>,
    pub product_name: Option<String>,
    pub made_as: i64,
    pub files: i64,
    pub acknowledged: bool,
    pub decision: Option<String>,
    pub decided_at: Option<i64>,
}

/// Notices waiting for a decision, oldest first, or the decided ones, newest first; `limit`
/// of them after the first `offset`.
pub async fn queue(
    db: &Db,
    decided: bool,
    limit: i64,
    offset: i64,
) -> Result<Vec<QueueRow>, sqlx::Error> {
    let (filter, order) = if decided {
        ("r.decided_at IS NOT NULL", "r.decided_at DESC, r.id DESC")
    } else {
        ("r.decided_at IS NULL", "r.created_at, r.id")
    };
    let rows = sqlx::query(&format!(
        "SELECT r.id, r.site_id, r.created_at, r.concerns, r.product_id, r.made_as,
                r.acknowledged_at, r.decided_at, p.name AS product_name, d.decision,
                (SELECT COUNT(*) FROM dsa_report_files f WHERE f.report_id = r.id) AS files
           FROM dsa_reports r
           LEFT JOIN products p ON p.id = r.product_id
           LEFT JOIN dsa_decisions d ON d.report_id = r.id
          WHERE {filter} ORDER BY {order} LIMIT $1 OFFSET $2"
    ))
    .bind(limit)
    .bind(offset)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(QueueRow {
                id: r.try_get("id")?,
                site_id: r.try_get("site_id")?,
                created_at: r.try_get("created_at")?,
                concerns: r.try_get("concerns")?,
                product_id: r.try_get("product_id")?,
                product_name: r.try_get("product_name")?,
                made_as: r.try_get("made_as")?,
                files: r.try_get("files")?,
                acknowledged: r.try_get::<Option<i64>, _>("acknowledged_at")?.is_some(),
                decision: r.try_get("decision")?,
                decided_at: r.try_get("decided_at")?,
            })
        })
        .collect()
}

/// How many notices wait for a decision.
pub async fn waiting(db: &Db) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM dsa_reports WHERE decided_at IS NULL")
        .fetch_one(&db.pool)
        .await
}

/// Everything a moderator reads of one notice.
pub struct Notice {
    pub id: i64,
    pub site_id: i64,
    pub sale_id: Option<i64>,
    pub product_id: Option<i64>,
    pub made_as: i64,
    pub concerns: String,
    pub description: String,
    pub last_name: String,
    pub denomination: String,
    pub copyright_reg_number: String,
    pub copyright_report_number: String,
    pub reg_office: String,
    pub email: String,
    pub created_at: i64,
    pub acknowledged_at: Option<i64>,
    pub product: Option<Product>,
    pub files: Vec<FileRow>,
    pub decision: Option<DecisionRow>,
}

/// The product a notice names, as it is now.
pub struct Product {
    pub name: String,
    pub sale_id: i64,
    pub moderation: String,
}

pub struct FileRow {
    pub id: i64,
    pub name: String,
    pub size: i64,
}

pub struct DecisionRow {
    pub decision: String,
    pub ground: String,
    pub facts: String,
    pub explanation: String,
    pub statement: String,
    pub operator_email: String,
    pub decided_at: i64,
    pub mailed_at: Option<i64>,
}

pub async fn notice(db: &Db, id: i64) -> Result<Option<Notice>, sqlx::Error> {
    let Some(r) = sqlx::query(
        "SELECT id, site_id, sale_id, product_id, made_as, concerns, description, last_name,
                denomination, copyright_reg_number, copyright_report_number, reg_office, email,
                created_at, acknowledged_at
           FROM dsa_reports WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await?
    else {
        return Ok(None);
    };
    let product_id: Option<i64> = r.try_get("product_id")?;
    let product = match product_id {
        Some(pid) => sqlx::query("SELECT name, sale_id, moderation FROM products WHERE id = $1")
            .bind(pid)
            .fetch_optional(&db.pool)
            .await?
            .map(|p| {
                Ok::<_, sqlx::Error>(Product {
                    name: p.try_get("name")?,
                    sale_id: p.try_get("sale_id")?,
                    moderation: p.try_get("moderation")?,
                })
            })
            .transpose()?,
        None => None,
    };
    let files = sqlx::query(
        "SELECT id, file_name, size_bytes FROM dsa_report_files WHERE report_id = $1 ORDER BY id",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|f| {
        Ok(FileRow {
            id: f.try_get("id")?,
            name: f.try_get("file_name")?,
            size: f.try_get("size_bytes")?,
        })
    })
    .collect::<Result<Vec<_>, sqlx::Error>>()?;
    let decision = sqlx::query(
        "SELECT d.decision, d.ground, d.facts, d.explanation, d.statement, d.decided_at,
                d.mailed_at, o.email
           FROM dsa_decisions d JOIN operators o ON o.id = d.operator_id
          WHERE d.report_id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await?
    .map(|d| {
        Ok::<_, sqlx::Error>(DecisionRow {
            decision: d.try_get("decision")?,
            ground: d.try_get("ground")?,
            facts: d.try_get("facts")?,
            explanation: d.try_get("explanation")?,
            statement: d.try_get("statement")?,
            operator_email: d.try_get("email")?,
            decided_at: d.try_get("decided_at")?,
            mailed_at: d.try_get("mailed_at")?,
        })
    })
    .transpose()?;
    Ok(Some(Notice {
        id,
        site_id: r.try_get("site_id")?,
        sale_id: r.try_get("sale_id")?,
        product_id,
        made_as: r.try_get("made_as")?,
        concerns: r.try_get("concerns")?,
        description: r.try_get("description")?,
        last_name: r.try_get("last_name")?,
        denomination: r.try_get("denomination")?,
        copyright_reg_number: r.try_get("copyright_reg_number")?,
        copyright_report_number: r.try_get("copyright_report_number")?,
        reg_office: r.try_get("reg_office")?,
        email: r.try_get("email")?,
        created_at: r.try_get("created_at")?,
        acknowledged_at: r.try_get("acknowledged_at")?,
        product,
        files,
        decision,
    }))
}

/// One attached file of a notice: name, declared type and bytes.
pub async fn file(
    db: &Db,
    report_id: i64,
    file_id: i64,
) -> Result<Option<(String, Vec<u8>)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT file_name, data FROM dsa_report_files WHERE id = $1 AND report_id = $2",
    )
    .bind(file_id)
    .bind(report_id)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| Ok((r.try_get("file_name")?, r.try_get("data")?)))
        .transpose()
}

/// A decision to write.
pub struct NewDecision<'a> {
    pub report_id: i64,
    pub decision: Decision,
    pub ground: Ground,
    pub facts: &'a str,
    pub explanation: &'a str,
    pub statement: &'a str,
    pub operator_id: i64,
    pub now: i64,
}

/// What a decision did to the product, for the audit summary.
pub enum Taken {
    /// Another moderator decided this notice first.
    AlreadyDecided,
    /// The product's moderation before → after (the same when it was already stronger).
    Done {
        product: Option<(i64, String, String)>,
    },
}

/// Claims the notice (the first moderator wins), writes the decision and applies it to the
/// product unless the product already carries a stronger one.
pub async fn decide(
    tx: &mut Transaction<'static, Any>,
    d: &NewDecision<'_>,
    product_id: Option<i64>,
) -> Result<Taken, sqlx::Error> {
    let claimed =
        sqlx::query("UPDATE dsa_reports SET decided_at = $2 WHERE id = $1 AND decided_at IS NULL")
            .bind(d.report_id)
            .bind(d.now)
            .execute(&mut **tx)
            .await?
            .rows_affected();
    if claimed == 0 {
        return Ok(Taken::AlreadyDecided);
    }
    sqlx::query(
        "INSERT INTO dsa_decisions (report_id, decision, ground, facts, explanation, statement,
             operator_id, decided_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(d.report_id)
    .bind(d.decision.as_str())
    .bind(d.ground.as_str())
    .bind(d.facts)
    .bind(d.explanation)
    .bind(d.statement)
    .bind(d.operator_id)
    .bind(d.now)
    .execute(&mut **tx)
    .await?;
    let (Some(pid), Some(after)) = (product_id, d.decision.moderation()) else {
        return Ok(Taken::Done { product: None });
    };
    let before: Option<String> =
        sqlx::query_scalar("SELECT moderation FROM products WHERE id = $1")
            .bind(pid)
            .fetch_optional(&mut **tx)
            .await?;
    let Some(before) = before else {
        return Ok(Taken::Done { product: None });
    };
    // Only ever stronger, checked in the write itself: two notices about one product
    // decided at once cannot leave the milder decision on it.
    let raised = sqlx::query(&format!(
        "UPDATE products SET moderation = $2 WHERE id = $1 AND {STRENGTH} < $3"
    ))
    .bind(pid)
    .bind(after)
    .bind(i64::from(strength(after)))
    .execute(&mut **tx)
    .await?
    .rows_affected();
    let after = if raised == 1 {
        after.to_string()
    } else {
        before.clone()
    };
    Ok(Taken::Done {
        product: Some((pid, before, after)),
    })
}

/// `products.moderation` as [`strength`] ranks it, in SQL.
const STRENGTH: &str = "CASE moderation WHEN 'removed' THEN 3 WHEN 'disabled' THEN 2 \
                        WHEN 'restricted' THEN 1 ELSE 0 END";

/// Notes that the statement of reasons reached the mailer.
pub async fn statement_mailed(db: &Db, report_id: i64, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE dsa_decisions SET mailed_at = $2 WHERE report_id = $1")
        .bind(report_id)
        .bind(now)
        .execute(&db.writes)
        .await?;
    Ok(())
}

/// Puts a disabled or restricted product back on the shop (a complaint was upheld); a
/// removed one stays removed. The moderation before, when it changed.
pub async fn restore(
    tx: &mut Transaction<'static, Any>,
    product_id: i64,
) -> Result<Option<String>, sqlx::Error> {
    let before: Option<String> =
        sqlx::query_scalar("SELECT moderation FROM products WHERE id = $1")
            .bind(product_id)
            .fetch_optional(&mut **tx)
            .await?;
    match before {
        Some(b) if b == "disabled" || b == "restricted" => {
            let done = sqlx::query(
                "UPDATE products SET moderation = '' WHERE id = $1 AND moderation = $2",
            )
            .bind(product_id)
            .bind(&b)
            .execute(&mut **tx)
            .await?
            .rows_affected();
            Ok((done == 1).then_some(b))
        }
        _ => Ok(None),
    }
}

/// The notices received in `[from, until)`, with their decision if any.
pub struct PeriodRow {
    pub concerns: String,
    pub created_at: i64,
    pub decision: Option<String>,
    pub decided_at: Option<i64>,
}

pub async fn period(db: &Db, from: i64, until: i64) -> Result<Vec<PeriodRow>, sqlx::Error> {
    sqlx::query(
        "SELECT r.concerns, r.created_at, d.decision, d.decided_at
           FROM dsa_reports r LEFT JOIN dsa_decisions d ON d.report_id = r.id
          WHERE r.created_at >= $1 AND r.created_at < $2 ORDER BY r.id",
    )
    .bind(from)
    .bind(until)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(PeriodRow {
            concerns: r.try_get("concerns")?,
            created_at: r.try_get("created_at")?,
            decision: r.try_get("decision")?,
            decided_at: r.try_get("decided_at")?,
        })
    })
    .collect()
}
