//! The command line: subcommands, their dispatch and the program's exit codes.
//!
//! Exit codes: 0 when the command did its work and its checks passed; 1 when a
//! check failed (the main job's self-checks, a disagreement beyond tolerance in
//! `diff`) or the work stopped on an error (an unreadable file); 2 for a bad
//! argument, with a message naming it (clap's own errors, and the limits of
//! [`args`]).

/// `println!` that reports a closed standard output (the reader of a pipe gone, as
/// with `| head`) as an error for the caller to return, instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        std::io::Write::write_fmt(&mut std::io::stdout().lock(), format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod args;
mod bench;
mod diff;
mod machine;
mod output;
mod plot;
mod pool;
mod run;
mod tour;

use std::error::Error;
use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Convex collision detection, eight pairs at a time: the main job, a differential
/// harness and comparative benchmarks.
///
/// Without a subcommand, `widephase` runs `widephase run` with the options given.
#[derive(Parser, Debug)]
#[command(version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: run::RunArgs,
    /// Print the scalar query tour and exit (the same as `widephase tour`).
    #[arg(long, hide = true)]
    tour: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Move a world of convex bodies through the broadphase and the wide
    /// narrowphase, step by step, and check the answers (the default command).
    Run(run::RunArgs),
    /// Differential testing: the same pairs through gjk-core, gjk-simd and parry3d,
    /// agreement per kind and query, replayable disagreements.
    Diff(diff::DiffArgs),
    /// Comparative benchmarks: widephase against parry3d and bvh-arena on named
    /// workloads, in interleaved rounds.
    Bench(bench::BenchArgs),
    /// The scalar queries on a few named pairs, beside the answers geometry
    /// predicts.
    Tour,
}

/// Parses the command line and runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        _ if cli.tour => tour::tour().map(|()| true),
        None => run::main(&cli.run),
        Some(Command::Run(args)) => run::main(&args),
        Some(Command::Diff(args)) => diff::main(&args),
        Some(Command::Bench(args)) => bench::main(&args),
        Some(Command::Tour) => tour::tour().map(|()| true),
    };
    finish(outcome)
}

/// A bad argument found after parsing (a limit that depends on the machine, a file
/// that contradicts an option): the message and usage, exit status 2, as clap does
/// for the arguments it checks itself.
pub fn usage_error(message: impl std::fmt::Display) -> ! {
    Cli::command()
        .error(clap::error::ErrorKind::ValueValidation, message)
        .exit()
}

/// The exit status of a command that passed its checks (`Ok(true)`), failed them,
/// or stopped on an error. An output whose reader left (`| head`) ends the command
/// quietly, as a pipeline expects.
fn finish(outcome: Result<bool, Box<dyn Error>>) -> ExitCode {
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e)
            if e.downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
