//! Writes a SCORM package's `imsmanifest.xml` to stdout, from the course in
//! `content/` and the files of a built site:
//!
//! ```sh
//! cargo run -q -p ttft-core --example scorm_manifest -- 12 dist 0.1.0 > manifest.xml
//! ```
//!
//! `scripts/release` runs it once per standard (`12`, `2004`) and
//! `scripts/scorm-package.mjs` zips the result with `dist/`'s files. Why an
//! example of the core rather than a step of the app's build: the manifest
//! is written by `ttft_core::lms::manifest` from the same content the app
//! embeds (read here exactly as `build.rs` reads it) and the same part
//! list, and an example is native, needs no browser crate, and uses the
//! core's TOML reader, which the library itself does not depend on. The
//! library stays free of I/O; this file does the reading.
//!
//! Files listed: everything under the directory but the precompressed
//! copies (`*.gz`, `*.br`, which a learning system would serve as is) and
//! a manifest already there.

use std::path::{Path, PathBuf};
use ttft_core::content::Lesson;
use ttft_core::lms::cmi::Standard;
use ttft_core::lms::manifest::{manifest, Package, ENTRY};

fn content<T: serde::de::DeserializeOwned>(dir: &Path, name: &str) -> Result<T, String> {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn files_under(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            files_under(root, &path, out)?;
            continue;
        }
        let rel = path
            .strip_prefix(root)
            .map_err(|e| e.to_string())?
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let skipped = rel.ends_with(".gz") || rel.ends_with(".br") || rel == "imsmanifest.xml";
        if !skipped {
            out.push(rel);
        }
    }
    Ok(())
}

fn run() -> Result<String, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [standard, dir, version] = args.as_slice() else {
        return Err("usage: scorm_manifest <12|2004> <site directory> <version>".into());
    };
    let standard = match standard.as_str() {
        "12" => Standard::Scorm12,
        "2004" => Standard::Scorm2004,
        other => return Err(format!("unknown standard {other:?}: use 12 or 2004")),
    };
    let content_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../content");
    let lesson: Lesson = content(&content_dir, "lesson.toml")?;
    let root = PathBuf::from(dir);
    let mut files = Vec::new();
    files_under(&root, &root, &mut files)?;
    files.sort();
    if !files.iter().any(|f| f == ENTRY) {
        return Err(format!("{dir} has no {ENTRY}: run the release build first"));
    }
    Ok(manifest(standard, &lesson, &Package { version, files: &files }))
}

fn main() {
    match run() {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("scorm_manifest: {e}");
            std::process::exit(1);
        }
    }
}
