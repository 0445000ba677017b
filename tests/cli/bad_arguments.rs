//! Every bad argument is answered with a message naming it (and its limit where it
//! has one) and exit status 2; none panics, aborts or runs for minutes.

use crate::run;

/// Runs `args`, expecting status 2 and `needle` in the message.
fn refused(args: &[&str], needle: &str) {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 2, "{args:?}: stdout\n{stdout}\nstderr\n{stderr}");
    assert!(
        stderr.contains(needle),
        "{args:?}: {needle:?} not in\n{stderr}"
    );
}

#[test]
fn body_counts() {
    refused(&["--bodies", "-5"], "cannot be negative");
    refused(&["run", "--bodies", "-5"], "cannot be negative");
    refused(&["--bodies", "4294967296"], "at most 5000000 bodies");
    refused(
        &["--bodies", "18446744073709551615"],
        "at most 5000000 bodies",
    );
    refused(&["--bodies", "50000000"], "at most 5000000 bodies");
    refused(
        &["--bodies", "99999999999999999999999999"],
        "at most 5000000 bodies",
    );
    refused(&["--bodies", "many"], "expected a whole number");
    refused(&["--bodies", "1.5"], "expected a whole number");
}

#[test]
fn steps_threads_and_checks() {
    refused(&["--steps", "-1"], "cannot be negative");
    refused(&["--steps", "2000000"], "at most 1000000 steps");
    refused(&["--verify", "-3"], "cannot be negative");
    refused(&["--seed", "-1"], "--seed");
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let too_many = (4 * cpus + 1).to_string();
    refused(&["--threads", &too_many], "more threads than CPUs");
    refused(&["--threads", "1000000"], "at most 65536 threads");
}

#[test]
fn shapes_and_scene_files() {
    refused(&["--shapes", "teapot"], "unknown shape kind \"teapot\"");
    refused(
        &["run", "--scene", "/nonexistent/scene.json"],
        "cannot read /nonexistent/scene.json",
    );
    refused(
        &["run", "--scene", "s.json", "--bodies", "10"],
        "cannot be used with",
    );
    let dir = crate::scratch("bad_scene");
    let scene = dir.join("scene.json");
    std::fs::write(
        &scene,
        r#"{"bodies": [{"shape": {"kind": "sphere", "radius": -1}}]}"#,
    )
    .unwrap();
    refused(
        &["run", "--scene", scene.to_str().unwrap()],
        "Sphere: `radius` must be > 0",
    );
    std::fs::write(
        &scene,
        r#"{"bodies": [{"shape": {"kind": "sphere", "radius": 1}, "velocity": [1e39, 0, 0]}]}"#,
    )
    .unwrap();
    refused(
        &["run", "--scene", scene.to_str().unwrap()],
        "number out of range",
    );
    std::fs::write(&scene, "not json").unwrap();
    refused(&["run", "--scene", scene.to_str().unwrap()], "scene.json");
}

#[test]
fn diff_and_bench_options() {
    refused(&["diff", "--shard", "0/4"], "from 1 to N");
    refused(&["diff", "--shard", "5/4"], "at most 4");
    refused(&["diff", "--shard", "1/0"], "at least 1 shards");
    refused(&["diff", "--shard", "half"], "expected K/N");
    refused(&["diff", "--count", "-3"], "cannot be negative");
    refused(
        &["diff", "--count", "10000000000000"],
        "at most 1000000000 cases",
    );
    refused(
        &["diff", "--scales", "0"],
        "a scale is a number from 1e-4 to 1e4",
    );
    refused(&["diff", "--paths", "nope"], "unknown path \"nope\"");
    refused(&["diff", "--regimes", "wobbly"], "invalid value 'wobbly'");
    refused(&["diff", "--time", "-1"], "seconds above 0");
    refused(
        &["diff", "--replay", "/nonexistent.json"],
        "cannot read /nonexistent.json",
    );
    refused(&["bench", "--rounds", "0"], "at least 1 rounds");
    refused(
        &["bench", "--workloads", "teapots"],
        "no workload is named or starts with \"teapots\"",
    );
    refused(&["bench", "--sizes", "-10"], "cannot be negative");
    refused(&["frobnicate"], "unrecognized subcommand");
}
