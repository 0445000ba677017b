//! The worker threads: rayon's global pool, sized and optionally pinned to CPUs.

/// The pool size rayon would pick for `threads` = 0: `RAYON_NUM_THREADS` if set,
/// else one thread per CPU.
pub fn pool_size(threads: usize) -> usize {
    if threads > 0 {
        return threads;
    }
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(super::args::cpus)
}

/// Starts the global rayon pool with `threads` workers (0: [`pool_size`]) and, if
/// `pin` and the process may run on at least as many CPUs as there are workers,
/// gives worker `i` the `i`-th of those CPUs; returns whether it did.
///
/// Left to itself, the scheduler of a two-CPU guest sometimes queued both workers on
/// one CPU for whole steps, after the calling thread's serial work had run on the
/// other, and the narrowphase of those steps ran no faster than on one thread;
/// pinned, the slowest steps kept the two-thread speed (`BENCHMARKS.md`, end to
/// end). Pinning changes where the work runs, never the results.
pub fn start(threads: usize, pin: bool) -> Result<bool, rayon::ThreadPoolBuildError> {
    let n = pool_size(threads);
    let cpus = core_affinity::get_core_ids().unwrap_or_default();
    let pinned = pin && n <= cpus.len();
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .start_handler(move |i| {
            if pinned {
                // A refused pin leaves the worker where the scheduler puts it.
                core_affinity::set_for_current(cpus[i]);
            }
        })
        .build_global()?;
    Ok(pinned)
}
