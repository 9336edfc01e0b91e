//! The browser scripts Vite builds from `frontend-react` (docs/frontend.md): the page
//! modules under `/js/` and the React widgets and diagnostics bundle under `/widgets/`, all
//! content-hashed and found through the builds' manifests (`<site root>/js/manifest.json`,
//! `<site root>/widgets/manifest.json`, `<site root>/widgets/diagnostics.manifest.json`),
//! which the server reads once at start.
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// The folders Vite writes to, each with its manifests.
pub const FOLDERS: [(&str, &[&str]); 2] = [
    ("js", &["manifest.json"]),
    ("widgets", &["manifest.json", "diagnostics.manifest.json"]),
];

/// `folder/entry` (`js/shell`) → address (`/js/shell-1a2b3c4d.js`), and the addresses of
/// the built files whose name changes with their content.
#[derive(Default)]
struct Manifest {
    entries: HashMap<String, String>,
    files: HashSet<String>,
}

static MANIFEST: OnceLock<Manifest> = OnceLock::new();

/// Reads the manifests Vite wrote (`build.manifest`). Without them (a server started before
/// the scripts were built, or the Rust tests) the pages name `/js/<entry>.js` and
/// `/widgets/<entry>.js`, which are not there: `true` says the page modules' was found.
pub fn load(site_root: &str) -> bool {
    let mut manifest = Manifest::default();
    for (folder, names) in FOLDERS {
        for name in names {
            let text =
                std::fs::read_to_string(format!("{site_root}/{folder}/{name}")).unwrap_or_default();
            parse(&text, folder, &mut manifest);
        }
    }
    let found = manifest.entries.keys().any(|k| k.starts_with("js/"));
    let _ = MANIFEST.set(manifest);
    found
}

fn parse(text: &str, folder: &str, into: &mut Manifest) {
    let json: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    for chunk in json.as_object().into_iter().flat_map(|o| o.values()) {
        let Some(file) = chunk.get("file").and_then(|f| f.as_str()) else {
            continue;
        };
        let name = chunk.get("name").and_then(|n| n.as_str());
        let address = format!("/{folder}/{file}");
        // A file named after its entry alone (the advertising scripts) keeps its address
        // from build to build: it is revalidated, not kept for good.
        if name.is_none_or(|n| file != format!("{n}.js")) {
            into.files.insert(address.clone());
        }
        let is_entry = chunk.get("isEntry").and_then(|e| e.as_bool()) == Some(true);
        if let (true, Some(name)) = (is_entry, name) {
            into.entries.insert(format!("{folder}/{name}"), address);
        }
    }
}

fn address(folder: &str, entry: &str) -> String {
    MANIFEST
        .get()
        .and_then(|m| m.entries.get(&format!("{folder}/{entry}")).cloned())
        .unwrap_or_else(|| format!("/{folder}/{entry}.js"))
}

/// The address of a page module (`script("shell")`).
pub fn script(entry: &str) -> String {
    address("js", entry)
}

/// The address of a React widget or the diagnostics bundle (`widget("travel-map")`).
pub fn widget(entry: &str) -> String {
    address("widgets", entry)
}

/// Whether the file at `address` (`/js/shell-1a2b3c4d.js`) is a built file whose name
/// changes with its content: cached for good.
pub fn is_built(address: &str) -> bool {
    MANIFEST.get().is_some_and(|m| m.files.contains(address))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str, folder: &str) -> Manifest {
        let mut m = Manifest::default();
        parse(text, folder, &mut m);
        m
    }

    #[test]
    fn reads_entries_and_chunks_of_a_vite_manifest() {
        let m = parsed(
            r#"{
              "src/pages/shell.ts": {"file": "shell-AbC12345.js", "name": "shell", "src": "src/pages/shell.ts", "isEntry": true, "imports": ["_chunk-x.js"]},
              "_chunk-x.js": {"file": "chunk-lib-Zz9.js", "name": "lib"},
              "src/pages/ads.ts": {"file": "ads.js", "name": "ads", "isEntry": true}
            }"#,
            "js",
        );
        assert_eq!(
            m.entries.get("js/ads").map(String::as_str),
            Some("/js/ads.js")
        );
        assert!(
            !m.files.contains("/js/ads.js"),
            "a fixed name is not cached for good"
        );
        assert_eq!(
            m.entries.get("js/shell").map(String::as_str),
            Some("/js/shell-AbC12345.js")
        );
        assert!(!m.entries.contains_key("js/lib"));
        assert!(
            m.files.contains("/js/chunk-lib-Zz9.js") && m.files.contains("/js/shell-AbC12345.js")
        );
    }

    #[test]
    fn widgets_have_their_own_folder() {
        let m = parsed(
            r#"{"src/travel-map/index.tsx": {"file": "travel-map-Q1w2E3.js", "name": "travel-map", "isEntry": true}}"#,
            "widgets",
        );
        assert_eq!(
            m.entries.get("widgets/travel-map").map(String::as_str),
            Some("/widgets/travel-map-Q1w2E3.js")
        );
        assert!(m.files.contains("/widgets/travel-map-Q1w2E3.js"));
        assert!(!m.entries.contains_key("js/travel-map"));
    }

    #[test]
    fn no_manifest_means_no_entries() {
        assert!(parsed("", "js").entries.is_empty());
        assert!(parsed("[1,2]", "js").files.is_empty());
    }
}
