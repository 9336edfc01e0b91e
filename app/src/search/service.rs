//! Search writes: the member's recent queries. A results page records its query on every
//! view of a member, so the writes go through one group-commit writer
//! (`platform::group_commit`) instead of a transaction each.
use std::future::Future;
use std::pin::Pin;

use sqlx::{Any, Transaction};

use crate::platform::db::{Backend, Db};
use crate::platform::group_commit::{GroupWrite, GroupWriter};
use crate::search::store;

/// A query the member searched, to record (normalised; kept to the last few per site).
#[derive(Clone, Debug)]
pub struct SearchRecord {
    pub member_id: i64,
    pub site_id: u16,
    pub q: String,
    pub now: i64,
}

/// The writer task that records searches.
pub type SearchRecorder = GroupWriter<SearchRecord>;

impl GroupWrite for SearchRecord {
    const NAME: &'static str = "search record";

    fn write_all<'a>(
        backend: Backend,
        batch: &'a [&'a Self],
        tx: &'a mut Transaction<'static, Any>,
    ) -> Pin<Box<dyn Future<Output = Result<(), sqlx::Error>> + Send + 'a>> {
        Box::pin(async move {
            let searched: Vec<store::Searched<'_>> = batch
                .iter()
                .map(|r| store::Searched {
                    member_id: r.member_id,
                    site_id: r.site_id,
                    q: &r.q,
                    now: r.now,
                })
                .collect();
            store::record_all(backend, tx, &searched).await
        })
    }
}

/// Records `record` once it is committed; the writer's failure as a database error.
pub async fn record(recorder: &SearchRecorder, record: SearchRecord) -> Result<(), sqlx::Error> {
    recorder.write(record).await.map_err(sqlx::Error::Protocol)
}

/// Deletes one of the member's recent queries; `false` when it is not theirs or gone.
pub async fn delete_recent(db: &Db, member_id: i64, id: i64) -> Result<bool, sqlx::Error> {
    store::delete_recent(db, member_id, id).await
}
