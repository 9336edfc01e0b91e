//! The module graph of `app/src` stays a tree: no two modules use each other (directly or
//! around a longer loop), and the shared leaves (`model`, `routes`, `ui`, `text`,
//! `platform`, `site`, `context`, `client`) use nothing but each other, never an area.
//! Read from the sources with the standard library only: every `crate::…` and `super::…`
//! path outside comments and test modules, resolved to the longest module that exists.
//! A module's use of its own ancestors (`super::*` in a submodule) is part of that module,
//! not an edge.
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

const LEAVES: [&str; 8] = [
    "model", "routes", "ui", "text", "platform", "site", "context", "client",
];

/// Module path (`cart::service::common`) → its source, test code and comments left out.
fn modules() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            if !name.ends_with(".rs") || name == "tests.rs" || name.ends_with("_tests.rs") {
                continue;
            }
            let rel = path.strip_prefix(&root).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                parts.pop();
            }
            out.insert(
                parts.join("::"),
                code_of(&fs::read_to_string(&path).unwrap()),
            );
        }
    }
    out
}

/// The source without its inline test module and without `//` comments.
fn code_of(src: &str) -> String {
    let src = match src.find("#[cfg(test)]\nmod tests") {
        Some(at) => &src[..at],
        None => src,
    };
    src.lines()
        .map(|line| match line.find("//") {
            // A `//` inside a string (an address) keeps its line.
            Some(at) if line[..at].matches('"').count() % 2 == 0 => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::a::b` / `super::super::c` path of a source, as written; a grouped
/// `use crate::{a::b, c::{d, e}}` gives each of its paths.
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = (bytes[i..].starts_with(b"crate::") || bytes[i..].starts_with(b"super::"))
            && (i == 0 || !ident(bytes[i - 1]));
        if !starts {
            i += 1;
            continue;
        }
        let j = use_tree(code, i, Vec::new(), &mut out);
        i = j.max(i + 1);
    }
    out
}

/// Reads the path (or group of paths) at `at` after `prefix` into `out`; answers where it
/// ends.
fn use_tree(code: &str, at: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let skip_space = |mut j: usize| {
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        j
    };
    let mut segs = prefix;
    let mut j = skip_space(at);
    loop {
        if j < bytes.len() && bytes[j] == b'{' {
            j += 1;
            loop {
                j = skip_space(j);
                if j >= bytes.len() || bytes[j] == b'}' {
                    return j + 1;
                }
                let end = use_tree(code, j, segs.clone(), out);
                j = skip_space(end.max(j + 1));
                if j < bytes.len() && bytes[j] == b',' {
                    j += 1;
                }
            }
        }
        let start = j;
        while j < bytes.len() && ident(bytes[j]) {
            j += 1;
        }
        if start == j {
            break;
        }
        segs.push(code[start..j].to_string());
        if bytes[j..].starts_with(b"::") {
            j += 2;
        } else {
            break;
        }
    }
    out.push(segs);
    j
}

/// What each module uses: the longest existing module each of its paths names.
fn edges(mods: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let resolve = |segs: &[String]| {
        (0..=segs.len())
            .rev()
            .map(|n| segs[..n].join("::"))
            .find(|m| mods.contains_key(m))
    };
    let mut out = BTreeMap::new();
    for (module, code) in mods {
        let here: Vec<String> = if module.is_empty() {
            Vec::new()
        } else {
            module.split("::").map(str::to_string).collect()
        };
        let mut deps = BTreeSet::new();
        for segs in paths(code) {
            let target = if segs[0] == "crate" {
                segs[1..].to_vec()
            } else {
                let ups = segs.iter().take_while(|s| *s == "super").count();
                let mut base = here[..here.len().saturating_sub(ups)].to_vec();
                base.extend(segs[ups..].iter().cloned());
                base
            };
            if let Some(t) = resolve(&target) {
                let ancestor = t.is_empty() || module.starts_with(&format!("{t}::"));
                if t != *module && !ancestor {
                    deps.insert(t);
                }
            }
        }
        out.insert(module.clone(), deps);
    }
    out
}

/// The strongly connected components with more than one module (Tarjan).
fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on.insert(v);
        for w in s.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(lw));
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in g.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v.as_str());
        }
    }
    s.out
}

fn top(module: &str) -> &str {
    module.split("::").next().unwrap_or("")
}

#[test]
fn the_module_graph_has_no_cycle() {
    let g = edges(&modules());
    assert!(g.len() > 300, "the sources were read ({} modules)", g.len());
    let found = cycles(&g);
    assert!(
        found.is_empty(),
        "modules that use each other (move what both need to a third module): {found:#?}"
    );
}

#[test]
fn the_shared_leaves_use_no_area() {
    let g = edges(&modules());
    let wrong: Vec<String> = g
        .iter()
        .filter(|(m, _)| LEAVES.contains(&top(m)))
        .flat_map(|(m, deps)| {
            deps.iter()
                .filter(|d| !LEAVES.contains(&top(d)))
                .map(move |d| format!("{m} -> {d}"))
        })
        .collect();
    assert!(wrong.is_empty(), "a leaf uses an area: {wrong:#?}");
}

/// The reader itself: a two-module loop and a leaf's use of an area are found.
#[test]
fn the_reader_finds_a_loop_and_a_leaf_using_an_area() {
    let mods: BTreeMap<String, String> = [
        ("cart", ""),
        (
            "cart::a",
            "use super::b::X; // crate::orders in a comment is no edge",
        ),
        ("cart::b", "use crate::cart::a::Y;"),
        ("model", ""),
        ("model::c", "fn f() { crate::cart::a::g() }"),
        ("orders", ""),
    ]
    .into_iter()
    .map(|(m, src)| (m.to_string(), code_of(src)))
    .collect();
    let g = edges(&mods);
    assert_eq!(
        cycles(&g),
        vec![vec!["cart::a".to_string(), "cart::b".to_string()]]
    );
    assert!(g["model::c"].contains("cart::a"));
    assert!(!g["cart::a"].contains("orders"));
}

/// Grouped imports name each of their modules, nested groups and `self` included.
#[test]
fn the_reader_follows_grouped_imports() {
    let mods: BTreeMap<String, String> = [
        ("cart", ""),
        ("cart::a", ""),
        ("orders", ""),
        ("orders::store", ""),
        ("help", ""),
        ("help::rules", ""),
        (
            "shell",
            "use crate::{cart::a::X, orders::{self, store::{Y, Z}},\n    help::rules as r};",
        ),
    ]
    .into_iter()
    .map(|(m, src)| (m.to_string(), code_of(src)))
    .collect();
    let g = edges(&mods);
    let expected: BTreeSet<String> = ["cart::a", "orders", "orders::store", "help::rules"]
        .into_iter()
        .map(str::to_string)
        .collect();
    assert_eq!(g["shell"], expected);
}
