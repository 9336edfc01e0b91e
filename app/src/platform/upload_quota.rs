//! Storage quotas for the files members and visitors send (help contact and answers, rose
//! deals' attachments, the report of illegal content; review N2): per member and per client
//! address per day, a total per member, and the shop's storage as a whole (a configured cap
//! on every stored file, and the free space under the embedded database). Files are kept in
//! the database, so a full disk would stop orders and payments too: uploads are refused
//! first, with their own message, and everything else keeps working.
//!
//! An upload is charged inside the transaction that stores it: a refused or failed one
//! costs nothing, and concurrent ones are counted one after the other (the counter rows are
//! updated by one statement each, on the write connection or under a row lock).
use sqlx::{Any, Transaction};

/// The limits (`ROSACE_UPLOAD_*`, see `docs/configuration.md`). 0 turns a limit off.
#[derive(Clone, Debug)]
pub struct QuotaSettings {
    /// Bytes one member may store per UTC day.
    pub member_day_bytes: i64,
    /// Bytes one client address may store per UTC day, members and visitors together.
    pub client_day_bytes: i64,
    /// Bytes of files one member may have stored in all.
    pub member_total_bytes: i64,
    /// Bytes of files the whole shop may store.
    pub storage_cap_bytes: i64,
    /// Free bytes to keep on the disk under `disk_dir` after an upload.
    pub min_free_disk_bytes: i64,
    /// The folder of the embedded database (SQLite); `None` on PostgreSQL, whose disk the
    /// shop cannot see (its cap is `storage_cap_bytes`).
    pub disk_dir: Option<String>,
}

impl Default for QuotaSettings {
    fn default() -> Self {
        const MB: i64 = 1024 * 1024;
        QuotaSettings {
            member_day_bytes: 50 * MB,
            client_day_bytes: 100 * MB,
            member_total_bytes: 200 * MB,
            storage_cap_bytes: 0,
            min_free_disk_bytes: 1024 * MB,
            disk_dir: None,
        }
    }
}

/// Why an upload was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The member's or the client's files of the day, or the member's in all.
    Quota,
    /// The shop's storage is (nearly) full.
    StorageFull,
}

impl Refusal {
    /// 413 for the sender's quota, 507 when the shop cannot store files now.
    pub fn status(self) -> u16 {
        match self {
            Refusal::Quota => 413,
            Refusal::StorageFull => 507,
        }
    }
    pub fn code(self) -> &'static str {
        match self {
            Refusal::Quota => "upload_quota",
            Refusal::StorageFull => "storage_full",
        }
    }
}

/// Who sends the files, and the limits that apply.
#[derive(Clone, Copy, Debug)]
pub struct Uploader<'a> {
    pub quota: &'a QuotaSettings,
    /// The client address (as rate limits count it).
    pub client: &'a str,
}

const DAY: i64 = 86_400;

/// Charges `bytes` of files to the member (if any) and the client, inside the transaction
/// that stores them; `Ok(Err(_))` when a limit refuses them (drop the transaction).
pub async fn charge(
    tx: &mut Transaction<'_, Any>,
    who: Uploader<'_>,
    member_id: Option<i64>,
    bytes: i64,
    now: i64,
) -> Result<Result<(), Refusal>, sqlx::Error> {
    if bytes <= 0 {
        return Ok(Ok(()));
    }
    let q = who.quota;
    if q.min_free_disk_bytes > 0 {
        if let Some(free) = q.disk_dir.as_deref().and_then(free_bytes) {
            if free.saturating_sub(bytes) < q.min_free_disk_bytes {
                tracing::warn!(free, "uploads refused: the database's disk is nearly full");
                return Ok(Err(Refusal::StorageFull));
            }
        }
    }
    if q.storage_cap_bytes > 0 && stored(tx, None).await? + bytes > q.storage_cap_bytes {
        tracing::warn!("uploads refused: the configured storage cap is reached");
        return Ok(Err(Refusal::StorageFull));
    }
    if let Some(member) = member_id {
        if q.member_total_bytes > 0
            && stored(tx, Some(member)).await? + bytes > q.member_total_bytes
        {
            return Ok(Err(Refusal::Quota));
        }
        if over_day(
            tx,
            &format!("upload:m:{member}"),
            q.member_day_bytes,
            bytes,
            now,
        )
        .await?
        {
            return Ok(Err(Refusal::Quota));
        }
    }
    if over_day(
        tx,
        &format!("upload:c:{}", who.client),
        q.client_day_bytes,
        bytes,
        now,
    )
    .await?
    {
        return Ok(Err(Refusal::Quota));
    }
    Ok(Ok(()))
}

/// Adds `bytes` to the day's counter `bucket` (a rate-limit row, purged when its day has
/// passed); whether it is now past `limit`.
async fn over_day(
    tx: &mut Transaction<'_, Any>,
    bucket: &str,
    limit: i64,
    bytes: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    if limit <= 0 {
        return Ok(false);
    }
    let day = now - now.rem_euclid(DAY);
    let total: i64 = sqlx::query_scalar(
        "INSERT INTO rate_limits (bucket, window_start, hits, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limits.hits + $3
         RETURNING hits",
    )
    .bind(bucket)
    .bind(day)
    .bind(bytes)
    .bind(day + DAY)
    .fetch_one(&mut **tx)
    .await?;
    Ok(total > limit)
}

/// Bytes of files stored: a member's (their help messages and answers' files, their rose
/// deals' attachments), or the whole shop's (those and the reports' files).
async fn stored(tx: &mut Transaction<'_, Any>, member: Option<i64>) -> Result<i64, sqlx::Error> {
    let sql = match member {
        Some(_) => {
            "SELECT CAST(
                COALESCE((SELECT SUM(size) FROM help_attachments WHERE member_id = $1), 0)
              + COALESCE((SELECT SUM(size) FROM help_evaluation_files WHERE member_id = $1), 0)
              + COALESCE((SELECT SUM(LENGTH(a.data)) FROM rosedeal_attachments a
                            JOIN rosedeal_messages m ON m.id = a.message_id
                            JOIN orders o ON o.id = m.order_id
                           WHERE o.member_id = $1), 0) AS BIGINT)"
        }
        None => {
            "SELECT CAST(
                COALESCE((SELECT SUM(size) FROM help_attachments), 0)
              + COALESCE((SELECT SUM(size) FROM help_evaluation_files), 0)
              + COALESCE((SELECT SUM(LENGTH(data)) FROM rosedeal_attachments), 0)
              + COALESCE((SELECT SUM(size_bytes) FROM dsa_report_files), 0) AS BIGINT)"
        }
    };
    let mut query = sqlx::query_scalar::<_, i64>(sql);
    if let Some(m) = member {
        query = query.bind(m);
    }
    query.fetch_one(&mut **tx).await
}

/// Free bytes for an unprivileged writer on the file system holding `dir`.
fn free_bytes(dir: &str) -> Option<i64> {
    let path = std::ffi::CString::new(dir).ok()?;
    let mut stat = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is a valid C string and `stat` a buffer of the right type, which
    // statvfs fills when it answers 0.
    let stat = unsafe {
        if libc::statvfs(path.as_ptr(), stat.as_mut_ptr()) != 0 {
            return None;
        }
        stat.assume_init()
    };
    let free = u128::from(stat.f_bavail) * u128::from(stat.f_frsize);
    Some(i64::try_from(free).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_free_space_of_a_real_folder_is_read() {
        let free = super::free_bytes(&std::env::temp_dir().to_string_lossy()).unwrap();
        assert!(free > 0);
        assert!(super::free_bytes("/no/such/folder").is_none());
    }
}
