//! The README's main command works: the simulation checks itself, and the query
//! tour prints the answers geometry predicts.

use std::process::Command;

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_widephase"))
        .args(args)
        .output()
        .expect("the binary runs");
    let text = String::from_utf8(out.stdout).expect("utf-8 output");
    assert!(
        out.status.success(),
        "exit status {:?}\nstdout:\n{text}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn simulation_passes_its_own_checks() {
    let text = run(&["--bodies", "3000", "--steps", "15", "--seed", "7"]);
    assert!(
        text.contains("check: broadphase pair set equals the sweep"),
        "{text}"
    );
    assert!(
        text.contains("pairs re-run with the scalar reference agree"),
        "{text}"
    );
}

#[test]
fn results_do_not_depend_on_the_thread_count_or_pinning() {
    let strip = |t: String| {
        t.lines()
            .filter(|l| l.starts_with("step"))
            .map(|l| l.split(';').next().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    // A small scene, with the given threading options.
    let small = |threading: &[&str]| {
        let args = [&["--bodies", "2000", "--steps", "10"][..], threading].concat();
        strip(run(&args))
    };
    let one = small(&["--threads", "1"]);
    let two = small(&["--threads", "2"]);
    // Pinning the workers to CPUs (the default) or not moves the work, not the
    // answers.
    let unpinned = small(&["--threads", "2", "--no-pin"]);
    assert!(!one.is_empty());
    assert_eq!(one, two);
    assert_eq!(two, unpinned);
}

#[test]
fn bad_arguments_are_reported() {
    let out = Command::new(env!("CARGO_BIN_EXE_widephase"))
        .args(["--bodies", "many"])
        .output()
        .expect("the binary runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value"));
}

#[test]
fn query_tour_prints_the_expected_answers() {
    let text = run(&["--tour"]);
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

/// Piped into a reader that stops early (`| head`), the job stops quietly: no
/// panic on the closed output, a success status.
#[test]
fn a_closed_output_ends_the_run_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_widephase"))
        .args(["--bodies", "2000", "--steps", "400"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdout = child.stdout.take().expect("a piped output");
    let mut first = [0u8; 10];
    stdout.read_exact(&mut first).expect("the first line");
    drop(stdout);
    let out = child.wait_with_output().expect("the binary ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "status {:?}, stderr: {stderr}",
        out.status
    );
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
}
