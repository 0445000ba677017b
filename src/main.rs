//! The `widephase` program: `widephase run` (the main job, what `cargo run
//! --release` runs), `widephase diff` (the differential harness), `widephase bench`
//! (the comparative benchmark) and `widephase tour`. Each lives in its own module
//! under `cli/`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
