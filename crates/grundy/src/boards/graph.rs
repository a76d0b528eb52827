//! Node Kayles and Arc Kayles on any graph: `node-kayles 0-1 1-2 2-3 3-0 2-4`, `5` alone is
//! an isolated vertex.
//!
//! - Node Kayles: take a vertex; it and its neighbours leave.
//! - Arc Kayles: take an edge; its two ends leave (with every edge at them).
//!
//! For the search ([`GraphGame`]) a position is the set of vertices left, a `u128` over a
//! fixed graph of at most 128 vertices, split into connected parts by flood fill over the
//! adjacency masks. Parts are not relabelled canonically (that is graph isomorphism); only
//! equal vertex sets share a table entry. Paths and cycles are closed forms at any size: a
//! path of `n` vertices is Dawson's chess (0.137) under Node Kayles and Dawson's Kayles
//! (0.07) under Arc Kayles, and a cycle's every move leaves one path.

use super::plain::PlainGraph;
use super::{charge_listing, heap_value, search_error};
use crate::expr::{ExprError, Spanned, parse_u64};
use crate::nimber::Nimber;
use crate::search::{Options, SearchGame, Searcher};
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Engine, Move, moves_to_value_by_search};

/// The most vertices of a graph (or of one connected part) the search handles.
pub const MAX_VERTICES: usize = 128;
/// The most vertices plus edges of a graph whose moves are listed.
pub const MAX_LISTED: usize = 1 << 16;

/// The game played on the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GraphRule {
    /// Take a vertex and its neighbours.
    NodeKayles,
    /// Take the two ends of an edge.
    ArcKayles,
}

impl GraphRule {
    fn path_code(self) -> &'static str {
        match self {
            GraphRule::NodeKayles => "0.137",
            GraphRule::ArcKayles => "0.07",
        }
    }
}

/// A graph position: named vertices (whole numbers) and edges between them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphGameComponent {
    /// The game.
    pub rule: GraphRule,
    /// The vertex names, ascending.
    pub vertices: Vec<u64>,
    /// The edges, as indices into `vertices`, `(a, b)` with `a < b`, in the order written.
    pub edges: Vec<(usize, usize)>,
}

impl GraphGameComponent {
    /// Reads `u-v` edges and lone vertices.
    pub fn parse(rule: GraphRule, args: &[Spanned<String>]) -> Result<Self, ExprError> {
        let mut names = Vec::new();
        let mut raw_edges = Vec::new();
        for arg in args {
            let text = arg.value.as_str();
            let part = |s: &str, off: usize| {
                let span = arg.span.start + off..arg.span.start + off + s.len().max(1);
                parse_u64(
                    &Spanned {
                        value: s.to_string(),
                        span,
                    },
                    "a vertex",
                )
            };
            match text.split_once('-') {
                Some((a, b)) => {
                    let (u, v) = (part(a, 0)?, part(b, a.len() + 1)?);
                    if u == v {
                        return Err(ExprError::new(
                            arg.span.clone(),
                            format!(
                                "`{}` joins a vertex to itself: these games take simple graphs",
                                crate::expr::shorten(text)
                            ),
                        ));
                    }
                    names.extend([u, v]);
                    raw_edges.push((u.min(v), u.max(v)));
                }
                None => names.push(part(text, 0)?),
            }
        }
        names.sort_unstable();
        names.dedup();
        let index = |v: u64| names.binary_search(&v).unwrap_or(0);
        let mut edges: Vec<(usize, usize)> = Vec::new();
        for (u, v) in raw_edges {
            let e = (index(u), index(v));
            if !edges.contains(&e) {
                edges.push(e);
            }
        }
        Ok(GraphGameComponent {
            rule,
            vertices: names,
            edges,
        })
    }

    /// The graph induced on the vertices `keep` (indices) says true for.
    fn induced(&self, keep: &[bool]) -> Option<GraphGameComponent> {
        let mut new_index = vec![usize::MAX; self.vertices.len()];
        let mut vertices = Vec::new();
        for (i, &v) in self.vertices.iter().enumerate() {
            if keep[i] {
                new_index[i] = vertices.len();
                vertices.push(v);
            }
        }
        if vertices.is_empty() {
            return None;
        }
        let edges = self
            .edges
            .iter()
            .filter(|(a, b)| keep[*a] && keep[*b])
            .map(|&(a, b)| (new_index[a], new_index[b]))
            .collect();
        Some(GraphGameComponent {
            rule: self.rule,
            vertices,
            edges,
        })
    }

    /// The connected parts, as lists of vertex indices (union-find, any size).
    fn parts(&self) -> Vec<Vec<usize>> {
        let n = self.vertices.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(p: &mut [usize], mut x: usize) -> usize {
            while p[x] != x {
                p[x] = p[p[x]];
                x = p[x];
            }
            x
        }
        for &(a, b) in &self.edges {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            parent[ra] = rb;
        }
        let mut by_root: Vec<Vec<usize>> = vec![Vec::new(); n];
        for v in 0..n {
            let r = find(&mut parent, v);
            by_root[r].push(v);
        }
        by_root.into_iter().filter(|p| !p.is_empty()).collect()
    }

    fn degrees(&self) -> Vec<usize> {
        let mut d = vec![0; self.vertices.len()];
        for &(a, b) in &self.edges {
            d[a] += 1;
            d[b] += 1;
        }
        d
    }

    /// Every move, described, with the graph it leaves.
    fn move_list(
        &self,
        ctx: &Context,
    ) -> Result<Vec<(String, Option<GraphGameComponent>)>, AnalysisError> {
        let size = (self.vertices.len() + self.edges.len()) as u64;
        ctx.budget
            .afford(size.saturating_mul(size))
            .map_err(|e| AnalysisError::budget(self, e))?;
        if self.vertices.len() + self.edges.len() > MAX_LISTED {
            return Err(AnalysisError::unsupported(
                self,
                format!(
                    "the graph is too large to list its moves (more than {MAX_LISTED} vertices and edges)"
                ),
            ));
        }
        let n = self.vertices.len();
        let mut out = Vec::new();
        match self.rule {
            GraphRule::NodeKayles => {
                let mut neighbours = vec![Vec::new(); n];
                for &(a, b) in &self.edges {
                    neighbours[a].push(b);
                    neighbours[b].push(a);
                }
                for v in 0..n {
                    let mut keep = vec![true; n];
                    keep[v] = false;
                    for &u in &neighbours[v] {
                        keep[u] = false;
                    }
                    out.push((
                        format!("take vertex {}", self.vertices[v]),
                        self.induced(&keep),
                    ));
                }
            }
            GraphRule::ArcKayles => {
                for &(a, b) in &self.edges {
                    let mut keep = vec![true; n];
                    keep[a] = false;
                    keep[b] = false;
                    let d = format!("take edge {}-{}", self.vertices[a], self.vertices[b]);
                    out.push((d, self.induced(&keep)));
                }
            }
        }
        charge_listing(self, out.len(), n + self.edges.len(), ctx)?;
        Ok(out)
    }

    /// The search game over this graph, if it has at most 128 vertices.
    fn search_game(&self) -> Option<GraphGame> {
        GraphGame::new(self.rule, self.vertices.len(), &self.edges)
    }

    fn all_mask(&self) -> u128 {
        u128::MAX >> (128 - self.vertices.len().clamp(1, 128))
    }

    fn too_big(&self, part: usize) -> AnalysisError {
        AnalysisError::unsupported(
            self,
            format!(
                "a connected part has {part} vertices; the position search handles at most {MAX_VERTICES}, and only paths and cycles have a closed form at any size"
            ),
        )
    }
}

/// Node Kayles or Arc Kayles on a graph of at most 128 vertices, as a [`SearchGame`]: a key
/// is the set of vertices of one connected part.
#[derive(Clone, Debug)]
pub struct GraphGame {
    rule: GraphRule,
    adj: Vec<u128>,
    edges: Vec<(usize, usize)>,
    path: Vec<u32>,
}

impl GraphGame {
    /// The game on the graph with `n ≤ 128` vertices `0..n` and these edges.
    pub fn new(rule: GraphRule, n: usize, edges: &[(usize, usize)]) -> Option<GraphGame> {
        if n > MAX_VERTICES {
            return None;
        }
        let mut adj = vec![0u128; n];
        for &(a, b) in edges {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        // Path values from the definition (as for boards): Node Kayles leaves i − 1 and
        // n − i − 2, Arc Kayles i and n − i − 2.
        let mut path = vec![0u32; MAX_VERTICES + 1];
        for len in 1..=MAX_VERTICES {
            let mut seen = [false; 256];
            for i in 0..len {
                let (l, r) = match rule {
                    GraphRule::NodeKayles => (i.saturating_sub(1), len.saturating_sub(i + 2)),
                    GraphRule::ArcKayles if i + 1 < len => (i, len - i - 2),
                    GraphRule::ArcKayles => continue,
                };
                seen[(path[l] ^ path[r]) as usize & 255] = true;
            }
            path[len] = seen.iter().position(|s| !s).unwrap_or(255) as u32;
        }
        Some(GraphGame {
            rule,
            adj,
            edges: edges.to_vec(),
            path,
        })
    }

    /// Splits the vertex set `set` into connected parts.
    pub fn split(&self, set: u128, mut f: impl FnMut(u128)) {
        let mut rest = set;
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let mut comp = seed;
            let mut frontier = seed;
            while frontier != 0 {
                let mut next = 0u128;
                let mut bits = frontier;
                while bits != 0 {
                    let v = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    next |= self.adj[v];
                }
                frontier = next & rest & !comp;
                comp |= frontier;
            }
            rest &= !comp;
            f(comp);
        }
    }

    fn push_result(&self, set: u128, out: &mut Options<u128>) {
        self.split(set, |c| out.push_part(c));
        out.end_option();
    }
}

impl SearchGame for GraphGame {
    type Key = u128;

    fn options(&self, &set: &u128, out: &mut Options<u128>) {
        match self.rule {
            GraphRule::NodeKayles => {
                let mut bits = set;
                while bits != 0 {
                    let v = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.push_result(set & !(self.adj[v] | 1 << v), out);
                }
            }
            GraphRule::ArcKayles => {
                for &(a, b) in &self.edges {
                    let ends = (1u128 << a) | (1u128 << b);
                    if set & ends == ends {
                        self.push_result(set & !ends, out);
                    }
                }
            }
        }
    }

    fn size(&self, set: &u128) -> u32 {
        set.count_ones()
    }

    fn known_value(&self, &set: &u128) -> Option<u32> {
        let n = set.count_ones() as usize;
        let mut edges2 = 0;
        let mut bits = set;
        while bits != 0 {
            let v = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let d = (self.adj[v] & set).count_ones();
            if d > 2 {
                return None;
            }
            edges2 += d as usize;
        }
        let edges = edges2 / 2;
        if edges + 1 == n {
            self.path.get(n).copied()
        } else {
            let after = match self.rule {
                GraphRule::NodeKayles => n - 3,
                GraphRule::ArcKayles => n - 2,
            };
            self.path.get(after).map(|&v| u32::from(v == 0))
        }
    }
}

impl Component for GraphGameComponent {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Board
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        match self.rule {
            GraphRule::NodeKayles => "node-kayles",
            GraphRule::ArcKayles => "arc-kayles",
        }
        .to_string()
    }

    fn args(&self) -> Vec<String> {
        let mut used = vec![false; self.vertices.len()];
        let mut out = Vec::new();
        for &(a, b) in &self.edges {
            used[a] = true;
            used[b] = true;
            out.push(format!("{}-{}", self.vertices[a], self.vertices[b]));
        }
        for (i, v) in self.vertices.iter().enumerate() {
            if !used[i] {
                out.push(v.to_string());
            }
        }
        out
    }

    fn value(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        if let Some(game) = self.search_game() {
            let mut parts = Vec::new();
            game.split(self.all_mask(), |c| parts.push(c));
            let mut s =
                Searcher::new(&game, &ctx.budget).map_err(|e| AnalysisError::budget(self, e))?;
            let v = s.value_of_sum(&parts).map_err(|e| search_error(self, e))?;
            return Ok(Nimber(u64::from(v)));
        }
        // Too big for one search: part by part, paths and cycles by their octal games.
        let degrees = self.degrees();
        let mut total = 0u64;
        for part in self.parts() {
            let n = part.len();
            let edges = part.iter().map(|&v| degrees[v]).sum::<usize>() / 2;
            let simple = part.iter().all(|&v| degrees[v] <= 2);
            let v = if simple && edges + 1 == n {
                heap_value(self, self.rule.path_code(), n as u64, ctx)?
            } else if simple && edges == n {
                let shrink = match self.rule {
                    GraphRule::NodeKayles => 3,
                    GraphRule::ArcKayles => 2,
                };
                u64::from(heap_value(self, self.rule.path_code(), (n - shrink) as u64, ctx)? == 0)
            } else {
                let mut keep = vec![false; self.vertices.len()];
                for &v in &part {
                    keep[v] = true;
                }
                let sub = self
                    .induced(&keep)
                    .filter(|g| g.vertices.len() <= MAX_VERTICES)
                    .ok_or_else(|| self.too_big(n))?;
                sub.value(ctx)?.0
            };
            total ^= v;
        }
        Ok(Nimber(total))
    }

    fn notes(&self) -> Vec<String> {
        // Name the closed form when every connected part is a path or a cycle: then the
        // value came from the heap engines, not from the search (any size).
        let degrees = self.degrees();
        let (mut paths, mut cycles) = (0usize, 0usize);
        for part in self.parts() {
            if part.iter().any(|&v| degrees[v] > 2) {
                return Vec::new();
            }
            let edges = part.iter().map(|&v| degrees[v]).sum::<usize>() / 2;
            if edges + 1 == part.len() {
                paths += 1;
            } else {
                cycles += 1;
            }
        }
        let (code, game, shrink) = match self.rule {
            GraphRule::NodeKayles => (self.rule.path_code(), "Dawson's chess", 3),
            GraphRule::ArcKayles => (self.rule.path_code(), "Dawson's Kayles", 2),
        };
        let name = (self as &dyn Component).to_string();
        let mut text = format!(
            "{name}: every connected part is a path or a cycle ({paths} path{}, {cycles} cycle{}): a path of n vertices is {game} ({code}) on a heap of n",
            if paths == 1 { "" } else { "s" },
            if cycles == 1 { "" } else { "s" },
        );
        if cycles > 0 {
            text.push_str(&format!(
                ", and every move on a cycle of n vertices leaves a path of n − {shrink}, so the cycle is worth 1 when that path is worth 0 and 0 otherwise"
            ));
        }
        text.push('.');
        vec![text]
    }

    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        let game = PlainGraph {
            edges: self.edges.clone(),
            arc_kayles: self.rule == GraphRule::ArcKayles,
        };
        Solver::with_budget(game, &ctx.budget)
            .value(&vec![true; self.vertices.len()])
            .map_err(|e| AnalysisError::solve(self, e))
    }

    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        Ok(self
            .move_list(ctx)?
            .into_iter()
            .map(|(description, g)| Move {
                description,
                result: g
                    .into_iter()
                    .map(|g| Box::new(g) as Box<dyn Component>)
                    .collect(),
            })
            .collect())
    }

    fn moves_to_value(&self, target: Nimber, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        let game = match self.search_game() {
            Some(g) if ctx.engine == Engine::Fast => g,
            _ => return moves_to_value_by_search(self, target, ctx),
        };
        let Ok(target) = u32::try_from(target.0) else {
            return Ok(Vec::new());
        };
        let mut s =
            Searcher::new(&game, &ctx.budget).map_err(|e| AnalysisError::budget(self, e))?;
        let all = self.all_mask();
        let mut found = Vec::new();
        // The moves in the order move_list gives them.
        let mut results = Vec::new();
        match self.rule {
            GraphRule::NodeKayles => {
                for v in 0..self.vertices.len() {
                    results.push(all & !(game.adj[v] | 1 << v));
                }
            }
            GraphRule::ArcKayles => {
                for &(a, b) in &self.edges {
                    results.push(all & !((1u128 << a) | (1u128 << b)));
                }
            }
        }
        for ((description, g), set) in self.move_list(ctx)?.into_iter().zip(results) {
            let mut parts = Vec::new();
            game.split(set, |c| parts.push(c));
            if s.sum_is(&parts, target)
                .map_err(|e| search_error(self, e))?
            {
                found.push(Move {
                    description,
                    result: g
                        .into_iter()
                        .map(|g| Box::new(g) as Box<dyn Component>)
                        .collect(),
                });
            }
        }
        Ok(found)
    }

    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(self.clone())
    }
}
