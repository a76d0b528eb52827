//! Game graphs: every vertex's value, outcome and remoteness, a sum of tokens, a kernel.

use super::{ApiError, ErrorKind, LimitRequest, Session};
use crate::control::{Budget, Control};
use crate::graph::explore::{ExploreError, explore};
use crate::graph::kernel::{KernelError, find_kernel_within};
use crate::graph::read::{ReadError, ReadOptions, read_edge_list, read_judge};
use crate::graph::{GameGraph, GraphSolution, Names, TokenMove, TokenSum, analyze_tokens, solve};
use crate::sum::{Context, Engine};
use crate::value::{Outcome, Value};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a graph's text is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GraphFormat {
    /// One `FROM TO` per line; a lone `NAME` declares a vertex; `#` starts a comment.
    #[default]
    Edges,
    /// The judge format: `N M K`, then `M` edges `x y` (vertices 1 to `N`), then `K` token
    /// vertices.
    Judge,
}

/// Solve a game graph given as text, or the graph of an expression's positions
/// ([`GraphReport`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphRequest {
    /// The graph's text (exactly one of `graph` and `expression`).
    #[serde(default)]
    pub graph: Option<String>,
    /// How `graph` is written.
    #[serde(default)]
    pub format: GraphFormat,
    /// A position whose reachable positions make the graph (vertex 0 is the position).
    #[serde(default)]
    pub expression: Option<String>,
    /// The vertices holding tokens (names; with `expression`, positions in any order of
    /// their components). The judge format's own tokens are used when this is empty.
    #[serde(default)]
    pub tokens: Vec<String>,
    /// Find a kernel (or prove there is none).
    #[serde(default)]
    pub kernel: bool,
    /// The most draw vertices handed to the kernel's SAT solver.
    #[serde(default = "default_kernel_draws")]
    pub max_kernel_draws: usize,
    /// Limits other than the preset's (`max_positions` bounds an explored expression).
    #[serde(default)]
    pub limits: LimitRequest,
}

fn default_kernel_draws() -> usize {
    2000
}

impl GraphRequest {
    /// The graph of this edge list.
    pub fn edges(text: impl Into<String>) -> Self {
        GraphRequest {
            graph: Some(text.into()),
            format: GraphFormat::Edges,
            expression: None,
            tokens: Vec::new(),
            kernel: false,
            max_kernel_draws: default_kernel_draws(),
            limits: LimitRequest::default(),
        }
    }
}

/// A vertex's value: a nimber, or Smith's `∞(K)` written `{"inf": K}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum VertexValue {
    /// A nimber.
    Finite(u64),
    /// `∞(K)`: a position from which play can go on forever; `inf` lists K, the finite
    /// values among its options.
    Infinite {
        /// The finite values among the options.
        inf: Vec<u64>,
    },
}

impl From<&Value> for VertexValue {
    fn from(v: &Value) -> Self {
        match v {
            Value::Finite(n) => VertexValue::Finite(n.0),
            Value::Infinite(k) => VertexValue::Infinite {
                inf: k.iter().map(|n| n.0).collect(),
            },
        }
    }
}

/// One vertex of a solved graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VertexReport {
    /// Its name.
    pub name: String,
    /// Its (generalised) Sprague–Grundy value.
    pub value: VertexValue,
    /// Its outcome: `P`, `N`, or `D` for a draw.
    pub outcome: Outcome,
    /// Moves left with best play (`null` in a draw).
    pub remoteness: Option<u32>,
}

impl VertexReport {
    /// Vertex `v` of `graph` as `solution` has it.
    pub fn of(graph: &GameGraph, solution: &GraphSolution, v: u32) -> Self {
        VertexReport {
            name: graph.name(v).into_owned(),
            value: VertexValue::from(&solution.value(&graph.csr, v)),
            outcome: solution.outcome(v),
            remoteness: solution.remoteness(v),
        }
    }
}

/// A move of one token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TokenMoveReport {
    /// Which token (0-based, in the order given).
    pub token: usize,
    /// The vertex it leaves.
    pub from: String,
    /// The vertex it moves to.
    pub to: String,
}

/// A sum of tokens, by Smith's rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TokenSumReport {
    /// The vertices holding the tokens.
    pub tokens: Vec<String>,
    /// The sum's value, when Smith's rules determine it (not with two or more infinite
    /// tokens).
    pub value: Option<VertexValue>,
    /// Who wins.
    pub outcome: Outcome,
    /// Every move to a P-position.
    pub winning_moves: Vec<TokenMoveReport>,
    /// In a draw: every move that keeps the draw.
    pub drawing_moves: Vec<TokenMoveReport>,
}

impl TokenSumReport {
    /// The sum of tokens at `tokens` of `graph`.
    pub fn of(graph: &GameGraph, tokens: &[u32], sum: &TokenSum) -> Self {
        let moves = |list: &[TokenMove]| {
            list.iter()
                .map(|m| TokenMoveReport {
                    token: m.token,
                    from: graph.name(m.from).into_owned(),
                    to: graph.name(m.to).into_owned(),
                })
                .collect()
        };
        TokenSumReport {
            tokens: tokens.iter().map(|&t| graph.name(t).into_owned()).collect(),
            value: sum.value.as_ref().map(VertexValue::from),
            outcome: sum.outcome,
            winning_moves: moves(&sum.winning_moves),
            drawing_moves: moves(&sum.drawing_moves),
        }
    }
}

/// A kernel of the graph: an independent set that every vertex outside it moves into.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct KernelSummary {
    /// A kernel, or `null` when the graph has none.
    pub vertices: Option<Vec<String>>,
    /// Whether it is the only kernel.
    pub unique: bool,
}

/// A solved game graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GraphReport {
    /// Whether the graph has no cycle.
    pub acyclic: bool,
    /// Every vertex.
    pub vertices: Vec<VertexReport>,
    /// The sum of the tokens, when tokens were given.
    pub sum: Option<TokenSumReport>,
    /// The kernel, when asked for.
    pub kernel: Option<KernelSummary>,
}

/// The parts of a solved graph that a report is made of.
#[derive(Debug)]
pub struct SolvedGraph {
    /// The graph.
    pub graph: GameGraph,
    /// Every vertex's value, outcome and remoteness.
    pub solution: GraphSolution,
    /// The vertices holding tokens.
    pub tokens: Vec<u32>,
    /// Their sum, when there are tokens.
    pub sum: Option<TokenSum>,
    /// The kernel, when asked for.
    pub kernel: Option<KernelSummary>,
}

impl SolvedGraph {
    /// The report: every vertex, the sum and the kernel.
    pub fn report(&self) -> GraphReport {
        GraphReport {
            acyclic: self.solution.acyclic,
            vertices: (0..self.graph.vertex_count() as u32)
                .map(|v| VertexReport::of(&self.graph, &self.solution, v))
                .collect(),
            sum: self
                .sum
                .as_ref()
                .map(|s| TokenSumReport::of(&self.graph, &self.tokens, s)),
            kernel: self.kernel.clone(),
        }
    }
}

/// A reader's error as the API's.
fn read_error(e: ReadError) -> ApiError {
    match e {
        ReadError::TooLarge { .. } => ApiError::new(ErrorKind::Limit, e.to_string()),
        e => ApiError::input(e.to_string()),
    }
}

impl Session {
    /// Reads (or explores) the graph a request names and solves it, with its tokens' sum and
    /// its kernel when asked, under `budget`.
    pub fn solve_graph(
        &self,
        req: &GraphRequest,
        budget: &Budget,
    ) -> Result<SolvedGraph, ApiError> {
        let options = ReadOptions {
            max_bytes: budget.limits().max_bytes,
        };
        let (graph, own_tokens) = match (&req.graph, &req.expression) {
            (Some(text), None) => match req.format {
                GraphFormat::Edges => (
                    read_edge_list(text.as_bytes(), &options).map_err(read_error)?,
                    Vec::new(),
                ),
                GraphFormat::Judge => {
                    let input = read_judge(text.as_bytes(), &options).map_err(read_error)?;
                    (
                        GameGraph {
                            csr: input.graph,
                            names: Names::Numbered,
                        },
                        input.tokens,
                    )
                }
            },
            (None, Some(expr)) => {
                let sum = self
                    .catalog
                    .parse(expr)
                    .map_err(|e| ApiError::expression(&e, expr))?;
                let ctx = Context {
                    engine: Engine::Fast,
                    budget: budget.clone(),
                    end_table: self.end_table.clone(),
                };
                let graph =
                    explore(&sum, &ctx, budget.limits().max_positions).map_err(|e| {
                        match e.budget_error() {
                            Some(b) => ApiError::budget(b, "exploring the positions"),
                            None if matches!(
                                e,
                                ExploreError::TooManyPositions { .. }
                                    | ExploreError::TooManyMoves { .. }
                            ) =>
                            {
                                ApiError::new(ErrorKind::Limit, e.to_string())
                            }
                            None => ApiError::new(ErrorKind::Unsupported, e.to_string()),
                        }
                    })?;
                (graph, vec![0])
            }
            _ => {
                return Err(ApiError::input(
                    "give the graph's text (`graph`) or a position to explore (`expression`), \
                     one of them",
                ));
            }
        };
        let tokens = if req.tokens.is_empty() {
            own_tokens
        } else {
            req.tokens
                .iter()
                .map(|name| {
                    graph
                        .find(name)
                        .or_else(|| {
                            req.expression
                                .as_ref()
                                .and_then(|_| find_position(&graph, name))
                        })
                        .ok_or_else(|| {
                            ApiError::input(format!(
                                "tokens: no vertex named `{name}` in the graph"
                            ))
                        })
                })
                .collect::<Result<Vec<u32>, ApiError>>()?
        };
        let mut control = Control::none().with_cancel(budget.cancel_flag());
        let solution = solve(&graph.csr, &mut control).map_err(|_| ApiError::interrupted())?;
        let sum = (!tokens.is_empty()).then(|| analyze_tokens(&graph.csr, &solution, &tokens));
        let kernel = if req.kernel {
            let k = find_kernel_within(&graph.csr, &solution, req.max_kernel_draws, budget)
                .map_err(|e| match e {
                    KernelError::Budget(b) => ApiError::budget(b, "the kernel search"),
                    e @ KernelError::NoSolver { .. } => {
                        ApiError::new(ErrorKind::Unsupported, e.to_string())
                    }
                    e => ApiError::new(ErrorKind::Limit, e.to_string()),
                })?;
            Some(KernelSummary {
                vertices: k
                    .kernel
                    .map(|k| k.iter().map(|&v| graph.name(v).into_owned()).collect()),
                unique: k.unique,
            })
        } else {
            None
        };
        Ok(SolvedGraph {
            graph,
            solution,
            tokens,
            sum,
            kernel,
        })
    }

    /// As [`Session::solve_graph`], the report.
    pub fn graph(&self, req: &GraphRequest, budget: &Budget) -> Result<GraphReport, ApiError> {
        Ok(self.solve_graph(req, budget)?.report())
    }
}

/// With an explored expression, a token may name a position in any order of its components
/// (`nim 3 2` for the vertex `nim 2 3`).
pub fn find_position(graph: &GameGraph, text: &str) -> Option<u32> {
    let key = crate::catalog::parse(text).ok()?.key();
    (0..graph.vertex_count() as u32)
        .find(|&v| crate::catalog::parse(&graph.name(v)).is_ok_and(|p| p.key() == key))
}
