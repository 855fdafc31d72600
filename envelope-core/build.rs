//! Lists the integration modules for `src/integrations/mod.rs`: every
//! `NAME.rs` and every `NAME/mod.rs` in `src/integrations/` is the module
//! of feature `NAME`, so adding an integration is its file and its feature
//! line, with no list to keep in step. A folder without a `mod.rs`
//! (`reqwest/`, `sqlx/`) holds a body two modules include, not a module.
//!
//! Writes `$OUT_DIR/integrations.rs`: one `integrations!` invocation with a
//! `"feature" name "absolute path";` line per module, sorted by name. The
//! paths are absolute because a `mod` declared in an included file would
//! otherwise be looked up beside the included file, in `OUT_DIR`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    println!("cargo::rerun-if-changed=src/integrations");
    let manifest = env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let dir = Path::new(&manifest).join("src").join("integrations");

    let mut modules: Vec<(String, PathBuf)> = Vec::new();
    let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("an entry of src/integrations").path();
        let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let file = if path.is_dir() {
            path.join("mod.rs")
        } else if path.extension().is_some_and(|e| e == "rs") && name != "mod" {
            path.clone()
        } else {
            continue;
        };
        if file.is_file() {
            modules.push((name.to_owned(), file));
        }
    }
    modules.sort();

    let mut code = String::from("integrations! {\n");
    for (name, file) in &modules {
        let file = file
            .to_str()
            .expect("a UTF-8 path to the integration's file");
        // `{:?}` of a `str` is a Rust string literal, escapes included.
        writeln!(code, "    {name:?} {name} {file:?};").expect("writing to a String");
    }
    code.push_str("}\n");
    let target = Path::new(&out).join("integrations.rs");
    fs::write(&target, code).unwrap_or_else(|e| panic!("writing {}: {e}", target.display()));
}
