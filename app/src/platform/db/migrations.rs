//! The schema migrations of both engines, embedded in the binary (listed by `build.rs`) and
//! read the way sqlx reads a migrations folder, so databases migrated by earlier builds,
//! which used sqlx's `migrate!` macro, find the same versions and checksums.
use std::borrow::Cow;

use sqlx::migrate::{Migration, MigrationType, Migrator};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/migrations.rs"));
}

pub fn sqlite() -> Migrator {
    migrator(embedded::SQLITE)
}

pub fn postgres() -> Migrator {
    migrator(embedded::POSTGRES)
}

fn migrator(files: &'static [(&'static str, &'static str)]) -> Migrator {
    Migrator {
        migrations: Cow::Owned(
            files
                .iter()
                .map(|(name, sql)| migration(name, sql))
                .collect(),
        ),
        ..Migrator::DEFAULT
    }
}

/// `<version>_<description>.sql` as sqlx's folder source reads it: the description with
/// `_` as spaces, the transaction left out when the SQL starts with `-- no-transaction`.
/// `build.rs` lists only names of that form.
fn migration(file_name: &'static str, sql: &'static str) -> Migration {
    let (version, rest) = file_name
        .split_once('_')
        .expect("build.rs lists <version>_<description>.sql names");
    let version: i64 = version
        .parse()
        .expect("build.rs lists names with an integer version");
    let kind = MigrationType::from_filename(rest);
    let description = rest.trim_end_matches(kind.suffix()).replace('_', " ");
    Migration::new(
        version,
        Cow::Owned(description),
        kind,
        Cow::Borrowed(sql),
        sql.starts_with("-- no-transaction"),
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// What a database records of each migration (version, description, type, checksum,
    /// transaction) is what sqlx itself reads from the folder: a database migrated by an
    /// earlier build starts with this one, and a file in the folder is never left out.
    #[tokio::test]
    async fn the_embedded_migrations_are_the_folders_as_sqlx_reads_it() {
        for (engine, embedded) in [("sqlite", super::sqlite()), ("postgres", super::postgres())] {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("migrations")
                .join(engine);
            let read = sqlx::migrate::Migrator::new(dir.as_path()).await.unwrap();
            let summary = |m: &sqlx::migrate::Migrator| {
                m.iter()
                    .map(|m| {
                        (
                            m.version,
                            m.description.to_string(),
                            m.migration_type,
                            m.checksum.to_vec(),
                            m.no_tx,
                        )
                    })
                    .collect::<Vec<_>>()
            };
            assert!(
                embedded.iter().count() >= 47,
                "{engine}: {}",
                embedded.iter().count()
            );
            assert_eq!(summary(&embedded), summary(&read), "{engine}");
        }
    }
}
