//! The browser scripts Vite builds from `frontend-react/src/pages` (docs/frontend.md):
//! content-hashed files under `/js/`, found through the build's manifest
//! (`<site root>/js/manifest.json`), which the server reads once at start.
use std::collections::HashMap;
use std::sync::OnceLock;

/// Entry name (`shell`) → address (`/js/shell-1a2b3c4d.js`), and the names of the built
/// files whose name changes with their content.
struct Manifest {
    entries: HashMap<String, String>,
    files: std::collections::HashSet<String>,
}

static MANIFEST: OnceLock<Manifest> = OnceLock::new();

/// Reads the manifest Vite wrote (`build.manifest`). Without one (a server started before
/// the scripts were built, or the Rust tests) the pages name `/js/<entry>.js`, which is not
/// there: `true` says the manifest was found.
pub fn load(site_root: &str) -> bool {
    let text = std::fs::read_to_string(format!("{site_root}/js/manifest.json")).unwrap_or_default();
    let manifest = parse(&text);
    let found = !manifest.files.is_empty();
    let _ = MANIFEST.set(manifest);
    found
}

fn parse(text: &str) -> Manifest {
    let mut entries = HashMap::new();
    let mut files = std::collections::HashSet::new();
    let json: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    for chunk in json.as_object().into_iter().flat_map(|o| o.values()) {
        let Some(file) = chunk.get("file").and_then(|f| f.as_str()) else {
            continue;
        };
        let name = chunk.get("name").and_then(|n| n.as_str());
        // A file named after its entry alone (the advertising scripts) keeps its address
        // from build to build: it is revalidated, not kept for good.
        if name.is_none_or(|n| file != format!("{n}.js")) {
            files.insert(file.to_string());
        }
        let is_entry = chunk.get("isEntry").and_then(|e| e.as_bool()) == Some(true);
        if let (true, Some(name)) = (is_entry, name) {
            entries.insert(name.to_string(), format!("/js/{file}"));
        }
    }
    Manifest { entries, files }
}

/// The address of a page module (`script("shell")`).
pub fn script(entry: &str) -> String {
    MANIFEST
        .get()
        .and_then(|m| m.entries.get(entry).cloned())
        .unwrap_or_else(|| format!("/js/{entry}.js"))
}

/// Whether `/js/<file>` is a built file (its name changes with its content: cached for good).
pub fn is_built(file: &str) -> bool {
    MANIFEST.get().is_some_and(|m| m.files.contains(file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_entries_and_chunks_of_a_vite_manifest() {
        let m = parse(
            r#"{
              "src/pages/shell.ts": {"file": "shell-AbC12345.js", "name": "shell", "src": "src/pages/shell.ts", "isEntry": true, "imports": ["_chunk-x.js"]},
              "_chunk-x.js": {"file": "chunk-lib-Zz9.js", "name": "lib"},
              "src/pages/ads.ts": {"file": "ads.js", "name": "ads", "isEntry": true}
            }"#,
        );
        assert_eq!(m.entries.get("ads").map(String::as_str), Some("/js/ads.js"));
        assert!(
            !m.files.contains("ads.js"),
            "a fixed name is not cached for good"
        );
        assert_eq!(
            m.entries.get("shell").map(String::as_str),
            Some("/js/shell-AbC12345.js")
        );
        assert!(!m.entries.contains_key("lib"));
        assert!(m.files.contains("chunk-lib-Zz9.js") && m.files.contains("shell-AbC12345.js"));
    }

    #[test]
    fn no_manifest_means_no_entries() {
        assert!(parse("").entries.is_empty());
        assert!(parse("[1,2]").files.is_empty());
    }
}
