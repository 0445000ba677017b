//! The README's main command works and prints the answers geometry predicts.

use std::process::Command;

#[test]
fn query_tour_runs_and_prints_the_expected_answers() {
    let out = Command::new(env!("CARGO_BIN_EXE_widephase")).output().expect("the binary runs");
    assert!(out.status.success(), "exit status {:?}, stderr: {}", out.status, String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf-8 output");
    // Each section states its expectation; spot-check the computed values.
    for needle in [
        "cube vs ball 1.5 apart",
        "distance: 1.500000",
        "depth 0.250000",
        "distance: 0.585786",
        "depth 0.200000",
        "distance: 0.750000",
        "depth 2.000000",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
}
