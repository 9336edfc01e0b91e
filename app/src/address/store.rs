//! The address book's SQL: every query names the member, so one member never reads or
//! changes another's rows.
use sqlx::{any::AnyRow, AnyConnection, Row};

use crate::address::model::{Address, DeliveryAddress};
use crate::address::rules::ValidAddress;

const COLUMNS: &str =
    "id, first_name, last_name, details, extras, zip_code, city, country, phone, is_favorite";

fn address(r: &AnyRow) -> Result<Address, sqlx::Error> {
    Ok(Address {
        id: r.try_get("id")?,
        first_name: r.try_get("first_name")?,
        last_name: r.try_get("last_name")?,
        details: r.try_get("details")?,
        extras: r.try_get("extras")?,
        zip_code: r.try_get("zip_code")?,
        city: r.try_get("city")?,
        country: r.try_get("country")?,
        phone: r.try_get("phone")?,
        is_favorite: r.try_get::<i64, _>("is_favorite")? == 1,
    })
}

/// The member's addresses, oldest first (the "first" of spec 001 §3).
pub async fn list(conn: &mut AnyConnection, member_id: i64) -> Result<Vec<Address>, sqlx::Error> {
    sqlx::query(&format!(
        "SELECT {COLUMNS} FROM member_addresses WHERE member_id = $1 ORDER BY id"
    ))
    .bind(member_id)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(address)
    .collect()
}

pub async fn get(
    conn: &mut AnyConnection,
    member_id: i64,
    id: i64,
) -> Result<Option<Address>, sqlx::Error> {
    sqlx::query(&format!(
        "SELECT {COLUMNS} FROM member_addresses WHERE id = $1 AND member_id = $2"
    ))
    .bind(id)
    .bind(member_id)
    .fetch_optional(&mut *conn)
    .await?
    .as_ref()
    .map(address)
    .transpose()
}

pub async fn count(conn: &mut AnyConnection, member_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM member_addresses WHERE member_id = $1")
        .bind(member_id)
        .fetch_one(&mut *conn)
        .await
}

pub async fn insert(
    conn: &mut AnyConnection,
    member_id: i64,
    a: &ValidAddress,
    favorite: bool,
    now: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO member_addresses (member_id, first_name, last_name, details, extras, zip_code, city,
                                       country, phone, is_favorite, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING id",
    )
    .bind(member_id)
    .bind(&a.first_name)
    .bind(&a.last_name)
    .bind(&a.details)
    .bind(&a.extras)
    .bind(&a.zip_code)
    .bind(&a.city)
    .bind(&a.country)
    .bind(&a.phone)
    .bind(i64::from(favorite))
    .bind(now)
    .fetch_one(&mut *conn)
    .await
}

/// `false` when the member has no such address.
pub async fn update(
    conn: &mut AnyConnection,
    member_id: i64,
    id: i64,
    a: &ValidAddress,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let n = sqlx::query(
        "UPDATE member_addresses SET first_name = $3, last_name = $4, details = $5, extras = $6,
                zip_code = $7, city = $8, country = $9, phone = $10, updated_at = $11
          WHERE id = $1 AND member_id = $2",
    )
    .bind(id)
    .bind(member_id)
    .bind(&a.first_name)
    .bind(&a.last_name)
    .bind(&a.details)
    .bind(&a.extras)
    .bind(&a.zip_code)
    .bind(&a.city)
    .bind(&a.country)
    .bind(&a.phone)
    .bind(now)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Makes `id` the member's only favourite (`Some`), or leaves them none (`None`).
pub async fn set_favorite(
    conn: &mut AnyConnection,
    member_id: i64,
    id: Option<i64>,
) -> Result<(), sqlx::Error> {
    // Cleared first: the unique index allows one favourite per member at every moment.
    sqlx::query(
        "UPDATE member_addresses SET is_favorite = 0 WHERE member_id = $1 AND is_favorite = 1",
    )
    .bind(member_id)
    .execute(&mut *conn)
    .await?;
    if let Some(id) = id {
        sqlx::query("UPDATE member_addresses SET is_favorite = 1 WHERE id = $1 AND member_id = $2")
            .bind(id)
            .bind(member_id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

pub async fn unset_favorite(
    conn: &mut AnyConnection,
    member_id: i64,
    id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE member_addresses SET is_favorite = 0 WHERE id = $1 AND member_id = $2")
        .bind(id)
        .bind(member_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// `false` when the member has no such address.
pub async fn delete(
    conn: &mut AnyConnection,
    member_id: i64,
    id: i64,
) -> Result<bool, sqlx::Error> {
    let n = sqlx::query("DELETE FROM member_addresses WHERE id = $1 AND member_id = $2")
        .bind(id)
        .bind(member_id)
        .execute(&mut *conn)
        .await?
        .rows_affected();
    Ok(n == 1)
}

/// Writes an order's copy of its delivery address (in the order's transaction).
pub async fn copy_to_order(
    conn: &mut AnyConnection,
    order_id: i64,
    a: &DeliveryAddress,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO order_addresses (order_id, first_name, last_name, details, extras, zip_code, city, country, phone)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(order_id)
    .bind(&a.first_name)
    .bind(&a.last_name)
    .bind(&a.details)
    .bind(&a.extras)
    .bind(&a.zip_code)
    .bind(&a.city)
    .bind(&a.country)
    .bind(&a.phone)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// An order's delivery address (orders paid before the address book have none).
pub async fn order_address(
    conn: &mut AnyConnection,
    order_id: i64,
) -> Result<Option<DeliveryAddress>, sqlx::Error> {
    sqlx::query(
        "SELECT first_name, last_name, details, extras, zip_code, city, country, phone
           FROM order_addresses WHERE order_id = $1",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?
    .map(|r| {
        Ok(DeliveryAddress {
            first_name: r.try_get("first_name")?,
            last_name: r.try_get("last_name")?,
            details: r.try_get("details")?,
            extras: r.try_get("extras")?,
            zip_code: r.try_get("zip_code")?,
            city: r.try_get("city")?,
            country: r.try_get("country")?,
            phone: r.try_get("phone")?,
        })
    })
    .transpose()
}
