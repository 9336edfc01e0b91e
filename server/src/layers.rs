//! The server's layers depend one way: `rest` (the REST calls) and `forms` (the browser
//! forms) both build on `web` (errors, extractors, sessions, multipart, social sign-in),
//! never on each other, and `web` on neither. A test, standard library only, so a new
//! import across them fails here rather than in a review. The back office builds on the
//! areas and on `web`, and neither `rest` nor `forms` reaches into it (its pages and
//! sessions are its own). The audit log is append-only: no code updates or deletes it.

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// Every `use` or path in code (comments aside) of `layer` that names `forbidden`.
    fn crossings(layer: &str, forbidden: &[&str]) -> Vec<String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src")
            .join(layer);
        let mut files = vec![];
        sources(&root, &mut files);
        let mut found = vec![];
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for f in forbidden {
                    if code.contains(&format!("crate::{f}::"))
                        || code.contains(&format!("crate::{f};"))
                    {
                        found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                    }
                }
            }
        }
        found
    }

    #[test]
    fn forms_and_rest_build_on_web_and_never_on_each_other() {
        assert_eq!(crossings("forms", &["rest"]), Vec::<String>::new());
        assert_eq!(crossings("rest", &["forms"]), Vec::<String>::new());
        assert_eq!(crossings("web", &["rest", "forms"]), Vec::<String>::new());
        assert_eq!(crossings("rest", &["backoffice"]), Vec::<String>::new());
        assert_eq!(crossings("forms", &["backoffice"]), Vec::<String>::new());
        assert_eq!(
            crossings("backoffice", &["rest", "forms"]),
            Vec::<String>::new()
        );
    }

    #[test]
    fn no_code_updates_or_deletes_the_audit_log() {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = vec![];
        sources(&manifest.join("src"), &mut files);
        sources(&manifest.join("../app/src"), &mut files);
        let mut found = vec![];
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap().to_uppercase();
            let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
            for forbidden in [
                "UPDATE AUDIT_LOG",
                "DELETE FROM AUDIT_LOG",
                "DROP TABLE AUDIT_LOG",
            ] {
                // This test names them itself.
                if flat.contains(forbidden) && !file.ends_with("layers.rs") {
                    found.push(format!("{}: {forbidden}", file.display()));
                }
            }
        }
        assert_eq!(found, Vec::<String>::new());
    }
}
