//! `widephase diff`: a passing campaign's JSON report, a planted disagreement
//! caught, shrunk, written and replayed to the same verdict, a cases file with
//! expected answers, and shards that merge into the unsharded campaign.

use crate::{assert_fields, json, run, scratch};

/// Regimes on which gjk-core, gjk-simd and parry3d agree on current main (the
/// others hold open findings; see the README).
const AGREEING: &str = "random,deep,far";

#[test]
fn a_passing_campaign_reports_every_kind_and_query() {
    let report = json(&["diff", "--count", "600", "--regimes", AGREEING, "--json"]);
    assert_fields(
        &report,
        &[
            "format",
            "version",
            "campaign.source",
            "campaign.seed",
            "campaign.count",
            "campaign.shards",
            "campaign.kinds",
            "campaign.regimes",
            "campaign.scales",
            "campaign.queries",
            "campaign.paths",
            "shards",
            "complete",
            "stopped_early",
            "cases_run",
            "refused",
            "rows",
            "disagreements",
            "passed",
        ],
    );
    assert_eq!(report["format"], "widephase-diff-report");
    assert_eq!(report["passed"], true, "{report:#}");
    assert_eq!(report["complete"], true);
    let rows = report["rows"].as_array().unwrap();
    for field in [
        "kinds",
        "regime",
        "query",
        "path",
        "cases",
        "agree",
        "in_band",
        "reference_certified",
        "both_certified",
        "reference_refuted",
        "disagree",
        "expected_checked",
        "expected_mismatch",
        "max_error",
    ] {
        assert!(rows.iter().all(|r| r.get(field).is_some()), "{field}");
    }
    // All 28 kind pairs, all four queries, and every path but the reference.
    let distinct = |f: &str| {
        let mut v: Vec<String> = rows
            .iter()
            .map(|r| r[f].as_str().unwrap().to_string())
            .collect();
        v.sort();
        v.dedup();
        v
    };
    assert_eq!(distinct("kinds").len(), 28);
    assert_eq!(
        distinct("query"),
        ["contact", "distance", "intersects", "speculative"]
    );
    assert_eq!(distinct("path"), ["gjk-simd", "gjk-simd-gjk", "parry3d"]);
    let compared: u64 = rows.iter().map(|r| r["cases"].as_u64().unwrap()).sum();
    // 600 cases x 3 paths x 4 queries.
    assert_eq!(compared, 600 * 12);
}

#[test]
fn a_planted_disagreement_is_caught_shrunk_and_replays_to_the_same_verdict() {
    let dir = scratch("diff_planted");
    let out = dir.join("cases");
    let out_s = out.to_str().unwrap();
    let (code, stdout, stderr) = run(&[
        "diff",
        "--count",
        "200",
        "--regimes",
        "random",
        "--kinds",
        "cuboid,hull,rounded",
        "--queries",
        "distance",
        "--paths",
        "parry3d",
        "--test-tolerance-scale",
        "0",
        "--out",
        out_s,
        "--max-written",
        "3",
    ]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(stdout.contains("verdict: FAIL"), "{stdout}");
    let mut files: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 3, "{files:?}");
    let mut shrunk = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let written: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(written["format"], "widephase-diff-cases");
        let case = &written["cases"][0];
        assert_fields(
            case,
            &[
                "a.kind",
                "b.kind",
                "pose_a",
                "pose_b",
                "origin.seed",
                "origin.index",
                "finding.query",
                "finding.path",
                "finding.verdict",
                "finding.answer",
                "finding.shrink_steps",
            ],
        );
        assert_eq!(case["finding"]["verdict"], "disagree");
        let steps = case["finding"]["shrink_steps"].as_u64().unwrap();
        if steps > 0 {
            shrunk += 1;
            // Shrunk: shorter than the case it came from.
            let before = serde_json::to_string(&case["finding"]["unshrunk"]).unwrap();
            let after = serde_json::to_string(&serde_json::json!({
                "a": case["a"], "pose_a": case["pose_a"], "b": case["b"], "pose_b": case["pose_b"]
            }))
            .unwrap();
            assert!(after.len() < before.len(), "{after}\nfrom\n{before}");
        }
        // Replayed with the same bounds: the same verdict on the same path.
        let f = file.to_str().unwrap();
        let (code, stdout, _) = run(&[
            "diff",
            "--replay",
            f,
            "--queries",
            "distance",
            "--paths",
            "parry3d",
            "--test-tolerance-scale",
            "0",
        ]);
        assert_eq!(code, 1, "{stdout}");
        assert!(
            stdout.contains("recorded: distance parry3d disagree"),
            "{stdout}"
        );
        assert!(stdout.contains("distance parry3d: "), "{stdout}");
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("  distance parry3d:") && l.ends_with("-> disagree")),
            "{stdout}"
        );
    }
    assert!(shrunk > 0, "no case was shrunk");
}

#[test]
fn a_cases_file_with_expected_answers() {
    let dir = scratch("diff_cases");
    let good = dir.join("good.json");
    let case = |distance: f32| {
        format!(
            r#"{{"format": "widephase-diff-cases", "version": 1, "cases": [
              {{"name": "ball beside a box",
                "a": {{"kind": "cuboid", "half_extents": [1, 1, 1]}},
                "b": {{"kind": "sphere", "radius": 0.5}},
                "pose_b": {{"translation": [3, 0, 0]}},
                "expected": {{"intersects": false, "distance": {distance}}}}}]}}"#
        )
    };
    std::fs::write(&good, case(1.5)).unwrap();
    let report = json(&[
        "diff",
        "--cases",
        good.to_str().unwrap(),
        "--json",
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    assert_eq!(report["passed"], true, "{report:#}");
    let rows = report["rows"].as_array().unwrap();
    assert!(
        rows.iter()
            .any(|r| r["expected_checked"].as_u64() > Some(0))
    );
    // A wrong expected distance is caught, whichever path answers.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, case(1.0)).unwrap();
    let (code, stdout, _) = run(&[
        "diff",
        "--cases",
        bad.to_str().unwrap(),
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("1 checked, 1 missed"), "{stdout}");
    // The replay prints every path's answer.
    let (code, stdout, _) = run(&["diff", "--replay", good.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("ball beside a box: cuboid-sphere"),
        "{stdout}"
    );
    assert!(
        stdout.contains("distance gjk-core: distance 1.500000000"),
        "{stdout}"
    );
}

#[test]
fn a_speculative_contact_is_checked_against_the_gap() {
    // A ball 0.3 beside a box: apart, but within the speculative query's
    // prediction (a quarter of the pair's scale, sqrt(3) + 0.5, rounded down to a
    // power of two: 0.5), so every path answers a contact of depth -0.3.
    let dir = scratch("diff_speculative");
    let case = |distance: f32| {
        format!(
            r#"{{"format": "widephase-diff-cases", "version": 1, "cases": [
              {{"name": "ball near a box",
                "a": {{"kind": "cuboid", "half_extents": [1, 1, 1]}},
                "b": {{"kind": "sphere", "radius": 0.5}},
                "pose_b": {{"translation": [1.8, 0, 0]}},
                "expected": {{"distance": {distance}}}}}]}}"#
        )
    };
    let good = dir.join("good.json");
    std::fs::write(&good, case(0.3)).unwrap();
    let report = json(&[
        "diff",
        "--cases",
        good.to_str().unwrap(),
        "--queries",
        "speculative",
        "--json",
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    assert_eq!(report["passed"], true, "{report:#}");
    let rows = report["rows"].as_array().unwrap();
    // Three paths compared with gjk-core, and all four checked against the gap.
    assert_eq!(rows.len(), 4, "{report:#}");
    assert!(
        rows.iter().all(|r| r["query"] == "speculative"
            && r["expected_checked"] == 1
            && r["expected_mismatch"] == 0),
        "{report:#}"
    );
    let compared: Vec<_> = rows.iter().filter(|r| r["path"] != "gjk-core").collect();
    assert_eq!(compared.len(), 3, "{report:#}");
    assert!(compared.iter().all(|r| r["agree"] == 1), "{report:#}");
    let (code, stdout, _) = run(&[
        "diff",
        "--replay",
        good.to_str().unwrap(),
        "--queries",
        "contact,speculative",
    ]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("contact gjk-simd: no contact"), "{stdout}");
    assert!(
        stdout.contains("speculative gjk-core (prediction 0.5): depth -0.29999"),
        "{stdout}"
    );
    assert!(
        stdout.contains("speculative gjk-simd: depth -0.29999"),
        "{stdout}"
    );
    // A wrong gap is caught on the speculative contact.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, case(0.35)).unwrap();
    let (code, stdout, _) = run(&[
        "diff",
        "--cases",
        bad.to_str().unwrap(),
        "--queries",
        "speculative",
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("1 checked, 1 missed"), "{stdout}");
}

#[test]
fn shards_merge_into_the_whole_campaign() {
    let dir = scratch("diff_shards");
    let args = [
        "diff",
        "--count",
        "300",
        "--seed",
        "11",
        "--regimes",
        AGREEING,
        "--kinds",
        "sphere,cuboid,capsule,hull",
    ];
    let whole = json(&[&args[..], &["--json"]].concat());
    let mut reports = Vec::new();
    for k in 1..=3 {
        let path = dir.join(format!("shard{k}.json"));
        let shard = format!("{k}/3");
        let r = json(
            &[
                &args[..],
                &[
                    "--shard",
                    &shard,
                    "--json",
                    "--report",
                    path.to_str().unwrap(),
                ],
            ]
            .concat(),
        );
        assert_eq!(r["complete"], false);
        reports.push(path.to_str().unwrap().to_string());
    }
    let merged = json(&[
        "diff",
        "--merge",
        &reports[0],
        &reports[1],
        &reports[2],
        "--json",
    ]);
    assert_eq!(merged["complete"], true);
    assert_eq!(merged["passed"], true);
    assert_eq!(merged["cases_run"], whole["cases_run"]);
    assert_eq!(merged["rows"], whole["rows"]);
    // A missing shard fails the merge; a shard given twice is refused.
    let (code, stdout, _) = run(&["diff", "--merge", &reports[0], &reports[2]]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("shards [2] of 3 are missing"), "{stdout}");
    let (code, _, stderr) = run(&["diff", "--merge", &reports[0], &reports[0]]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("shard 1 appears in two reports"),
        "{stderr}"
    );
}
