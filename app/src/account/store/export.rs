//! A member's data as JSON (GDPR Art. 15 and 20): their row and every row of theirs in the
//! tables erasure knows (`closing::ERASED_TABLES`, `KEPT_TABLES`) and in the tables of
//! their orders, so what is handed over and what is erased are one list. Secrets (hashed
//! tokens and passwords, payment tokens, the sealed IBAN) are left out; files are given by
//! size, not content.
use serde_json::{Map, Value};
use sqlx::any::AnyRow;
use sqlx::{Column, Row};

use super::closing::{ERASED_TABLES, KEPT_TABLES, ORDER_TABLES_EMPTIED};
use crate::platform::db::Db;

/// The order tables of a member's orders beside `ORDER_TABLES_EMPTIED`: the orders' own
/// facts (lines, delivery address, invoice, returned lines, rose-deal vouchers).
const ORDER_FACTS: [&str; 5] = [
    "order_items",
    "order_addresses",
    "invoices",
    "return_lines",
    "rosedeal_vouchers",
];

/// Columns never handed over: credentials and the keys to them, not data about the person.
fn secret(column: &str) -> bool {
    column.ends_with("_hash")
        || matches!(
            column,
            "token" | "iban_nonce" | "iban_sealed" | "client_key" | "totp_secret"
        )
}

/// One value as JSON, whatever its SQL type (the tables are many and their columns
/// change; a generic reading keeps the export complete).
fn value(row: &AnyRow, i: usize) -> Value {
    if let Ok(v) = row.try_get::<Option<i64>, _>(i) {
        return v.map_or(Value::Null, Value::from);
    }
    if let Ok(v) = row.try_get::<Option<String>, _>(i) {
        return v.map_or(Value::Null, Value::from);
    }
    if let Ok(v) = row.try_get::<Option<f64>, _>(i) {
        return v.map_or(Value::Null, Value::from);
    }
    if let Ok(v) = row.try_get::<Option<Vec<u8>>, _>(i) {
        return v.map_or(Value::Null, |b| serde_json::json!({ "bytes": b.len() }));
    }
    if let Ok(v) = row.try_get::<Option<bool>, _>(i) {
        return v.map_or(Value::Null, Value::from);
    }
    Value::Null
}

fn rows_json(rows: &[AnyRow]) -> Value {
    Value::Array(
        rows.iter()
            .map(|r| {
                let mut m = Map::new();
                for (i, c) in r.columns().iter().enumerate() {
                    if !secret(c.name()) {
                        m.insert(c.name().to_string(), value(r, i));
                    }
                }
                Value::Object(m)
            })
            .collect(),
    )
}

/// Everything the shop holds of the member, by table; `None` when there is no such member.
pub async fn export(db: &Db, member_id: i64) -> Result<Option<Value>, sqlx::Error> {
    let member = sqlx::query("SELECT * FROM members WHERE id = $1")
        .bind(member_id)
        .fetch_all(&db.pool)
        .await?;
    if member.is_empty() {
        return Ok(None);
    }
    let mut tables = Map::new();
    tables.insert("members".into(), rows_json(&member));
    for table in ERASED_TABLES.iter().chain(KEPT_TABLES.iter()) {
        // Table names come from the constants, never from input.
        let rows = sqlx::query(&format!("SELECT * FROM {table} WHERE member_id = $1"))
            .bind(member_id)
            .fetch_all(&db.pool)
            .await?;
        tables.insert((*table).to_string(), rows_json(&rows));
    }
    for table in ORDER_TABLES_EMPTIED.iter().chain(ORDER_FACTS.iter()) {
        let rows = sqlx::query(&format!(
            "SELECT * FROM {table} WHERE order_id IN (SELECT id FROM orders WHERE member_id = $1)"
        ))
        .bind(member_id)
        .fetch_all(&db.pool)
        .await?;
        tables.insert((*table).to_string(), rows_json(&rows));
    }
    Ok(Some(serde_json::json!({
        "format": "rosace-member-export/1",
        "memberId": member_id,
        "tables": Value::Object(tables),
    })))
}
