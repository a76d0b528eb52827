//! One typed request/response layer: what every front end speaks.
//!
//! The command line's `--json`, the web server's `/api/…` and the Python package all answer
//! through these types, so there is one JSON shape for each answer, documented once by the
//! JSON Schema that [`schema`] generates from the types (checked in as
//! `docs/api.schema.json`, and tested against it). Front ends parse their own input into a
//! request, call the [`Session`], and print the response (text, JSON, a Python object); they
//! map [`ApiError`]'s kind to an exit status, an HTTP status or an exception.
//!
//! ```
//! use grundy::api::{AnalyzeRequest, Preset, Session, Task};
//! let session = Session::new(Preset::Standard);
//! let request = AnalyzeRequest::new("nim 3 + kayles 4");
//! let budget = session.budget(&request.limits, Task::Analyze).unwrap();
//! let answer = session.analyze(&request, &budget).unwrap();
//! assert_eq!(answer.value, Some(grundy::Nimber(2)));
//! assert_eq!(answer.components[1].rule, "kayles");
//! assert!(answer.winning_moves_complete);
//! ```
//!
//! Data flows one way: text (an expression, a file, a Python call, an HTTP body) → a request
//! → [`crate::catalog`] (a checked [`crate::sum::Sum`]) → the engine that fits, under the
//! request's [`Budget`] → a response → serialised once, at the edge.

mod atlas;
mod error;
mod graph;
mod limits;
mod play;
mod sequence;

pub use atlas::{
    AtlasPage, AtlasReport, AtlasRequest, AtlasSummary, FamilyRows, Filter, GameCard, GameRow,
    GameStatus, MAX_ATLAS_ROWS, MisereRow, ProvenTwin, Twin,
};
pub use error::{ApiError, ErrorKind};
pub use graph::{
    GraphFormat, GraphReport, GraphRequest, KernelSummary, SolvedGraph, TokenMoveReport,
    TokenSumReport, VertexReport, VertexValue,
};
pub use limits::{EXPLORE_POSITIONS, LimitRequest, MISERE_POSITIONS, Preset, SHARED_LIMITS, Task};
pub use play::{MAX_LISTED, MoveInput, PictureReport, PlayReport, PlayRequest, PositionRequest};
pub use sequence::{
    DEFAULT_TO, PLOT_EACH, SHARED_MAX_TO, SequenceReport, SequenceRequest, sequence_plot,
};

pub use crate::analysis::{Analysis, ComponentReport, MoveSearch, WinningMove};
pub use crate::misere::report::QuotientReport;

use crate::boards::BoardGame;
use crate::boards::cram::EndTable;
use crate::catalog::Catalog;
use crate::control::Budget;
use crate::search::checkpoint::CheckpointError;
use crate::sum::{Context, Engine};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Which engine computes values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EngineChoice {
    /// The fastest correct method each family has.
    #[default]
    Fast,
    /// The generic engine through the moves alone: slow, the reference for cross-checks.
    Generic,
}

impl From<EngineChoice> for Engine {
    fn from(e: EngineChoice) -> Engine {
        match e {
            EngineChoice::Fast => Engine::Fast,
            EngineChoice::Generic => Engine::Generic,
        }
    }
}

/// Analyse a position: its value, outcome, winning moves and why ([`Analysis`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// The position, in the expression language (`nim 3 5 + kayles 7`).
    pub expression: String,
    /// Misère play: the player who makes the last move loses.
    #[serde(default)]
    pub misere: bool,
    /// The engine.
    #[serde(default)]
    pub engine: EngineChoice,
    /// Limits other than the preset's.
    #[serde(default)]
    pub limits: LimitRequest,
    /// Which winning moves to look for: `all` (the default), `one`, or `none` (the value
    /// alone, often far cheaper for a board game).
    #[serde(default)]
    pub moves: MoveSearch,
}

impl AnalyzeRequest {
    /// A normal-play analysis of `expression` by the fast engine, under the preset's limits.
    pub fn new(expression: impl Into<String>) -> Self {
        AnalyzeRequest {
            expression: expression.into(),
            misere: false,
            engine: EngineChoice::Fast,
            limits: LimitRequest::default(),
            moves: MoveSearch::All,
        }
    }

    /// The task whose default limits apply.
    pub fn task(&self) -> Task {
        if self.misere {
            Task::AnalyzeMisere
        } else {
            Task::Analyze
        }
    }
}

/// The misère quotient of a heap rule's heaps ([`QuotientReport`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuotientRequest {
    /// The heap rule (`0.75`, `kayles`).
    pub rule: String,
    /// The heaps 1 to this are in the closure.
    #[serde(default = "default_max_heap")]
    pub max_heap: u64,
    /// The Nim heaps `*1` to `*nim` are in the closure too.
    #[serde(default)]
    pub nim: u32,
    /// The most elements the quotient (and its trials, up to eight times this) may have.
    #[serde(default = "default_max_elements")]
    pub max_elements: usize,
    /// Limits other than the preset's.
    #[serde(default)]
    pub limits: LimitRequest,
}

fn default_max_heap() -> u64 {
    24
}

fn default_max_elements() -> usize {
    1024
}

impl QuotientRequest {
    /// The quotient of `rule`'s heaps 1 to 24, at most 1024 elements.
    pub fn new(rule: impl Into<String>) -> Self {
        QuotientRequest {
            rule: rule.into(),
            max_heap: default_max_heap(),
            nim: 0,
            max_elements: default_max_elements(),
            limits: LimitRequest::default(),
        }
    }
}

/// A rule of the expression language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RuleInfo {
    /// The rule's name, as written in expressions.
    pub name: String,
    /// How a term of it is written.
    pub usage: String,
    /// What it is.
    pub summary: String,
    /// The script it comes from, for a rule script's rule.
    pub origin: Option<String>,
}

/// What [`Session::analyze_with_checkpoint`] did.
#[derive(Debug)]
pub struct Resumed {
    /// The analysis, or why there is none.
    pub analysis: Result<Analysis, ApiError>,
    /// Entries read from the checkpoint (0 when there was no file).
    pub loaded: u64,
    /// Entries written to it, or why it could not be written.
    pub saved: Result<u64, ApiError>,
}

/// Where requests are answered: the rules known (built in, and rule scripts), the preset of
/// default limits, and the flag that cancels every request's work (Ctrl-C).
#[derive(Debug)]
pub struct Session {
    catalog: Catalog,
    preset: Preset,
    cancel: Option<Arc<AtomicBool>>,
    end_table: Option<Arc<EndTable>>,
}

impl Session {
    /// A session with the built-in rules under `preset`.
    pub fn new(preset: Preset) -> Self {
        Session {
            catalog: Catalog::new(),
            preset,
            cancel: None,
            end_table: None,
        }
    }

    /// With the rules of this catalogue (rule scripts loaded into it).
    pub fn with_catalog(mut self, catalog: Catalog) -> Self {
        self.catalog = catalog;
        self
    }

    /// Every budget made by this session shares `flag`: setting it cancels the work.
    pub fn with_cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// Every analysis of this session values the small regions of Cram boards from `table`
    /// (see [`EndTable`]): the same answers, sooner on big boards.
    pub fn with_end_table(mut self, table: Arc<EndTable>) -> Self {
        self.end_table = Some(table);
        self
    }

    /// The rules this session knows.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The preset of default limits.
    pub fn preset(&self) -> Preset {
        self.preset
    }

    /// A fresh budget for a request's `limits` under this session's preset, for `task`.
    pub fn budget(&self, limits: &LimitRequest, task: Task) -> Result<Budget, ApiError> {
        let limits = limits.resolve(self.preset, task)?;
        Ok(match &self.cancel {
            Some(flag) => Budget::with_cancel_flag(limits, Arc::clone(flag)),
            None => Budget::new(limits),
        })
    }

    fn context(&self, engine: EngineChoice, budget: &Budget) -> Context {
        Context {
            engine: engine.into(),
            budget: budget.clone(),
            end_table: self.end_table.clone(),
        }
    }

    /// Analyses a position under `budget`.
    pub fn analyze(&self, req: &AnalyzeRequest, budget: &Budget) -> Result<Analysis, ApiError> {
        let (sum, options) = self.analysis_of(req, budget)?;
        Ok(crate::analysis::analyze_sum(&sum, &options)?)
    }

    fn analysis_of(
        &self,
        req: &AnalyzeRequest,
        budget: &Budget,
    ) -> Result<(crate::sum::Sum, crate::Options), ApiError> {
        let sum = self
            .catalog
            .parse(&req.expression)
            .map_err(|e| ApiError::expression(&e, &req.expression))?;
        let options = crate::Options {
            misere: req.misere,
            context: self.context(req.engine, budget),
            moves: req.moves,
        };
        Ok((sum, options))
    }

    /// Analyses a position whose one Cram board keeps its search tables in the file at
    /// `path` (see [`crate::search::checkpoint`]): read first if the file exists, written
    /// after the analysis whether it answered or stopped (a limit, Ctrl-C), so that a long
    /// search run again goes on from what it proved. Refused before any work if the
    /// expression holds no Cram board or more than one, or if the file is not a checkpoint
    /// of this tool or is damaged (it is then left as it is).
    pub fn analyze_with_checkpoint(
        &self,
        req: &AnalyzeRequest,
        budget: &Budget,
        path: &Path,
    ) -> Result<Resumed, ApiError> {
        let (sum, options) = self.analysis_of(req, budget)?;
        let boards: Vec<&BoardGame> = sum
            .components
            .iter()
            .filter_map(|c| c.as_any().downcast_ref::<BoardGame>())
            .filter(|b| b.keeps_tables())
            .collect();
        let [board] = boards.as_slice() else {
            return Err(ApiError::input(format!(
                "a checkpoint keeps the search table of one Cram board (a side of at most 8 \
                 cells, or at most 16 with the other at most 8); the expression holds {}",
                crate::words::count(boards.len(), "such board")
            )));
        };
        let checkpoint_error = |e: CheckpointError| match e {
            CheckpointError::Budget(b) => ApiError::budget(b, "loading the checkpoint"),
            e => ApiError::input(format!("checkpoint {e}")),
        };
        let loaded = if path.exists() {
            board.load_tables(path, budget).map_err(checkpoint_error)?
        } else {
            0
        };
        let analysis = crate::analysis::analyze_sum(&sum, &options).map_err(ApiError::from);
        let saved = board.save_tables(path).map_err(checkpoint_error);
        Ok(Resumed {
            analysis,
            loaded,
            saved,
        })
    }

    /// Every rule of the expression language, then the rule scripts' rules.
    pub fn rules(&self) -> Vec<RuleInfo> {
        let out: Vec<RuleInfo> = crate::catalog::rules()
            .map(|r| RuleInfo {
                name: r.name.to_string(),
                usage: r.usage.to_string(),
                summary: r.summary.to_string(),
                origin: None,
            })
            .collect();
        #[cfg(feature = "scripts")]
        let out = {
            let mut out = out;
            out.extend(self.catalog.scripts().iter().map(|s| RuleInfo {
                name: s.name().to_string(),
                usage: s.usage().to_string(),
                summary: s.summary().to_string(),
                origin: Some(s.origin().to_string()),
            }));
            out
        };
        out
    }

    /// The misère quotient of a heap rule's heaps, proven on every sum of them (and its heap
    /// map's period, proven by the periodicity theorem where it applies, computing further
    /// heaps for it).
    pub fn quotient(
        &self,
        req: &QuotientRequest,
        budget: &Budget,
    ) -> Result<QuotientReport, ApiError> {
        use crate::misere::MisereError;
        let rule = crate::heap::rules::HeapRule::parse(&req.rule)
            .map_err(|e| ApiError::expression(&e, &req.rule))?;
        let most = crate::misere::periodicity::MAX_NIM_HEAPS;
        if req.nim > most {
            return Err(ApiError::input(format!(
                "{} Nim heaps asked for beside the heaps, more than the {most} a closure may \
                 hold (each is a generator)",
                req.nim
            )));
        }
        let q = crate::misere::periodicity::heap_quotient_as_asked(
            &rule,
            req.nim,
            req.max_heap,
            budget,
            req.max_elements,
        )
        .map_err(|stop| match stop.error {
            MisereError::Budget(b) => ApiError::budget(b, rule.name()),
            e @ MisereError::TooManyElements { .. } => ApiError {
                kind: ErrorKind::Limit,
                message: format!("{}: {e}", rule.name()),
                span: None,
                limit: None,
            },
            e @ MisereError::HeapBound { .. } => ApiError::input(e.to_string()),
            e => ApiError::new(ErrorKind::Unsupported, format!("{}: {e}", rule.name())),
        })?;
        Ok(q.report())
    }
}

/// Every request and response type, for the schema: the names under `$defs`.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Everything {
    analyze_request: AnalyzeRequest,
    analysis: Analysis,
    sequence_request: SequenceRequest,
    sequence_report: SequenceReport,
    quotient_request: QuotientRequest,
    quotient_report: QuotientReport,
    graph_request: GraphRequest,
    graph_report: GraphReport,
    position_request: PositionRequest,
    play_request: PlayRequest,
    play_report: PlayReport,
    hint: crate::play::Hint,
    picture_report: PictureReport,
    rules: Vec<RuleInfo>,
    error: ApiError,
    atlas_request: AtlasRequest,
    atlas_report: AtlasReport,
    atlas_summary: AtlasSummary,
}

/// The JSON Schema of every request and response, generated from the types (draft 2020-12):
/// each type is a definition under `$defs`, named as the type is.
pub fn schema() -> serde_json::Value {
    let mut schema = schemars::schema_for!(Everything).to_value();
    if let Some(object) = schema.as_object_mut() {
        object.insert("title".into(), "grundy API".into());
        object.insert(
            "description".into(),
            "The requests and responses of grundy's typed API: `grundy ... --json`, the web \
             server's /api/ and the Python package print these shapes."
                .into(),
        );
        object.remove("properties");
        object.remove("required");
        object.remove("type");
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema file checked in beside the guide.
    fn schema_path() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/api.schema.json")
    }

    #[test]
    fn the_checked_in_schema_is_the_generated_one() {
        let generated = serde_json::to_string_pretty(&schema()).unwrap() + "\n";
        let path = schema_path();
        if std::env::var_os("GRUNDY_BLESS").is_some() {
            std::fs::write(&path, &generated).unwrap();
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == generated,
            "{} differs from the schema the types generate: run \
             `GRUNDY_BLESS=1 cargo test -p grundy --lib api::tests` and commit the file",
            path.display()
        );
    }

    #[test]
    fn the_schema_names_every_request_and_response() {
        let schema = schema();
        let defs = schema["$defs"].as_object().unwrap();
        for name in [
            "AnalyzeRequest",
            "Analysis",
            "ComponentReport",
            "SequenceRequest",
            "SequenceReport",
            "QuotientRequest",
            "QuotientReport",
            "GraphRequest",
            "GraphReport",
            "PlayRequest",
            "PlayReport",
            "Hint",
            "PictureReport",
            "RuleInfo",
            "ApiError",
            "AtlasRequest",
            "AtlasReport",
            "AtlasSummary",
            "GameCard",
        ] {
            assert!(
                defs.contains_key(name),
                "{name} missing from {:?}",
                defs.keys()
            );
        }
        // A response lists its fields: the schema of an analysis has the completeness flag.
        let analysis = &defs["Analysis"]["properties"];
        assert!(
            analysis.get("winning_moves_complete").is_some(),
            "{analysis}"
        );
    }

    #[test]
    fn every_request_refuses_unknown_fields() {
        let e = serde_json::from_str::<AnalyzeRequest>(r#"{"expression": "nim 1", "misre": true}"#)
            .unwrap_err();
        assert!(e.to_string().contains("misre"), "{e}");
        let r: AnalyzeRequest = serde_json::from_str(r#"{"expression": "nim 1"}"#).unwrap();
        assert_eq!(r, AnalyzeRequest::new("nim 1"));
    }

    #[test]
    fn responses_read_back_as_they_were_written() {
        let session = Session::new(Preset::Standard);
        for (expression, misere) in [("nim 3 + kayles 4", false), ("kayles 5 + nim 1", true)] {
            let req = AnalyzeRequest {
                misere,
                ..AnalyzeRequest::new(expression)
            };
            let budget = session.budget(&req.limits, req.task()).unwrap();
            let a = session.analyze(&req, &budget).unwrap();
            let text = serde_json::to_string(&a).unwrap();
            let back: Analysis = serde_json::from_str(&text).unwrap();
            assert_eq!(back, a);
        }
        let req = SequenceRequest::to("kayles", 200);
        let budget = session.budget(&req.limits, Task::Sequence).unwrap();
        let s = session.sequence(&req, &budget).unwrap();
        let back: SequenceReport =
            serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
        assert_eq!(
            s.period.as_ref().map(|p| (p.period, p.preperiod, p.proven)),
            Some((12, 71, true))
        );
    }

    #[test]
    fn errors_say_what_kind_and_where() {
        let session = Session::new(Preset::Standard);
        let req = AnalyzeRequest::new("nim 3 + nmi 4");
        let budget = session.budget(&req.limits, req.task()).unwrap();
        let e = session.analyze(&req, &budget).unwrap_err();
        assert_eq!((e.kind, e.span), (ErrorKind::Expression, Some([8, 11])));
        let req = AnalyzeRequest {
            limits: LimitRequest {
                max_work: Some(1000),
                ..Default::default()
            },
            ..AnalyzeRequest::new("cram 5x5")
        };
        let budget = session.budget(&req.limits, req.task()).unwrap();
        let e = session.analyze(&req, &budget).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit, "{e}");
        assert_eq!(
            e.limit,
            Some(crate::control::BudgetError::Work { limit: 1000 })
        );
    }
}
