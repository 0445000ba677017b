//! How a batch query runs: its threading and which shortcuts it takes.

/// How a batch query spreads its work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parallelism {
    /// Everything on the calling thread.
    Sequential,
    /// Tasks on the current rayon pool (use `rayon::ThreadPool::install` to
    /// choose the thread count): each block of 8192 consecutive pairs is a task
    /// that buckets its pairs, then runs its buckets' batches in nested tasks of
    /// at most `batches_per_task` batches of eight pairs (one bucket's pairs
    /// each).
    Rayon {
        /// Batches per kernel task (tasks at a bucket's end hold fewer): smaller
        /// tasks balance the threads better, larger ones amortize scheduling.
        batches_per_task: usize,
    },
}

impl Default for Parallelism {
    /// Rayon with kernel tasks of 16 batches (128 pairs).
    fn default() -> Self {
        Parallelism::Rayon {
            batches_per_task: 16,
        }
    }
}

/// Options of the batch queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchOptions {
    /// How the work is spread (default: [`Parallelism::default`]).
    pub parallelism: Parallelism,
    /// Whether the queries answer the pairs that cheap tests decide without
    /// running GJK on them (default: yes). The boolean query takes both verdicts
    /// of the bounding balls ([`gjk_core::query::bounds`]) and of the
    /// separating-axis test for box pairs ([`crate::query::separating_axes_x8`]); the distance query
    /// takes the balls' overlap verdict, answering distance 0 with a point inside
    /// both shapes as both witnesses. Such pairs report 0 iterations.
    pub early_outs: bool,
    /// Whether pairs of spheres and capsules (rounded or not) take the closed-form
    /// segment kernels ([`crate::query::closed_forms_x8`]) instead of GJK, in both queries
    /// (default: yes). Their answers report 0 iterations.
    pub closed_forms: bool,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            parallelism: Parallelism::default(),
            early_outs: true,
            closed_forms: true,
        }
    }
}
