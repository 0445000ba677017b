//! `widephase run`: the JSON report, the chart, scene files, shape mixes, empty
//! scenes and runs without steps.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use crate::{assert_fields, assert_svg, json, run, scratch};

#[test]
fn json_has_the_documented_fields_and_adds_up() {
    let dir = scratch("run_json");
    let plot = dir.join("times.svg");
    let report = json(&[
        "run",
        "--bodies",
        "600",
        "--steps",
        "4",
        "--seed",
        "3",
        "--json",
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert_fields(
        &report,
        &[
            "format",
            "version",
            "config.bodies",
            "config.steps",
            "config.seed",
            "config.side",
            "config.shapes",
            "config.pinned",
            "machine.cpu",
            "machine.cpus",
            "machine.threads",
            "machine.cpu_extensions",
            "machine.built_for",
            "steps",
            "summary.candidate_pairs",
            "summary.touching",
            "summary.mean_ms.moves",
            "summary.mean_ms.broadphase",
            "summary.mean_ms.narrowphase",
            "summary.narrowphase_ns_per_pair",
            "summary.scene_build_s",
            "summary.wall_s",
            "checks",
            "passed",
        ],
    );
    assert_eq!(report["format"], "widephase-run");
    assert_eq!(report["config"]["bodies"], 600);
    assert_eq!(report["passed"], true);
    let steps = report["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 4);
    let mut pairs = 0;
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(s["step"], i);
        assert_fields(
            s,
            &[
                "counts.candidate_pairs",
                "counts.began",
                "counts.ended",
                "counts.culled",
                "counts.queried",
                "counts.manifolds",
                "counts.touching",
                "counts.points",
                "times_ms.moves",
                "times_ms.broadphase",
                "times_ms.narrowphase",
            ],
        );
        pairs += s["counts"]["candidate_pairs"].as_u64().unwrap();
    }
    assert!(pairs > 0);
    assert_eq!(report["summary"]["candidate_pairs"], pairs);
    let checks = report["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 2);
    assert!(checks.iter().all(|c| c["passed"] == true), "{checks:?}");
    assert_svg(&plot);
}

#[test]
fn a_written_scene_runs_again_with_the_same_pairs() {
    let dir = scratch("run_scene");
    let scene = dir.join("scene.json");
    let scene = scene.to_str().unwrap();
    let first = json(&[
        "run",
        "--bodies",
        "400",
        "--steps",
        "3",
        "--shapes",
        "sphere,hull,rounded",
        "--json",
        "--write-scene",
        scene,
    ]);
    assert_eq!(
        first["config"]["shapes"],
        serde_json::json!(["sphere", "hull", "rounded"])
    );
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(scene).unwrap()).unwrap();
    assert_eq!(file["format"], "widephase-scene");
    assert_eq!(file["bodies"].as_array().unwrap().len(), 400);
    assert_fields(
        &file["bodies"][0],
        &[
            "shape.kind",
            "pose.rotation",
            "pose.translation",
            "velocity",
            "spin",
        ],
    );
    let again = json(&["run", "--scene", scene, "--steps", "3", "--json"]);
    let counts = |r: &serde_json::Value| -> Vec<serde_json::Value> {
        r["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["counts"].clone())
            .collect()
    };
    assert_eq!(counts(&first), counts(&again));
    assert_eq!(again["passed"], true);
}

#[test]
fn a_hand_written_scene_with_defaults() {
    let dir = scratch("run_hand_scene");
    let scene = dir.join("scene.json");
    std::fs::write(
        &scene,
        r#"{"bodies": [
            {"shape": {"kind": "cuboid", "half_extents": [1, 1, 1]}},
            {"shape": {"kind": "sphere", "radius": 0.5}, "pose": {"translation": [1.25, 0, 0]}, "velocity": [0, 0, 0], "spin": [0, 0, 0]}
        ]}"#,
    )
    .unwrap();
    let (code, stdout, _) = run(&["run", "--scene", scene.to_str().unwrap(), "--steps", "2"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("2 bodies from the scene file"), "{stdout}");
    assert!(stdout.contains("touching      1"), "{stdout}");
}

#[test]
fn an_empty_scene_reports_no_pairs_instead_of_a_figure() {
    let (code, stdout, _) = run(&["run", "--bodies", "0", "--steps", "3"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("no candidate pairs"), "{stdout}");
    assert!(!stdout.contains("ns per candidate pair"), "{stdout}");
    let report = json(&["run", "--bodies", "0", "--steps", "2", "--json"]);
    assert_eq!(
        report["summary"]["narrowphase_ns_per_pair"],
        serde_json::Value::Null
    );
}

#[test]
fn zero_steps_build_the_scene_and_skip_the_checks() {
    let (code, stdout, _) = run(&["run", "--bodies", "500", "--steps", "0"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("check: skipped, no step ran"), "{stdout}");
    assert!(!stdout.contains("FAILED"), "{stdout}");
}

#[test]
fn more_threads_than_cpus_are_warned_about() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = (cpus + 1).to_string();
    let (code, _, stderr) = run(&[
        "run",
        "--bodies",
        "200",
        "--steps",
        "1",
        "--threads",
        &threads,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("warning"), "{stderr}");
}

/// The first line comes before the scene is built, however big: a person sees
/// at once what is being done.
#[test]
fn a_big_scene_says_what_it_does_before_building() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_widephase"))
        .args(["run", "--bodies", "2000000", "--steps", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the program starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .expect("a first line");
    child.kill().expect("the program stops");
    let _ = child.wait();
    assert!(first.starts_with("widephase: 2000000 bodies"), "{first}");
}

#[test]
fn the_tour_subcommand() {
    let (code, stdout, _) = run(&["tour"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("distance: 1.500000"), "{stdout}");
}
