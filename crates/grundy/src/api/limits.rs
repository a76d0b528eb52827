//! Limits as a request states them, and the named presets they start from.
//!
//! Every front end used to carry its own defaults (the command line's misère search 2 million
//! positions, Python's 20 million, the web server's 500,000); they are here once. A request
//! names no figure unless it wants another one: [`LimitRequest`] holds only what the caller
//! overrides, and [`Preset::limits`] says what the rest is for each [`Task`].

use super::ApiError;
use crate::control::Limits;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The limits a request sets; each one left out takes the preset's figure for the task.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LimitRequest {
    /// The most positions (or components, or table entries) an engine may store.
    #[serde(default)]
    pub max_positions: Option<usize>,
    /// The most units of work (one unit is a move generated or a position expanded, 10 to
    /// 100 ns).
    #[serde(default)]
    pub max_work: Option<u64>,
    /// The most memory one table may take, in MiB.
    #[serde(default)]
    pub max_memory: Option<u64>,
    /// The most threads the position search of a board may use (at least 1; default 1).
    #[serde(default)]
    pub threads: Option<usize>,
}

/// What a request computes, for its default limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// An analysis in normal play.
    Analyze,
    /// An analysis in misère play: a search stores whole positions, which are much larger
    /// than components, so its position limit is a tenth of normal play's.
    AnalyzeMisere,
    /// A nim-sequence, its period and proof.
    Sequence,
    /// A misère quotient, or a genus sequence.
    Quotient,
    /// A game graph read or explored.
    Graph,
    /// A move in a game against the computer, a hint or a picture.
    Play,
}

/// The named sets of default limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// One user on this machine (the command line, Python): a few seconds to about twenty of
    /// one core ([`Limits::DEFAULT`]'s work), tables up to 4 GiB or half the memory this
    /// machine and process have, whichever is less.
    #[default]
    Standard,
    /// A server that many users share (`grundy serve`): a second or two of work and 256 MiB
    /// per request. The figures are also the most a request may ask for.
    Shared,
}

/// The shared preset's limits, for every task: far below the standard ones, so that many
/// students share a machine.
pub const SHARED_LIMITS: Limits = Limits {
    max_positions: 500_000,
    max_work: 50_000_000,
    max_bytes: 256 << 20,
    max_threads: 1,
};

/// The most threads a request may ask for (each keeps a copy of values of half a MiB).
pub const MAX_THREADS: usize = 256;

/// The position limit of a misère search under the standard preset: whole positions of a
/// sum cost some hundred bytes each and tens of microseconds to expand, so this bounds a
/// search to about a minute and a GiB.
pub const MISERE_POSITIONS: usize = 2_000_000;

/// The position limit of a game explored into a graph under the standard preset.
pub const EXPLORE_POSITIONS: usize = 100_000;

impl Preset {
    /// The default limits of `task` under this preset.
    pub fn limits(self, task: Task) -> Limits {
        match self {
            Preset::Shared => SHARED_LIMITS,
            Preset::Standard => {
                let machine = Limits::for_this_machine();
                match task {
                    Task::AnalyzeMisere => Limits {
                        max_positions: MISERE_POSITIONS,
                        ..machine
                    },
                    Task::Graph => Limits {
                        max_positions: EXPLORE_POSITIONS,
                        ..machine
                    },
                    _ => machine,
                }
            }
        }
    }

    /// The most a request may ask for under this preset, if there is a ceiling.
    pub fn ceiling(self) -> Option<Limits> {
        match self {
            Preset::Shared => Some(SHARED_LIMITS),
            Preset::Standard => None,
        }
    }
}

impl LimitRequest {
    /// The limits of this request under `preset` for `task`: the preset's figures, with the
    /// ones this request sets; a figure above the preset's ceiling is refused, naming it.
    pub fn resolve(&self, preset: Preset, task: Task) -> Result<Limits, ApiError> {
        let mut limits = preset.limits(task);
        if let Some(p) = self.max_positions {
            limits.max_positions = p;
        }
        if let Some(w) = self.max_work {
            limits.max_work = w;
        }
        if let Some(mib) = self.max_memory {
            limits.max_bytes = mib.checked_mul(1 << 20).ok_or_else(|| {
                ApiError::input(format!(
                    "max_memory {mib} is too large (the figure is in MiB)"
                ))
            })?;
        }
        if let Some(t) = self.threads {
            if t == 0 {
                return Err(ApiError::input(
                    "threads 0: a computation needs at least one thread".to_string(),
                ));
            }
            if t > MAX_THREADS {
                return Err(ApiError::input(format!(
                    "threads {t} is more than {MAX_THREADS}, the most a search may use"
                )));
            }
            limits.max_threads = t;
        }
        if let Some(c) = preset.ceiling() {
            let above = [
                (
                    "max_positions",
                    limits.max_positions as u64,
                    c.max_positions as u64,
                ),
                ("max_work", limits.max_work, c.max_work),
                ("max_memory", limits.max_bytes >> 20, c.max_bytes >> 20),
                ("threads", limits.max_threads as u64, c.max_threads as u64),
            ];
            if let Some((name, asked, most)) = above.into_iter().find(|(_, a, m)| a > m) {
                return Err(ApiError::input(format!(
                    "{name} {asked} is above this server's limit of {most}"
                )));
            }
        }
        Ok(limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_overrides_only_what_it_names() {
        let standard = Preset::Standard.limits(Task::AnalyzeMisere);
        assert_eq!(standard.max_positions, MISERE_POSITIONS);
        let asked = LimitRequest {
            max_work: Some(1000),
            ..Default::default()
        };
        let limits = asked
            .resolve(Preset::Standard, Task::AnalyzeMisere)
            .unwrap();
        assert_eq!(limits.max_work, 1000);
        assert_eq!(limits.max_positions, MISERE_POSITIONS);
        assert_eq!(limits.max_bytes, standard.max_bytes);
    }

    #[test]
    fn the_shared_preset_refuses_more_than_its_ceiling() {
        let asked = LimitRequest {
            max_work: Some(SHARED_LIMITS.max_work + 1),
            ..Default::default()
        };
        let e = asked.resolve(Preset::Shared, Task::Analyze).unwrap_err();
        assert!(e.message.contains("max_work 50000001"), "{e}");
        let less = LimitRequest {
            max_memory: Some(16),
            ..Default::default()
        };
        assert_eq!(
            less.resolve(Preset::Shared, Task::Analyze)
                .unwrap()
                .max_bytes,
            16 << 20
        );
        let huge = LimitRequest {
            max_memory: Some(u64::MAX),
            ..Default::default()
        };
        assert!(huge.resolve(Preset::Standard, Task::Analyze).is_err());
        // A server's requests run on one thread each; none runs on no thread.
        let two = LimitRequest {
            threads: Some(2),
            ..Default::default()
        };
        let e = two.resolve(Preset::Shared, Task::Analyze).unwrap_err();
        assert!(
            e.message
                .contains("threads 2 is above this server's limit of 1"),
            "{e}"
        );
        let standard = two.resolve(Preset::Standard, Task::Analyze).unwrap();
        assert_eq!(standard.max_threads, 2);
        let zero = LimitRequest {
            threads: Some(0),
            ..Default::default()
        };
        assert!(zero.resolve(Preset::Standard, Task::Analyze).is_err());
        let many = LimitRequest {
            threads: Some(MAX_THREADS + 1),
            ..Default::default()
        };
        let e = many.resolve(Preset::Standard, Task::Analyze).unwrap_err();
        assert!(e.message.contains("threads 257 is more than 256"), "{e}");
    }
}
