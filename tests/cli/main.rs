//! The `widephase` program, run as a user runs it: each subcommand on small inputs,
//! its JSON parsed and checked for the documented fields, its charts parsed as
//! XML, its files replayed; and every bad argument answered with a message and
//! exit status 2, never a panic.

mod bad_arguments;
mod bench;
mod diff;
mod run;

use std::path::PathBuf;

use assert_cmd::Command;

/// The built program.
pub fn widephase() -> Command {
    Command::new(env!("CARGO_BIN_EXE_widephase"))
}

/// A fresh folder for one test's files.
pub fn scratch(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Runs the program with `args`; returns its status code, stdout and stderr.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = widephase().args(args).output().expect("the program runs");
    let code = out.status.code().expect("an exit code, not a signal");
    let stdout = String::from_utf8(out.stdout).expect("utf-8 output");
    let stderr = String::from_utf8(out.stderr).expect("utf-8 errors");
    assert!(!stderr.contains("panicked"), "{args:?} panicked:\n{stderr}");
    (code, stdout, stderr)
}

/// Runs the program, expecting success, and parses its standard output as JSON.
pub fn json(args: &[&str]) -> serde_json::Value {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 0, "{args:?}: stdout\n{stdout}\nstderr\n{stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}):\n{stdout}"))
}

/// Asserts that `value` has every field of `fields` (dotted paths).
pub fn assert_fields(value: &serde_json::Value, fields: &[&str]) {
    for field in fields {
        let mut v = value;
        for part in field.split('.') {
            v = v
                .get(part)
                .unwrap_or_else(|| panic!("missing field {field:?} in {value:#}"));
        }
    }
}

/// Asserts that the file at `path` is a well-formed SVG document.
pub fn assert_svg(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).expect("the chart was written");
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("{} is not well-formed XML: {e}", path.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert!(
        doc.descendants().count() > 20,
        "an almost empty chart: {text}"
    );
}
