//! What the commands share for output: progress bars that only a person at a
//! terminal sees, and JSON written to standard output or to files.

use std::error::Error;
use std::fmt::Display;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A progress bar on standard error, drawn only when both standard output and
/// standard error are terminals (a person watching), never into a pipe or a file
/// or a CI log. Lines printed through it do not tear the bar.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar of `len` units, labelled `what`.
    pub fn new(len: u64, what: &str) -> Self {
        let shown = std::io::stdout().is_terminal() && std::io::stderr().is_terminal();
        let bar = shown.then(|| {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{msg:>12} [{bar:40}] {pos}/{len} ({elapsed}, {eta} left)",
            )
            .expect("a valid template")
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_message(what.to_string());
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress { bar }
    }

    /// Advances the bar by `n` units.
    pub fn inc(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Prints `line` on standard output above the bar.
    pub fn say(&self, line: impl Display) -> std::io::Result<()> {
        match &self.bar {
            Some(bar) => bar.suspend(|| say!("{line}")),
            None => say!("{line}"),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Writes `value` as pretty JSON on standard output.
pub fn print_json(value: &impl Serialize) -> Result<(), Box<dyn Error>> {
    // Serialized first, so that a closed output is an `io::Error` (a quiet end)
    // rather than a serde error.
    let text = serde_json::to_string_pretty(value)?;
    writeln!(std::io::stdout().lock(), "{text}")?;
    Ok(())
}

/// Writes `value` as pretty JSON to `path`, naming the file in any error.
pub fn write_json(path: &Path, value: &impl Serialize) -> Result<(), Box<dyn Error>> {
    let text = serde_json::to_string_pretty(value)?;
    std::fs::write(path, text + "\n")
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

/// Reads JSON of type `T` from `path`, naming the file (and serde's line and
/// column) in any error.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Milliseconds of `d`, for reports.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
