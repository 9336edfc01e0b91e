//! Lists the SQL migrations for `platform::db::migrations`, as sqlx's `migrate!` macro did.
//! That macro was sqlx's only macro the shop used, and its feature built sqlx's drivers a
//! second time for the build host (about 40 s of compile units in a fresh build, by
//! cargo's timings of session 56). The SQL stays in
//! `migrations/`, read with `include_str!`, so an edited file rebuilds the crate.
use std::path::Path;

fn main() {
    let mut code = String::new();
    for engine in ["sqlite", "postgres"] {
        let dir = Path::new("migrations").join(engine);
        // A directory's time changes when a file is added, removed or renamed.
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .filter_map(|entry| entry.ok())
            .filter(|entry| entry.path().is_file())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".sql"))
            .collect();
        files.sort();
        // sqlx refuses such a name at start-up; here it stops the build instead.
        for file in &files {
            let version = file.split_once('_').map(|(v, _)| v);
            if version.and_then(|v| v.parse::<i64>().ok()).is_none() {
                panic!(
                    "{}/{file}: a migration is named <version>_<description>.sql",
                    dir.display()
                );
            }
        }
        code.push_str(&format!(
            "/// `migrations/{engine}`: (file name, SQL), in file-name order.\n\
             pub const {}: &[(&str, &str)] = &[\n",
            engine.to_uppercase()
        ));
        for file in files {
            code.push_str(&format!(
                "    ({file:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/migrations/{engine}/{file}\"))),\n"
            ));
        }
        code.push_str("];\n");
    }
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("migrations.rs");
    std::fs::write(&out, code).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
