//! The atlas's requests and answers: a family's games a page at a time, one game's card, and
//! what the atlas holds. The types are in every build (the schema is one); the answers come
//! from an open atlas in a build with the feature `atlas` (`Session::atlas`).

#[cfg(feature = "atlas")]
use super::{ApiError, ErrorKind, Session};
#[cfg(feature = "atlas")]
use crate::atlas::{Atlas, AtlasError, Family};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most rows one answer lists (and the default): a family holds up to 65,536 games, so
/// longer listings come a page at a time (`offset`).
pub const MAX_ATLAS_ROWS: u64 = 2000;

/// Ask the atlas: a family's games (`pattern`, with a `filter`, a page at a time) or one
/// game's card (`card`); exactly one of the two.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AtlasRequest {
    /// A family pattern (`0.??`, `sub(1..5)`, or one code): its games' rows.
    #[serde(default)]
    pub pattern: Option<String>,
    /// One game (`0.137`, `kayles`): its card.
    #[serde(default)]
    pub card: Option<String>,
    /// Which of the family's games: all, open (no proven period) or solved.
    #[serde(default)]
    pub filter: Filter,
    /// The first row to list, counting the rows that pass the filter from 0.
    #[serde(default)]
    pub offset: u64,
    /// The most rows to list, at most [`MAX_ATLAS_ROWS`] (the default).
    #[serde(default)]
    pub limit: Option<u64>,
}

impl AtlasRequest {
    /// The rows of `pattern`'s games that pass `filter`, the first page.
    pub fn family(pattern: impl Into<String>, filter: Filter) -> Self {
        AtlasRequest {
            pattern: Some(pattern.into()),
            filter,
            ..Default::default()
        }
    }

    /// The card of the game `code` names.
    pub fn card(code: impl Into<String>) -> Self {
        AtlasRequest {
            card: Some(code.into()),
            ..Default::default()
        }
    }

    /// What `grundy atlas TARGET` asks: the card of one game when `target` names one and no
    /// filter is asked for, else the rows of the family `target` (a pattern, or one game's
    /// row when filtered). A target that is neither a pattern nor a heap rule is refused.
    ///
    /// ```
    /// # use grundy::api::{AtlasRequest, Filter};
    /// assert_eq!(AtlasRequest::query("0.07", Filter::All).unwrap(), AtlasRequest::card("0.07"));
    /// assert_eq!(
    ///     AtlasRequest::query("0.??", Filter::Open).unwrap(),
    ///     AtlasRequest::family("0.??", Filter::Open)
    /// );
    /// assert_eq!(
    ///     AtlasRequest::query("kayles", Filter::Solved).unwrap(),
    ///     AtlasRequest::family("kayles", Filter::Solved)
    /// );
    /// assert!(AtlasRequest::query("0.?y", Filter::All).is_err());
    /// ```
    #[cfg(feature = "atlas")]
    pub fn query(target: &str, filter: Filter) -> Result<Self, ApiError> {
        let family = Family::parse(target.trim()).map_err(|e| atlas_error(e.into()))?;
        Ok(if family.is_pattern || filter != Filter::All {
            AtlasRequest::family(target, filter)
        } else {
            AtlasRequest::card(target)
        })
    }
}

/// A page of a family's rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AtlasPage {
    /// The family: its pattern, its games, those the atlas lacks, and this page's rows (in
    /// the family's order).
    pub family: FamilyRows,
    /// The filter applied.
    pub filter: Filter,
    /// How many of the family's games pass the filter, on every page.
    pub matching: u64,
    /// The first row of this page among them.
    pub offset: u64,
    /// Whether this page reaches the last matching row (`false`: ask again with a larger
    /// `offset` for the rest).
    pub complete: bool,
    /// The misère quotients of this page's games that a census computed (`--misere`).
    pub misere: Vec<MisereRow>,
}

/// The atlas's answer: exactly one of `family` (asked with `pattern`) and `card`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AtlasReport {
    /// A page of a family's games.
    pub family: Option<AtlasPage>,
    /// A game's card: its row, its twins, its misère quotient.
    pub card: Option<GameCard>,
}

/// What an atlas holds, in a few figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AtlasSummary {
    /// Games in the atlas.
    pub games: u64,
    /// Of them, the games with a proven period.
    pub solved: u64,
    /// The games with a misère quotient row.
    pub misere: u64,
    /// The families of its census runs, each once, oldest first.
    pub patterns: Vec<String>,
}

/// Where a game's proof stands, or that it was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// The period is proven.
    Proven,
    /// A period shows in the values computed, not proven.
    Apparent,
    /// No period shows in the values computed.
    None,
    /// The computation was refused (time limit, memory, engine limit): see `reason`.
    Refused,
}

impl GameStatus {
    /// The word stored in `games.status`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Proven => "proven",
            GameStatus::Apparent => "apparent",
            GameStatus::None => "none",
            GameStatus::Refused => "refused",
        }
    }

    #[cfg_attr(not(feature = "atlas"), allow(dead_code))]
    pub(crate) fn parse(s: &str) -> GameStatus {
        match s {
            "proven" => GameStatus::Proven,
            "apparent" => GameStatus::Apparent,
            "refused" => GameStatus::Refused,
            _ => GameStatus::None,
        }
    }
}

/// A row of `games`: one game's facts (the atlas's table `games`, described in the guide's atlas chapter).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameRow {
    /// The rule's canonical name.
    pub code: String,
    /// Proven, apparent, none or refused.
    pub status: GameStatus,
    /// The N asked for.
    pub target: u64,
    /// The last heap computed.
    pub computed_to: Option<u64>,
    /// The engine.
    pub engine: Option<String>,
    /// The period.
    pub period: Option<u64>,
    /// The preperiod.
    pub preperiod: Option<u64>,
    /// The saltus.
    pub saltus: Option<u64>,
    /// How the period is proven, in words.
    pub proof: Option<String>,
    /// The last heap outside the period.
    pub last_exceptional: Option<u64>,
    /// The largest value computed.
    pub max_value: Option<u64>,
    /// The first heap with the largest value.
    pub max_value_heap: Option<u64>,
    /// How many heaps computed have value 0.
    pub p_positions: Option<u64>,
    /// g(0) to g(63), space-separated.
    pub first_values: String,
    /// FNV-1a 64 of all the values computed.
    pub checksum: Option<String>,
    /// The sparse engine's mask.
    pub rare_mask: Option<u64>,
    /// The rare values, space-separated.
    pub rare_values: Option<String>,
    /// How many heaps have a rare value.
    pub rare_count: Option<u64>,
    /// The last rare heap found.
    pub last_rare: Option<u64>,
    /// Why refused.
    pub reason: Option<String>,
    /// Seconds spent.
    pub seconds: f64,
    /// The census run that wrote this row.
    pub run_id: Option<i64>,
    /// When it was written (UTC).
    pub finished_at: Option<String>,
}

/// Which games of a family to list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Filter {
    /// Every game the atlas has.
    #[default]
    All,
    /// Games with no proven period.
    Open,
    /// Games with a proven period.
    Solved,
}

/// The rows of a family's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FamilyRows {
    /// The pattern.
    pub pattern: String,
    /// Games in the family.
    pub games: u64,
    /// Games of the family the atlas does not have.
    pub missing: u64,
    /// The rows that pass the filter, in the family's order.
    pub rows: Vec<GameRow>,
}

/// A game whose sequence agrees with another's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Twin {
    /// The game.
    pub code: String,
    /// The sequences agree on g(0) to g(length - 1) (by their checksums), the longest prefix
    /// both have a checksum of.
    pub length: u64,
}

/// A game provably tied to another: by the shift rule ([`crate::heap::code::Code::shifted`]),
/// one heap along or with the same sequence, or by a move taking a whole heap that changes no
/// value ([`crate::heap::code::Code::whole_heap_twins`]), with the same sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProvenTwin {
    /// The other game.
    pub code: String,
    /// `g(n)` of the card's game is `g(n + offset)` of the other, for every `n` with `n +
    /// offset >= 0`: `-1`, `0` (the same sequence) or `1`.
    pub offset: i8,
    /// Why, in words.
    pub reason: String,
    /// Whether the atlas has the other game.
    pub in_atlas: bool,
}

/// One game's card: its row, the games with the same sequence and its misère quotient.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameCard {
    /// The game's row.
    pub game: GameRow,
    /// The games whose sequences agree with it (by the checksums of their prefixes).
    pub same_as: Vec<Twin>,
    /// The games provably the same one heap along, or with provably the same sequence
    /// (whether the atlas has them or not).
    pub proven_same: Vec<ProvenTwin>,
    /// Its bounded misère quotient, when a census computed it (`--misere`).
    pub misere: Option<MisereRow>,
}

/// A row of `misere`: one game's bounded misère quotient, or why it was refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MisereRow {
    /// The game (`games.code`).
    pub code: String,
    /// The closure of heaps 1 to this was asked for.
    pub max_heap: u64,
    /// Whether the quotient was computed (`false`: refused, see `reason`).
    pub computed: bool,
    /// The closure's largest heap.
    pub computed_to: Option<u64>,
    /// The quotient's order.
    pub order: Option<u64>,
    /// The size of its P-portion.
    pub p_portion: Option<u64>,
    /// The heap map's period, where one shows.
    pub period: Option<u64>,
    /// Its preperiod.
    pub preperiod: Option<u64>,
    /// Whether the period holds for every heap (the periodicity theorem), not only as far as
    /// computed.
    pub period_proven: Option<bool>,
    /// Why refused.
    pub reason: Option<String>,
    /// Seconds spent.
    pub seconds: f64,
    /// When it was written (UTC).
    pub finished_at: Option<String>,
}

/// An atlas failure as the API's error: a pattern or a query is the caller's to fix, the
/// file's trouble is not.
#[cfg(feature = "atlas")]
fn atlas_error(e: AtlasError) -> ApiError {
    match e {
        AtlasError::Family(_) | AtlasError::Query(_) | AtlasError::Input(_) => {
            ApiError::input(e.to_string())
        }
        AtlasError::Interrupted => ApiError::interrupted(),
        _ => ApiError::new(ErrorKind::Unsupported, e.to_string()),
    }
}

#[cfg(feature = "atlas")]
impl Session {
    /// Answers an atlas request from `atlas`.
    ///
    /// ```
    /// # use grundy::api::{AtlasRequest, Preset, Session};
    /// # use grundy::atlas::{Atlas, CensusOptions, Filter, census};
    /// # use grundy::control::Control;
    /// # let dir = std::env::temp_dir().join(format!("atlas-api-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir).unwrap();
    /// # let path = dir.join("atlas.sqlite");
    /// # let mut atlas = Atlas::create_or_open(&path).unwrap();
    /// # census(&mut atlas, &["0.?7".to_string()], &CensusOptions::new(300), &mut |_| {}, &Control::none()).unwrap();
    /// # drop(atlas);
    /// let atlas = Atlas::open(&path).unwrap();
    /// let session = Session::new(Preset::Shared);
    /// let page = session.atlas(&atlas, &AtlasRequest::family("0.?7", Filter::Solved)).unwrap();
    /// let page = page.family.unwrap();
    /// assert!(page.complete && page.family.rows.iter().any(|r| r.code == "0.77"));
    /// let card = session.atlas(&atlas, &AtlasRequest::card("kayles")).unwrap().card.unwrap();
    /// assert_eq!(card.game.period, Some(12));
    /// # drop(atlas); std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn atlas(&self, atlas: &Atlas, req: &AtlasRequest) -> Result<AtlasReport, ApiError> {
        let limit = req.limit.unwrap_or(MAX_ATLAS_ROWS);
        if limit == 0 || limit > MAX_ATLAS_ROWS {
            return Err(ApiError::input(format!(
                "`limit` {limit} is out of range: ask for 1 to {MAX_ATLAS_ROWS} rows (and the \
                 next ones with `offset`)"
            )));
        }
        match (&req.pattern, &req.card) {
            (Some(pattern), None) => {
                let mut rows = atlas
                    .family(pattern.trim(), req.filter)
                    .map_err(atlas_error)?;
                let matching = rows.rows.len() as u64;
                let start = usize::try_from(req.offset.min(matching)).unwrap_or(usize::MAX);
                let end = usize::try_from(req.offset.saturating_add(limit).min(matching))
                    .unwrap_or(usize::MAX);
                rows.rows.truncate(end);
                rows.rows.drain(..start);
                let mut misere = Vec::new();
                for row in &rows.rows {
                    if let Some(m) = atlas.misere_row(&row.code).map_err(atlas_error)? {
                        misere.push(m);
                    }
                }
                Ok(AtlasReport {
                    family: Some(AtlasPage {
                        family: rows,
                        filter: req.filter,
                        matching,
                        offset: req.offset,
                        complete: end as u64 == matching,
                        misere,
                    }),
                    card: None,
                })
            }
            (None, Some(code)) => {
                let family = Family::parse(code.trim()).map_err(|e| atlas_error(e.into()))?;
                if family.is_pattern {
                    return Err(ApiError::input(format!(
                        "`{code}` is a family pattern: a card is of one game (ask for the \
                         family's rows with `pattern`)"
                    )));
                }
                match atlas.card(code.trim()).map_err(atlas_error)? {
                    Some(card) => Ok(AtlasReport {
                        family: None,
                        card: Some(card),
                    }),
                    None => Err(ApiError::input(format!(
                        "{} is not in this atlas (a census computes it: grundy census {} --to N)",
                        code.trim(),
                        code.trim()
                    ))),
                }
            }
            _ => Err(ApiError::input(
                "ask for a family's rows (`pattern`) or one game's card (`card`): exactly one",
            )),
        }
    }

    /// What `atlas` holds: its games, the solved ones, the misère rows and the families of
    /// its census runs.
    pub fn atlas_summary(&self, atlas: &Atlas) -> Result<AtlasSummary, ApiError> {
        let count = |query: &str| -> Result<u64, ApiError> {
            let answer = atlas.sql(query, 1, None).map_err(atlas_error)?;
            Ok(answer
                .rows
                .first()
                .and_then(|r| r.first())
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0))
        };
        let has_misere =
            count("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'misere'")?
                > 0;
        let mut patterns: Vec<String> = Vec::new();
        for run in atlas.runs().map_err(atlas_error)? {
            for pattern in run.patterns.split_whitespace() {
                if !patterns.iter().any(|p| p == pattern) {
                    patterns.push(pattern.to_string());
                }
            }
        }
        Ok(AtlasSummary {
            games: count("SELECT count(*) FROM games")?,
            solved: count("SELECT count(*) FROM games WHERE status = 'proven'")?,
            misere: if has_misere {
                count("SELECT count(*) FROM misere")?
            } else {
                0
            },
            patterns,
        })
    }
}
