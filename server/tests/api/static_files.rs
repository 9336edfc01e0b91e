//! The browser's built files (WASM, JS) go out as brotli or gzip copies written once at
//! start, not compressed again for each visitor.
use std::io::Read;

use leptos::prelude::LeptosOptions;

use crate::helpers;

/// A shop on a fresh SQLite database in `dir`, serving the built files of `site`; its base
/// address.
async fn shop_on(
    dir: &std::path::Path,
    site: &std::path::Path,
    env: leptos::config::Env,
) -> String {
    let options = LeptosOptions::builder()
        .output_name("rosace")
        .site_root(site.display().to_string())
        .site_pkg_dir("pkg")
        .env(env)
        .build();
    shop_with(dir, options).await
}

/// A shop on a fresh SQLite database in `dir` with these Leptos options; its base address.
/// The database is a copy of the seeded template, as other tests' shops are: seeding anew
/// took a debug build about ten seconds of CPU per shop.
async fn shop_with(dir: &std::path::Path, options: LeptosOptions) -> String {
    let config = helpers::test_config(
        helpers::seeded_sqlite(dir).await,
        &dir.display().to_string(),
    );
    let app = server::prepare(config).await.unwrap();
    helpers::serve(server::router(app, options)).await
}

/// How many 100 ms ticks the test waits at most for the compressed copies.
const COPY_WAIT_TICKS: u32 = 900;

#[tokio::test]
async fn built_files_are_sent_from_their_compressed_copies_in_production() {
    let dir = std::env::temp_dir().join(format!("rosace-static-{:x}", rand::random::<u64>()));
    let site = dir.join("site");
    std::fs::create_dir_all(site.join("pkg")).unwrap();
    std::fs::create_dir_all(site.join("widgets")).unwrap();
    let wasm: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(site.join("pkg/rosace.wasm"), &wasm).unwrap();
    std::fs::write(
        site.join("widgets/form.js"),
        "export const x = 1;\n".repeat(500),
    )
    .unwrap();

    let base = shop_on(&dir, &site, leptos::config::Env::PROD).await;

    // The copies are written in the background at start (brotli's best quality: seconds in
    // a debug build, more while other tests load the cores; the bound is generous).
    let copy = site.join("pkg/rosace.wasm.gz");
    let dirs = vec![site.join("pkg"), site.join("widgets")];
    for _ in 0..COPY_WAIT_TICKS {
        if server::serve::precompress::stale(&dirs).is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(copy.exists(), "gzip copy of the WASM written");
    let on_disk = std::fs::read(&copy).unwrap();

    let client = reqwest::Client::new();
    let res = client
        .get(format!("{base}/pkg/rosace.wasm"))
        .header("accept-encoding", "gzip, deflate")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-encoding"], "gzip");
    assert_eq!(res.headers()["content-type"], "application/wasm");
    let body = res.bytes().await.unwrap();
    assert_eq!(
        &body[..],
        &on_disk[..],
        "the copy itself, not a new compression"
    );
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(&body[..])
        .read_to_end(&mut unpacked)
        .unwrap();
    assert_eq!(unpacked, wasm);

    // A browser that takes brotli gets the brotli copy.
    let res = client
        .get(format!("{base}/pkg/rosace.wasm"))
        .header("accept-encoding", "gzip, deflate, br, zstd")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-encoding"], "br");
    let body = res.bytes().await.unwrap();
    assert_eq!(
        &body[..],
        &std::fs::read(site.join("pkg/rosace.wasm.br")).unwrap()[..]
    );
    let mut unpacked = Vec::new();
    brotli::Decompressor::new(&body[..], 4096)
        .read_to_end(&mut unpacked)
        .unwrap();
    assert_eq!(unpacked, wasm);

    // A client without gzip gets the file as it is.
    let res = client
        .get(format!("{base}/pkg/rosace.wasm"))
        .send()
        .await
        .unwrap();
    assert!(res.headers().get("content-encoding").is_none());
    assert_eq!(&res.bytes().await.unwrap()[..], &wasm[..]);
    let res = client
        .get(format!("{base}/widgets/form.js"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-encoding"], "gzip");

    // A new build replaces the WASM: its outdated copy is never sent, and a fresh one
    // is written at the next start.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let rebuilt: Vec<u8> = wasm.iter().rev().copied().collect();
    std::fs::write(site.join("pkg/rosace.wasm"), &rebuilt).unwrap();
    let dirs = vec![site.join("pkg"), site.join("widgets")];
    assert_eq!(
        server::serve::precompress::stale(&dirs),
        vec![site.join("pkg/rosace.wasm")]
    );
    server::serve::precompress::spawn(dirs.clone());
    // Every copy still there is a new one: the background writing may already have put
    // one back (gz first, br after), never the outdated one.
    let source = std::fs::metadata(site.join("pkg/rosace.wasm"))
        .and_then(|m| m.modified())
        .unwrap();
    for ext in ["gz", "br"] {
        if let Ok(kept) = std::fs::metadata(site.join(format!("pkg/rosace.wasm.{ext}"))) {
            assert!(
                kept.modified().unwrap() >= source,
                "no outdated {ext} copy left"
            );
        }
    }
    for _ in 0..COPY_WAIT_TICKS {
        if server::serve::precompress::stale(&dirs).is_empty() && copy.exists() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&copy).unwrap())
        .read_to_end(&mut unpacked)
        .unwrap();
    assert_eq!(unpacked, rebuilt);
    std::fs::remove_dir_all(&dir).ok();
}

/// Built files with content-hashed names are kept a year by browsers; without hashing they
/// are revalidated; pages are never stored as they are.
#[tokio::test]
async fn hashed_built_files_are_immutable_and_pages_are_not() {
    for (hashed, expected) in [
        (true, "public, max-age=31536000, immutable"),
        (false, "no-cache"),
    ] {
        let dir = std::env::temp_dir().join(format!("rosace-cache-{:x}", rand::random::<u64>()));
        let site = dir.join("site");
        std::fs::create_dir_all(site.join("pkg")).unwrap();
        std::fs::write(site.join("pkg/rosace.AbCd.js"), "export {};").unwrap();
        // What cargo-leptos writes beside the binary; the pages read their files' names there.
        let hash_file = dir.join("hash.txt");
        std::fs::write(&hash_file, "js: AbCd\nwasm: AbCd\ncss: AbCd\n").unwrap();
        let options = LeptosOptions::builder()
            .output_name("rosace")
            .site_root(site.display().to_string())
            .site_pkg_dir("pkg")
            .hash_files(hashed)
            .hash_file(std::sync::Arc::<str>::from(hash_file.display().to_string()))
            .build();
        let base = shop_with(&dir, options).await;
        let client = reqwest::Client::new();
        let file = client
            .get(format!("{base}/pkg/rosace.AbCd.js"))
            .send()
            .await
            .unwrap();
        assert_eq!(file.status(), 200);
        assert_eq!(
            file.headers()["cache-control"],
            expected,
            "hashed: {hashed}"
        );
        let page = client
            .get(format!("{base}/gr/aboutus"))
            .send()
            .await
            .unwrap();
        assert_eq!(page.headers()["cache-control"], "private, no-cache");
        let html = page.text().await.unwrap();
        let js = if hashed {
            "/pkg/rosace.AbCd.js"
        } else {
            "/pkg/rosace.js"
        };
        assert!(html.contains(js), "the page names {js}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The scripts Vite builds (page modules in `/js`, widgets and the diagnostics bundle in
/// `/widgets`) are named through their manifests: a hashed file is kept a year, a
/// fixed name (the advertising loader) or a file no manifest names is revalidated, and a
/// page names the hashed file.
#[tokio::test]
async fn vite_built_scripts_are_named_by_their_manifests_and_kept_for_good() {
    let dir = std::env::temp_dir().join(format!("rosace-vite-{:x}", rand::random::<u64>()));
    let site = dir.join("site");
    for folder in ["pkg", "js", "widgets"] {
        std::fs::create_dir_all(site.join(folder)).unwrap();
    }
    let files = [
        "js/api-docs-Ab12.js",
        "js/ads.js",
        "widgets/travel-map-Cd34.js",
        "widgets/chunk-react-Ef56.js",
        "widgets/diagnostics-Gh78.js",
        "widgets/old.js",
    ];
    for file in files {
        std::fs::write(site.join(file), "export {};").unwrap();
    }
    std::fs::write(
        site.join("js/manifest.json"),
        r#"{"src/pages/api-docs.ts": {"file": "api-docs-Ab12.js", "name": "api-docs", "isEntry": true},
            "src/pages/ads.ts": {"file": "ads.js", "name": "ads", "isEntry": true}}"#,
    )
    .unwrap();
    std::fs::write(
        site.join("widgets/manifest.json"),
        r#"{"src/travel-map/index.tsx": {"file": "travel-map-Cd34.js", "name": "travel-map", "isEntry": true},
            "_chunk-react-Ef56.js": {"file": "chunk-react-Ef56.js", "name": "react"}}"#,
    )
    .unwrap();
    std::fs::write(
        site.join("widgets/diagnostics.manifest.json"),
        r#"{"src/diagnostics/index.ts": {"file": "diagnostics-Gh78.js", "name": "diagnostics", "isEntry": true}}"#,
    )
    .unwrap();
    let base = shop_on(&dir, &site, leptos::config::Env::DEV).await;
    let client = reqwest::Client::new();
    for (file, expected) in [
        ("js/api-docs-Ab12.js", "public, max-age=31536000, immutable"),
        ("js/ads.js", "no-cache"),
        (
            "widgets/travel-map-Cd34.js",
            "public, max-age=31536000, immutable",
        ),
        (
            "widgets/chunk-react-Ef56.js",
            "public, max-age=31536000, immutable",
        ),
        (
            "widgets/diagnostics-Gh78.js",
            "public, max-age=31536000, immutable",
        ),
        ("widgets/old.js", "no-cache"),
    ] {
        let res = client.get(format!("{base}/{file}")).send().await.unwrap();
        assert_eq!(res.status(), 200, "{file}");
        assert_eq!(res.headers()["cache-control"], expected, "{file}");
    }
    assert_eq!(
        app::ui::assets::widget("travel-map"),
        "/widgets/travel-map-Cd34.js"
    );
    assert_eq!(
        app::ui::assets::widget("diagnostics"),
        "/widgets/diagnostics-Gh78.js"
    );
    let docs = client
        .get(format!("{base}/api/docs"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        docs.contains("<script type=\"module\" src=\"/js/api-docs-Ab12.js\">"),
        "{docs}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
