//! A [`Runner`] that starts nothing and answers with recorded outputs, for tests of code that
//! drives the adapters (the run's phases) without real or stub executables.
//!
//! Stub executables on a temporary PATH (see tests/integration/runner.rs) exercise the real process
//! machinery too; this runner is for tests that only care about the decisions made around it.

use std::sync::Mutex;
use std::time::Duration;

use crate::tool::{Invocation, Output, RunError, Runner};

struct Rule {
    program: String,
    words: Vec<String>,
    output: Output,
}

/// Answers an invocation with the output of the rule whose program name (file name of
/// [`Invocation::program`]) matches and whose words are the longest prefix of the invocation's
/// arguments followed by the words of its stdin (Stockfish takes its commands there). Records
/// every invocation it receives.
#[derive(Default)]
pub struct ReplayRunner {
    rules: Vec<Rule>,
    calls: Mutex<Vec<Invocation>>,
}

impl ReplayRunner {
    pub fn new() -> Self {
        Self::default()
    }

    /// Exit status 0 with `stdout`.
    pub fn on(self, program: &str, words: &[&str], stdout: &str) -> Self {
        self.on_output(
            program,
            words,
            Output {
                stdout: stdout.to_string(),
                stderr: String::new(),
                exit_code: Some(0),
                signal: None,
                timed_out: false,
                ended_by_us: false,
                wall: Duration::ZERO,
            },
        )
    }

    /// Any output (a failure, a time-limit end …).
    pub fn on_output(mut self, program: &str, words: &[&str], output: Output) -> Self {
        self.rules.push(Rule {
            program: program.to_string(),
            words: words.iter().map(|w| w.to_string()).collect(),
            output,
        });
        self
    }

    /// The invocations received so far, in order.
    pub fn calls(&self) -> Vec<Invocation> {
        self.calls.lock().map(|c| c.clone()).unwrap_or_default()
    }
}

impl Runner for ReplayRunner {
    fn run(&self, inv: &Invocation) -> Result<Output, RunError> {
        if let Ok(mut c) = self.calls.lock() {
            c.push(inv.clone());
        }
        let program = inv
            .program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut words: Vec<&str> = inv.args.iter().map(String::as_str).collect();
        if let Some(input) = &inv.stdin {
            words.extend(input.split_whitespace());
        }
        self.rules
            .iter()
            .filter(|r| {
                r.program == program
                    && r.words.len() <= words.len()
                    && r.words.iter().zip(&words).all(|(a, b)| a == b)
            })
            .max_by_key(|r| r.words.len())
            .map(|r| r.output.clone())
            .ok_or_else(|| {
                RunError::Spawn(format!("no recorded output for {}", inv.command_line()))
            })
    }
}
