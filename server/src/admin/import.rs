//! `server import FILE [--dry-run]`: a JSON feed (or CSV of products and stock) into the
//! shop's database, as the back office's import page does. Prints every error with its
//! path or line and exits 1 (nothing changed), or what was created, updated and left as it
//! was. The pictures a feed names are read from the feed file's folder.
use crate::backoffice::audit::Actor;
use crate::backoffice::feed;

const USAGE: &str = "usage: server import FILE [--dry-run]";

pub async fn run(args: &[String]) -> i32 {
    let (file, dry_run) = match args {
        [file] => (file, false),
        [file, flag] if flag == "--dry-run" => (file, true),
        [flag, file] if flag == "--dry-run" => (file, true),
        _ => {
            eprintln!("{USAGE}");
            return 2;
        }
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {file}: {e}");
            return 2;
        }
    };
    let input = match feed::parse(&text) {
        Ok(i) => i,
        Err(errors) => {
            for e in errors {
                eprintln!("{file}: {e}");
            }
            return 1;
        }
    };
    let db = match super::open_db().await {
        Ok(db) => db,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let actor = Actor {
        operator_id: None,
        email: "command line".into(),
        ip: "local".into(),
    };
    // Pictures are named by file name, beside the feed.
    let folder = std::path::Path::new(file)
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    let started = std::time::Instant::now();
    match feed::import(
        &db,
        &actor,
        input,
        feed::PictureFiles::Folder(folder),
        feed::Run {
            dry_run,
            lang: "en",
            now: app::platform::state::now(),
            ids: feed::Ids::Next,
        },
    )
    .await
    {
        Ok(o) if o.errors.is_empty() => {
            println!(
                "{} in {:.2} s: {}",
                if o.applied {
                    "imported"
                } else {
                    "checked (dry run, nothing changed)"
                },
                started.elapsed().as_secs_f64(),
                o.summary()
            );
            0
        }
        Ok(o) => {
            for e in &o.errors {
                eprintln!("{file}: {e}");
            }
            eprintln!("{} error(s): nothing was changed", o.errors.len());
            1
        }
        Err(e) => {
            eprintln!("database error (nothing was changed): {e}");
            1
        }
    }
}
