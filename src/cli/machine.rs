//! The machine a run measured: CPU model, vector extensions (what the CPU has and
//! what the program was built to use) and threads. Every figure is stated with it,
//! since widephase's speed depends on the vector unit.

use serde::Serialize;

/// What the figures of a run depend on.
#[derive(Debug, Clone, Serialize)]
pub struct Machine {
    /// The CPU's model name (`/proc/cpuinfo` on Linux, else "unknown").
    pub cpu: String,
    /// CPUs this process may run on.
    pub cpus: usize,
    /// Worker threads of the run.
    pub threads: usize,
    /// Architecture and OS the program was built for.
    pub target: String,
    /// Vector extensions the CPU reports.
    pub cpu_extensions: Vec<&'static str>,
    /// Vector extensions the program was compiled to use (`-C target-cpu`): the
    /// kernels pick their instructions at compile time.
    pub built_for: Vec<&'static str>,
}

impl Machine {
    /// This machine, with `threads` worker threads.
    pub fn detect(threads: usize) -> Self {
        Machine {
            cpu: cpu_model(),
            cpus: super::args::cpus(),
            threads,
            target: format!("{}-{}", std::env::consts::ARCH, std::env::consts::OS),
            cpu_extensions: cpu_extensions(),
            built_for: built_for(),
        }
    }
}

impl std::fmt::Display for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |v: &[&str]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(" ")
            }
        };
        write!(
            f,
            "{} ({} CPUs, {}); CPU has {}; built for {}; {} thread{}",
            self.cpu,
            self.cpus,
            self.target,
            list(&self.cpu_extensions),
            list(&self.built_for),
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}

#[cfg(target_arch = "x86_64")]
fn cpu_extensions() -> Vec<&'static str> {
    let mut found = Vec::new();
    macro_rules! probe {
        ($($f:tt),*) => {$(
            if std::arch::is_x86_feature_detected!($f) {
                found.push($f);
            }
        )*};
    }
    probe!("sse4.2", "avx", "avx2", "fma", "avx512f", "avx512vl");
    found
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_extensions() -> Vec<&'static str> {
    Vec::new()
}

fn built_for() -> Vec<&'static str> {
    let mut found = Vec::new();
    macro_rules! built {
        ($($f:tt),*) => {$(
            if cfg!(target_feature = $f) {
                found.push($f);
            }
        )*};
    }
    built!(
        "sse4.2", "avx", "avx2", "fma", "avx512f", "avx512vl", "neon"
    );
    found
}
