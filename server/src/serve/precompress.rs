//! Compressed copies (gzip and brotli) of the built browser files (WASM, JS, CSS),
//! written next to them at start.
//!
//! Every visitor downloads the app's WASM (about 2 MB). Compressing it per request cost
//! the server about 110 ms of CPU each time; with `.gz` and `.br` beside the file, the
//! static file service sends the copy the client takes, at no cost. Brotli makes the
//! WASM a quarter smaller than gzip does.
use std::io::Write;
use std::path::{Path, PathBuf};

/// Extensions worth compressing (text-like or WASM); images are compressed already.
const KINDS: [&str; 4] = ["wasm", "js", "css", "mjs"];

/// The copies, in the order they are written (gzip is quick, brotli is slow).
const COPIES: [&str; 2] = ["gz", "br"];

fn wanted(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| KINDS.contains(&e))
}

pub fn copy_path(path: &Path, ext: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(ext);
    PathBuf::from(name)
}

/// The files under `dirs` (not recursive) that lack an up-to-date copy.
pub fn stale(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    dirs.iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && wanted(p))
        .filter(|p| {
            COPIES
                .iter()
                .any(|ext| match (modified(p), modified(&copy_path(p, ext))) {
                    (Some(src), Some(copy)) => copy < src,
                    _ => true,
                })
        })
        .collect()
}

/// Writes `path.<ext>` through a temporary file, so a reader never sees half a copy.
fn write_copy(path: &Path, ext: &str, data: &[u8]) -> std::io::Result<u64> {
    let target = copy_path(path, ext);
    let tmp = copy_path(path, &format!("{ext}.tmp"));
    let file = std::fs::File::create(&tmp)?;
    let file = match ext {
        "gz" => {
            let mut e = flate2::write::GzEncoder::new(file, flate2::Compression::best());
            e.write_all(data)?;
            e.finish()?
        }
        _ => {
            // The best quality takes seconds on a release WASM (2 MB) but over a minute
            // of a core on a debug one (18 MB), which only tests and development serve.
            let params = brotli::enc::BrotliEncoderParams {
                quality: if data.len() <= 4 << 20 { 11 } else { 5 },
                lgwin: 22,
                ..Default::default()
            };
            let mut reader = data;
            let mut out = std::io::BufWriter::new(file);
            brotli::BrotliCompress(&mut reader, &mut out, &params)?;
            out.into_inner().map_err(|e| e.into_error())?
        }
    };
    file.sync_all()?;
    std::fs::rename(&tmp, &target)?;
    Ok(std::fs::metadata(&target)?.len())
}

/// Writes every copy of `path`; the sizes in the order of [`COPIES`].
pub fn compress(path: &Path) -> std::io::Result<Vec<u64>> {
    let data = std::fs::read(path)?;
    COPIES
        .iter()
        .map(|ext| write_copy(path, ext, &data))
        .collect()
}

/// Compresses what needs it, in the background; until a copy exists the response is
/// compressed on the fly as before. A read-only site folder only costs a warning.
pub fn spawn(dirs: Vec<PathBuf>) {
    // Outdated copies go at once, before the first request: sent with a newer JS they
    // would break the app.
    let outdated = stale(&dirs);
    for path in &outdated {
        for ext in COPIES {
            match std::fs::remove_file(copy_path(path, ext)) {
                Ok(()) => tracing::info!(file = %path.display(), ext, "outdated copy removed"),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    tracing::warn!(file = %path.display(), ext, error = %e, "cannot remove an outdated copy")
                }
            }
        }
    }
    tokio::task::spawn_blocking(move || {
        for path in outdated {
            match compress(&path) {
                Ok(sizes) => {
                    tracing::info!(file = %path.display(), ?sizes, "compressed copies written")
                }
                Err(e) => {
                    tracing::warn!(file = %path.display(), error = %e, "cannot write compressed copies")
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn copies_are_written_once_and_decode_to_the_file() {
        let dir = std::env::temp_dir().join(format!("rosace-gz-{:x}", rand::random::<u64>()));
        std::fs::create_dir_all(&dir).unwrap();
        let wasm = dir.join("app.wasm");
        let text = "(module)".repeat(1000);
        std::fs::write(&wasm, &text).unwrap();
        std::fs::write(dir.join("logo.png"), [0u8; 10]).unwrap();
        let dirs = vec![dir.clone(), dir.join("missing")];
        assert_eq!(stale(&dirs), vec![wasm.clone()], "images are left alone");
        let sizes = compress(&wasm).unwrap();
        assert!(sizes.iter().all(|&s| s < 200), "{sizes:?}");
        assert!(stale(&dirs).is_empty(), "up-to-date copies are kept");
        let mut unzipped = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(copy_path(&wasm, "gz")).unwrap())
            .read_to_string(&mut unzipped)
            .unwrap();
        assert_eq!(unzipped, text);
        let mut unbrotlied = String::new();
        brotli::Decompressor::new(std::fs::File::open(copy_path(&wasm, "br")).unwrap(), 4096)
            .read_to_string(&mut unbrotlied)
            .unwrap();
        assert_eq!(unbrotlied, text);
        assert!(!dir.join("app.wasm.gz.tmp").exists() && !dir.join("app.wasm.br.tmp").exists());
        // One copy missing is enough to do the file again.
        std::fs::remove_file(copy_path(&wasm, "br")).unwrap();
        assert_eq!(stale(&dirs), vec![wasm.clone()]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
