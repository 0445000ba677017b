//! The wide queries, twins of `gjk_core::query` file for file (`gjk.rs` /
//! `gjk_x8.rs`, `simplex.rs` / `simplex_x8.rs`, `manifold.rs` / `manifold_x8.rs`,
//! ...; `gjk.rs`'s loop is `gjk_loop_x8.rs`, with the state a wide loop keeps
//! between trips), and the wide-only tests that
//! decide a pair without GJK: [`separating_axes_x8`] (box pairs) and
//! [`closed_forms_x8`] (point and segment cores).

pub mod bounds_x8;
mod clip_x8;
pub mod closed_forms_x8;
pub mod contact_x8;
mod epa_x8;
pub(crate) mod gjk_loop_x8;
pub mod gjk_x8;
pub mod manifold_x8;
mod minkowski_x8;
mod reduce_x8;
pub mod separating_axes_x8;
mod simplex_x8;
mod status_x8;
