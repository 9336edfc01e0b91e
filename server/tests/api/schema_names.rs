//! utoipa names a schema after its type's last path segment and keeps the last one it meets,
//! so two wire types with one name make one of them describe the other's responses (the
//! enter-operation call once claimed to answer a content landing). Every `ToSchema` type
//! must have a name of its own.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read source dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The schema names a file declares: the type after each `ToSchema` derive, or its
/// `#[schema(as = …)]` rename.
fn schema_names(source: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut pending = false;
    let mut renamed: Option<String> = None;
    for line in source.lines().map(str::trim) {
        if line.starts_with("#[") && line.contains("ToSchema") {
            pending = true;
        }
        if pending {
            if let Some(rest) = line.strip_prefix("#[schema(as = ") {
                renamed = rest.split([')', ',']).next().map(|s| s.trim().to_string());
            }
            let decl = line.strip_prefix("pub ").unwrap_or(line);
            let name = decl
                .strip_prefix("struct ")
                .or_else(|| decl.strip_prefix("enum "))
                .map(|r| {
                    r.split(|c: char| !c.is_alphanumeric() && c != '_')
                        .next()
                        .unwrap_or("")
                });
            if let Some(name) = name {
                names.push(renamed.take().unwrap_or_else(|| name.to_string()));
                pending = false;
            }
        }
    }
    names
}

#[test]
fn every_wire_type_has_a_schema_name_of_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("../app/src"), &mut files);
    let mut seen: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for file in files {
        let source = std::fs::read_to_string(&file).expect("read source");
        for name in schema_names(&source) {
            seen.entry(name).or_default().push(file.clone());
        }
    }
    assert!(
        seen.len() > 100,
        "the scan found only {} schemas",
        seen.len()
    );
    let clashes: Vec<_> = seen.iter().filter(|(_, files)| files.len() > 1).collect();
    assert!(
        clashes.is_empty(),
        "schema names declared twice: {clashes:#?}"
    );
}

#[test]
fn the_scan_reads_derives_and_renames() {
    let src = "#[derive(Serialize, utoipa::ToSchema)]\npub struct Landing {\n}\n\
               #[cfg_attr(feature = \"ssr\", derive(utoipa::ToSchema))]\n#[schema(as = Other)]\npub enum Kind { A }\n\
               #[derive(Debug)]\nstruct Plain;\n";
    assert_eq!(
        schema_names(src),
        vec!["Landing".to_string(), "Other".to_string()]
    );
}
