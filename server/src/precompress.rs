//! gzip copies of the built browser files (WASM, JS, CSS), written next to them at start.
//!
//! Every visitor downloads the app's WASM (about 2 MB). Compressing it per request cost
//! the server tens of milliseconds of CPU each time; with a `.gz` beside the file, the
//! static file service sends that copy to clients that take gzip, at no cost.
use std::path::{Path, PathBuf};

/// Extensions worth compressing (text-like or WASM); images are compressed already.
const KINDS: [&str; 4] = ["wasm", "js", "css", "mjs"];

fn wanted(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| KINDS.contains(&e))
}

/// The files under `dirs` (not recursive) that lack an up-to-date `.gz` copy.
pub fn stale(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    dirs.iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && wanted(p))
        .filter(|p| {
            let gz = gz_path(p);
            match (modified(p), modified(&gz)) {
                (Some(src), Some(copy)) => copy < src,
                _ => true,
            }
        })
        .collect()
}

pub fn gz_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".gz");
    PathBuf::from(name)
}

/// Writes `path.gz` (best compression) through a temporary file, so a reader never sees
/// half a copy.
pub fn compress(path: &Path) -> std::io::Result<u64> {
    use std::io::Write;
    let data = std::fs::read(path)?;
    let gz = gz_path(path);
    let tmp = gz.with_extension("gz.tmp");
    let mut encoder =
        flate2::write::GzEncoder::new(std::fs::File::create(&tmp)?, flate2::Compression::best());
    encoder.write_all(&data)?;
    encoder.finish()?.sync_all()?;
    std::fs::rename(&tmp, &gz)?;
    Ok(std::fs::metadata(&gz)?.len())
}

/// Compresses what needs it, in the background; until a copy exists the response is
/// compressed on the fly as before. A read-only site folder only costs a warning.
pub fn spawn(dirs: Vec<PathBuf>) {
    // An outdated copy goes at once, before the first request: sent with a newer JS it
    // would break the app.
    let todo = stale(&dirs);
    for path in &todo {
        match std::fs::remove_file(gz_path(path)) {
            Ok(()) => tracing::info!(file = %path.display(), "outdated gzip copy removed"),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                tracing::warn!(file = %path.display(), error = %e, "cannot remove an outdated gzip copy")
            }
        }
    }
    tokio::task::spawn_blocking(move || {
        for path in todo {
            match compress(&path) {
                Ok(bytes) => tracing::info!(file = %path.display(), bytes, "gzip copy written"),
                Err(e) => {
                    tracing::warn!(file = %path.display(), error = %e, "cannot write a gzip copy")
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
        std::fs::write(&wasm, "(module)".repeat(1000)).unwrap();
        std::fs::write(dir.join("logo.png"), [0u8; 10]).unwrap();
        let dirs = vec![dir.clone(), dir.join("missing")];
        assert_eq!(stale(&dirs), vec![wasm.clone()], "images are left alone");
        let size = compress(&wasm).unwrap();
        assert!(size < 200, "{size} bytes");
        assert!(stale(&dirs).is_empty(), "an up-to-date copy is kept");
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(gz_path(&wasm)).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "(module)".repeat(1000));
        assert!(!dir.join("app.wasm.gz.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
