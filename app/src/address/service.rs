//! The address book's operations: each checks its input, then reads or writes in one
//! transaction, always within the signed-in member's own addresses.
use crate::address::error::AddressError;
use crate::address::model::{Address, AddressRequest, DeliveryAddress};
use crate::address::rules::{check_address, default_address, MAX_ADDRESSES};
use crate::address::store;
use crate::platform::db::Db;

/// Who is asking: the member, and the site whose rules their addresses follow.
#[derive(Clone, Copy, Debug)]
pub struct Owner {
    pub member_id: i64,
    pub site_id: u16,
}

pub async fn list(db: &Db, owner: Owner) -> Result<Vec<Address>, AddressError> {
    let mut conn = db.pool.acquire().await?;
    Ok(store::list(&mut conn, owner.member_id).await?)
}

pub async fn get(db: &Db, owner: Owner, id: i64) -> Result<Address, AddressError> {
    let mut conn = db.pool.acquire().await?;
    store::get(&mut conn, owner.member_id, id)
        .await?
        .ok_or(AddressError::NotFound)
}

/// The favourite, else the first (spec 001 §3); not found when the book is empty.
pub async fn favourite(db: &Db, owner: Owner) -> Result<Address, AddressError> {
    let all = list(db, owner).await?;
    default_address(&all).cloned().ok_or(AddressError::NotFound)
}

fn save_failed(e: sqlx::Error) -> AddressError {
    AddressError::SaveFailed(e.to_string())
}

/// Adds an address. A member's first address is their favourite; `isFavorite: true` makes
/// a later one the favourite. Refused input stores nothing.
pub async fn create(
    db: &Db,
    owner: Owner,
    req: &AddressRequest,
    now: i64,
) -> Result<Address, AddressError> {
    let valid = check_address(owner.site_id, req).map_err(AddressError::Invalid)?;
    let mut tx = db.begin().await.map_err(save_failed)?;
    let count = store::count(&mut tx, owner.member_id)
        .await
        .map_err(save_failed)?;
    if count >= MAX_ADDRESSES as i64 {
        return Err(AddressError::TooMany);
    }
    let favorite = count == 0 || req.is_favorite == Some(true);
    if favorite {
        store::set_favorite(&mut tx, owner.member_id, None)
            .await
            .map_err(save_failed)?;
    }
    let id = store::insert(&mut tx, owner.member_id, &valid, favorite, now)
        .await
        .map_err(save_failed)?;
    let saved = store::get(&mut tx, owner.member_id, id)
        .await
        .map_err(save_failed)?
        .ok_or_else(|| AddressError::SaveFailed("inserted address not found".into()))?;
    tx.commit().await.map_err(save_failed)?;
    Ok(saved)
}

/// Changes one of the member's addresses (`isFavorite` left out keeps its flag).
pub async fn update(
    db: &Db,
    owner: Owner,
    id: i64,
    req: &AddressRequest,
    now: i64,
) -> Result<Address, AddressError> {
    let valid = check_address(owner.site_id, req).map_err(AddressError::Invalid)?;
    let mut tx = db.begin().await.map_err(save_failed)?;
    if !store::update(&mut tx, owner.member_id, id, &valid, now)
        .await
        .map_err(save_failed)?
    {
        return Err(AddressError::NotFound);
    }
    match req.is_favorite {
        Some(true) => store::set_favorite(&mut tx, owner.member_id, Some(id)).await,
        Some(false) => store::unset_favorite(&mut tx, owner.member_id, id).await,
        None => Ok(()),
    }
    .map_err(save_failed)?;
    let saved = store::get(&mut tx, owner.member_id, id)
        .await
        .map_err(save_failed)?
        .ok_or(AddressError::NotFound)?;
    tx.commit().await.map_err(save_failed)?;
    Ok(saved)
}

/// Makes one of the member's addresses their favourite.
pub async fn make_favourite(db: &Db, owner: Owner, id: i64) -> Result<Address, AddressError> {
    let mut tx = db.begin().await?;
    if store::get(&mut tx, owner.member_id, id).await?.is_none() {
        return Err(AddressError::NotFound);
    }
    store::set_favorite(&mut tx, owner.member_id, Some(id)).await?;
    let saved = store::get(&mut tx, owner.member_id, id)
        .await?
        .ok_or(AddressError::NotFound)?;
    tx.commit().await?;
    Ok(saved)
}

/// Deletes one of the member's addresses for good (orders keep their own copies). The
/// favourite's place is not handed on: checkout then takes the first (spec 001 §3).
pub async fn delete(db: &Db, owner: Owner, id: i64) -> Result<(), AddressError> {
    let mut tx = db.begin().await?;
    if !store::delete(&mut tx, owner.member_id, id).await? {
        return Err(AddressError::NotFound);
    }
    tx.commit().await?;
    Ok(())
}

/// The address an order of the member is delivered to: the one they chose, which must be
/// theirs, else their default. `None` when they have none (or chose one that is not
/// theirs): no delivery address, no payment. Runs in the caller's transaction.
pub async fn delivery_for(
    conn: &mut sqlx::AnyConnection,
    member_id: i64,
    chosen: Option<i64>,
) -> Result<Option<DeliveryAddress>, sqlx::Error> {
    Ok(match chosen {
        Some(id) => store::get(conn, member_id, id).await?,
        None => default_address(&store::list(conn, member_id).await?).cloned(),
    }
    .map(|a| DeliveryAddress::from(&a)))
}
