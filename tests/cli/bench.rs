//! `widephase bench`: the JSON report's fields, the same answers from every
//! library, the CSV and the SVG chart.

use crate::{assert_fields, assert_svg, json, run, scratch};

#[test]
fn a_small_bench_reports_every_contestant() {
    let dir = scratch("bench");
    let (csv, svg) = (dir.join("bench.csv"), dir.join("bench.svg"));
    let report = json(&[
        "bench",
        "--workloads",
        "narrowphase/intersects/cuboid-cuboid,broadphase,step",
        "--sizes",
        "2000",
        "--pairs",
        "512",
        "--rounds",
        "3",
        "--sample-ms",
        "1",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_fields(
        &report,
        &[
            "format",
            "version",
            "machine.cpu",
            "machine.cpu_extensions",
            "machine.built_for",
            "machine.threads",
            "rounds",
            "sample_ms",
            "seed",
            "results",
        ],
    );
    let results = report["results"].as_array().unwrap();
    let names: Vec<&str> = results
        .iter()
        .map(|r| r["workload"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "narrowphase/intersects/cuboid-cuboid",
            "broadphase/pairs/2000",
            "step/2000"
        ]
    );
    for r in results {
        assert_fields(r, &["workload", "items", "unit", "baseline", "contestants"]);
        for c in r["contestants"].as_array().unwrap() {
            assert_fields(
                c,
                &[
                    "name",
                    "median_ns",
                    "min_ns",
                    "max_ns",
                    "mad_percent",
                    "items_per_s",
                    "speedup_vs_baseline",
                    "checksum",
                    "runs_per_sample",
                ],
            );
            assert!(c["median_ns"].as_f64().unwrap() > 0.0);
            assert!(c["min_ns"].as_f64() <= c["median_ns"].as_f64());
        }
    }
    // The libraries found the same overlapping box pairs.
    let checksums = |i: usize| -> Vec<u64> {
        results[i]["contestants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["checksum"].as_u64().unwrap())
            .collect()
    };
    let pairs = checksums(1);
    assert_eq!(pairs.len(), 3);
    assert!(pairs.iter().all(|&p| p == pairs[0] && p > 0), "{pairs:?}");
    // gjk-simd and gjk-core agree exactly; parry may call a few touching pairs
    // (the standard pairs include pairs a few ulps apart) the other way, as its
    // touching rule is its own.
    let hits = checksums(0);
    assert_eq!(hits[0], hits[1], "{hits:?}");
    assert!(
        hits[0] > 0 && hits[0].abs_diff(hits[2]) <= 512 / 100,
        "{hits:?}"
    );
    // The step: pairs with at least one contact point at the same prediction
    // distance. Both candidate sets (parry's tight boxes, widephase's fat boxes
    // and bounds) hold every such pair, but each library decides a pair in the
    // touching band (depth within its own tolerances of 0) its own way: close,
    // not necessarily equal.
    let step = checksums(2);
    assert_eq!(step.len(), 2);
    assert!(
        step[0] > 0 && step[0].abs_diff(step[1]) <= 1 + step[0] / 100,
        "{step:?}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("workload,contestant,items"));
    assert_eq!(lines.len(), 1 + 3 + 3 + 2);
    assert_svg(&svg);
}

#[test]
fn the_workload_list() {
    let (code, stdout, _) = run(&["bench", "--list", "--sizes", "1000"]);
    assert_eq!(code, 0);
    for name in [
        "narrowphase/contact/hull-hull",
        "broadphase/pairs/1000",
        "step/1000",
    ] {
        assert!(
            stdout.lines().any(|l| l == name),
            "{name} missing:\n{stdout}"
        );
    }
}
