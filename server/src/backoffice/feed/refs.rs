//! How a feed's refs name the shop's entries: found again through `feed_refs`, or, for the
//! demo's feed, by the ids the refs spell.
use sqlx::{Any, Transaction};

/// How the entries a feed creates get their ids.
#[derive(Clone, Copy)]
pub enum Ids<'a> {
    /// The next free id; an entry is found again by its ref (`feed_refs`).
    Next,
    /// The number its ref ends with (`demo:1001`), and for a brand its place in `brands`
    /// plus one: the demo's feed keeps the ids its links, bookmarks and tests name. An
    /// entry the shop already has stays as it is: the demo fills in what is missing and
    /// never undoes an owner's edits.
    FromRefs { brands: &'a [&'a str] },
}

/// Where the entry a feed's ref names stands in the shop.
#[derive(Clone, Copy)]
pub(super) enum Found {
    /// Not there: to create, with this id when the feed sets it.
    New(Option<i64>),
    /// Made by an earlier import: to update.
    Known(i64),
    /// The demo's entry, already there: left as it is (see [`Ids::FromRefs`]).
    Kept(i64),
}

/// The table and key column of each kind of entry.
fn table_of(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "sale" => ("sales", "id"),
        "product" => ("products", "id"),
        "option" => ("product_options", "id"),
        "universe" => ("universes", "id"),
        "package" => ("travel_packages", "id"),
        "city" => ("travel_departure_cities", "id"),
        "duration" => ("travel_durations", "id"),
        "benefit" => ("travel_benefits", "id"),
        "bundle" => ("bundles", "id"),
        _ => ("travel_seasons", "id"),
    }
}

/// Where the entry of `kind` named `reference` stands.
pub(super) async fn find(
    tx: &mut Transaction<'static, Any>,
    ids: Ids<'_>,
    kind: &str,
    reference: &str,
) -> Result<Found, sqlx::Error> {
    match ids {
        Ids::Next => Ok(match lookup(tx, kind, reference).await? {
            Some(id) => Found::Known(id),
            None => Found::New(None),
        }),
        Ids::FromRefs { .. } => {
            let Some(id) = reference
                .rsplit(':')
                .next()
                .and_then(|n| n.parse::<i64>().ok())
            else {
                return Ok(Found::New(None));
            };
            let (table, key) = table_of(kind);
            let there: Option<i64> =
                sqlx::query_scalar(&format!("SELECT {key} FROM {table} WHERE {key} = $1"))
                    .bind(id)
                    .fetch_optional(&mut **tx)
                    .await?;
            Ok(match there {
                Some(id) => Found::Kept(id),
                None => Found::New(Some(id)),
            })
        }
    }
}

/// Records the ref of a new entry, so the next import finds it (the demo's refs are its
/// ids already).
pub(super) async fn remember_new(
    tx: &mut Transaction<'static, Any>,
    ids: Ids<'_>,
    kind: &str,
    reference: &str,
    id: i64,
) -> Result<(), sqlx::Error> {
    match ids {
        Ids::Next => remember(tx, kind, reference, id).await,
        Ids::FromRefs { .. } => Ok(()),
    }
}

pub(super) async fn lookup(
    tx: &mut Transaction<'static, Any>,
    kind: &str,
    reference: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM feed_refs WHERE kind = $1 AND feed_ref = $2")
        .bind(kind)
        .bind(reference)
        .fetch_optional(&mut **tx)
        .await
}

pub(super) async fn remember(
    tx: &mut Transaction<'static, Any>,
    kind: &str,
    reference: &str,
    id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO feed_refs (kind, feed_ref, id) VALUES ($1, $2, $3)")
        .bind(kind)
        .bind(reference)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
