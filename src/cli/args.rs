//! Argument values and their limits: each parser refuses a value with a message
//! that says the limit and why, and clap turns the refusal into exit status 2.

use gjk_core::ShapeKind;

/// The most bodies `run` accepts. A body costs about a kilobyte across the
/// broadphase (its proxy, fat box and two tree nodes), the pair set and the
/// narrowphase's batches; five million keep the job within a few gigabytes, and
/// scene building, which is serial, within minutes.
pub const MAX_BODIES: u64 = 5_000_000;

/// The most steps `run` accepts: a long soak at the default scene size, beyond
/// which a run is better split (each step's figures are kept for the summary).
pub const MAX_STEPS: u64 = 1_000_000;

/// The most pairs `run --verify` re-checks with the scalar reference, which runs
/// one pair at a time on one thread.
pub const MAX_VERIFY: u64 = 10_000_000;

/// Worker threads beyond this many per CPU are refused: past the CPU count a
/// thread only adds switching (the answers never depend on the thread count), and
/// a thousand threads on two CPUs made a step hundreds of times slower.
pub const THREADS_PER_CPU: usize = 4;

/// The most cases one `diff` campaign runs on one machine; bigger campaigns are
/// split with `--shard`.
pub const MAX_CASES: u64 = 1_000_000_000;

/// A whole number `0..=max` for `what`, with underscores allowed (`20_000`).
fn count(text: &str, what: &str, max: u64, why: &str) -> Result<u64, String> {
    let digits = text.trim().replace('_', "");
    if digits.starts_with('-') {
        return Err(format!(
            "the number of {what} cannot be negative (got {text})"
        ));
    }
    match digits.parse::<u128>() {
        Ok(n) if n <= u128::from(max) => Ok(n as u64),
        Ok(_) => Err(format!("at most {max} {what} ({why}); got {text}")),
        Err(_) => Err(format!("expected a whole number of {what}, got {text:?}")),
    }
}

/// `--bodies`.
pub fn bodies(text: &str) -> Result<usize, String> {
    count(
        text,
        "bodies",
        MAX_BODIES,
        "about a kilobyte each across the broadphase and the batches",
    )
    .map(|n| n as usize)
}

/// `--steps`.
pub fn steps(text: &str) -> Result<usize, String> {
    count(
        text,
        "steps",
        MAX_STEPS,
        "every step's figures are kept for the summary; split longer runs",
    )
    .map(|n| n as usize)
}

/// `--verify`.
pub fn verify(text: &str) -> Result<usize, String> {
    count(
        text,
        "pairs",
        MAX_VERIFY,
        "the scalar reference re-checks them one at a time",
    )
    .map(|n| n as usize)
}

/// `--threads` (0: one per CPU). Checked against the machine's CPUs later
/// ([`check_threads`]); here only against a bound no machine reaches.
pub fn threads(text: &str) -> Result<usize, String> {
    count(
        text,
        "threads",
        65_536,
        "no machine has more CPUs; see --help",
    )
    .map(|n| n as usize)
}

/// `--count` of `diff`.
pub fn cases(text: &str) -> Result<u64, String> {
    count(
        text,
        "cases",
        MAX_CASES,
        "split bigger campaigns over machines with --shard",
    )
}

/// A whole number of at least 1 for `what`, at most `max`.
pub fn positive(text: &str, what: &str, max: u64) -> Result<u64, String> {
    match count(text, what, max, "see --help")? {
        0 => Err(format!("at least 1 {what}")),
        n => Ok(n),
    }
}

/// The number of CPUs the process may run on.
pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Refuses a thread count beyond [`THREADS_PER_CPU`] per CPU; returns a warning for
/// one beyond the CPU count.
pub fn check_threads(threads: usize) -> Result<Option<String>, String> {
    let cpus = cpus();
    let limit = THREADS_PER_CPU * cpus;
    if threads > limit {
        Err(format!(
            "--threads {threads}: at most {limit} on this machine ({THREADS_PER_CPU} per CPU, {cpus} CPUs); more threads than CPUs only add switching, and the answers do not depend on the thread count"
        ))
    } else if threads > cpus {
        Ok(Some(format!(
            "warning: {threads} threads on {cpus} CPUs: the threads take turns, so timings are slower than the machine can do"
        )))
    } else {
        Ok(None)
    }
}

/// A shape kind by name, as `--shapes` and the bench's workload names spell it.
pub fn shape_kind(text: &str) -> Result<ShapeKind, String> {
    Ok(match text.trim().to_ascii_lowercase().as_str() {
        "sphere" | "ball" => ShapeKind::Sphere,
        "cuboid" | "box" => ShapeKind::Cuboid,
        "capsule" => ShapeKind::Capsule,
        "cylinder" => ShapeKind::Cylinder,
        "cone" => ShapeKind::Cone,
        "hull" | "convex_hull" | "convex-hull" => ShapeKind::ConvexHull,
        "rounded" => ShapeKind::Rounded,
        other => {
            return Err(format!(
                "unknown shape kind {other:?}: one of sphere, cuboid, capsule, cylinder, cone, hull, rounded"
            ));
        }
    })
}

/// The name [`shape_kind`] reads back.
pub fn kind_name(kind: ShapeKind) -> &'static str {
    match kind {
        ShapeKind::Sphere => "sphere",
        ShapeKind::Cuboid => "cuboid",
        ShapeKind::Capsule => "capsule",
        ShapeKind::Cylinder => "cylinder",
        ShapeKind::Cone => "cone",
        ShapeKind::ConvexHull => "hull",
        ShapeKind::Rounded => "rounded",
    }
}

/// Shard `K/N` of a campaign: the cases whose index is `K - 1` modulo `N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// Whether case `i` belongs to this shard.
    pub fn holds(&self, i: u64) -> bool {
        i % self.count == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `--shard K/N`, `1 <= K <= N`.
pub fn shard(text: &str) -> Result<Shard, String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("expected K/N (shard K of N, from 1), got {text:?}"))?;
    let count = positive(n, "shards", 1 << 20)?;
    let index = positive(k, "shard index", count)
        .map_err(|e| format!("{e}: shard K of N counts from 1 to N, got {text:?}"))?;
    Ok(Shard { index, count })
}

/// A positive, finite number of seconds.
pub fn seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e7 => Ok(s),
        _ => Err(format!(
            "expected a number of seconds above 0 and at most 1e7, got {text:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_say_their_limit() {
        assert_eq!(bodies("20_000"), Ok(20_000));
        assert_eq!(bodies("0"), Ok(0));
        assert!(bodies("-5").unwrap_err().contains("negative"));
        assert!(
            bodies("4294967296")
                .unwrap_err()
                .contains("at most 5000000")
        );
        assert!(
            bodies("18446744073709551615")
                .unwrap_err()
                .contains("at most")
        );
        assert!(bodies("99999999999999999999999999999999999999999").is_err());
        assert!(bodies("many").unwrap_err().contains("whole number"));
        assert!(steps("1000001").is_err());
    }

    #[test]
    fn shards_count_from_one() {
        assert_eq!(shard("2/4"), Ok(Shard { index: 2, count: 4 }));
        assert!(shard("0/4").is_err());
        assert!(shard("5/4").is_err());
        assert!(shard("1/0").is_err());
        assert!(shard("3").is_err());
        let s = shard("2/3").unwrap();
        assert_eq!(
            (0..9).filter(|&i| s.holds(i)).collect::<Vec<_>>(),
            [1, 4, 7]
        );
    }

    #[test]
    fn threads_beyond_the_cpus() {
        let cpus = cpus();
        assert_eq!(check_threads(cpus), Ok(None));
        assert!(check_threads(cpus + 1).unwrap().is_some());
        assert!(check_threads(THREADS_PER_CPU * cpus + 1).is_err());
    }
}
