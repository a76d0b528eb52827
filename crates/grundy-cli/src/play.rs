//! `grundy play`: play a game against the perfect opponent, one plain line of input at a time
//! (so it can be scripted: `printf '1\nhint\n' | grundy play nim 3 4 5`).

use crate::Failure;
use grundy::play::{Choice, Game, PlayError, Player, Status};
use grundy::sum::{Context, Engine};
use std::io::{BufRead, Write};

/// Play against a perfect opponent: you move, grundy answers.
///
/// Type a move's number, or the position it leads to (as an expression). Commands: `hint`
/// (the winning moves and why), `undo` (take back your last move and the reply), `new EXPR`
/// (start another game), `moves` (list the moves again), `help`, `quit`. End of input ends
/// the game.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position, such as nim 3 4 5 (quotes are optional).
    #[arg(required = true, num_args = 1..)]
    expression: Vec<String>,
    /// Misère play: the player who makes the last move loses.
    #[arg(long)]
    misere: bool,
    /// The computer makes the first move.
    #[arg(long)]
    computer_first: bool,
    /// Play on a game graph read from FILE (an edge list, as `grundy graph` reads it; cycles
    /// and draws allowed); the arguments are then the vertices holding tokens.
    #[arg(long, value_name = "FILE")]
    graph: Option<std::path::PathBuf>,
}

/// The most moves listed one per line; longer lists are summarised.
const MAX_LISTED: usize = 40;

const HELP: &str = "\
Type a move's number, or the position it leads to (for example `nim 3 1 5`).
Commands:
  hint       who wins from here, the winning moves and why
  undo       take back your last move (and the computer's reply)
  moves      list the legal moves again
  new EXPR   start a new game from EXPR (same play rules)
  help       this text
  quit       stop playing
";

struct Session {
    game: Game,
    misere: bool,
    first: Player,
    /// The graph the tokens move on, with `--graph`.
    graph: Option<grundy::graph::GameGraph>,
}

fn context(misere: bool) -> Context {
    // Each command gets a fresh budget: a request never inherits another's spent work. The
    // limits are the library's, as everywhere else (a misère search stores whole positions).
    let task = if misere {
        grundy::api::Task::AnalyzeMisere
    } else {
        grundy::api::Task::Play
    };
    Context::new(Engine::Fast, grundy::api::Preset::Standard.limits(task))
}

pub fn run(args: Args) -> Result<(), Failure> {
    let text = args.expression.join(" ");
    let first = if args.computer_first {
        Player::Computer
    } else {
        Player::Human
    };
    let graph = match &args.graph {
        Some(path) => {
            let file = std::fs::File::open(path)
                .map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display())))?;
            let read = grundy::graph::read::read_edge_list(
                std::io::BufReader::new(file),
                &grundy::graph::read::ReadOptions::default(),
            )
            .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
            Some(read)
        }
        None => None,
    };
    let mut session = Session {
        game: Game::from_sum(grundy::sum::Sum::default(), args.misere, first),
        misere: args.misere,
        first,
        graph,
    };
    session.game = session.new_game(&text).map_err(Failure::input)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = session.play(&mut input, &mut out);
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::compute(format!("cannot read or write: {e}"))),
        Ok(()) => Ok(()),
    }
}

impl Session {
    /// A new game from an expression, or, on a graph, from the vertices holding tokens.
    fn new_game(&self, text: &str) -> Result<Game, String> {
        if let Some(graph) = &self.graph {
            let names: Vec<&str> = text.split_whitespace().collect();
            if names.is_empty() {
                return Err("name the vertices that hold tokens".into());
            }
            let sum =
                grundy::play::board::tokens(graph.clone(), &names).map_err(|e| e.to_string())?;
            return Ok(Game::from_sum(sum, self.misere, self.first));
        }
        Game::new(text, self.misere, self.first).map_err(|e| match e {
            PlayError::Expr(e) => format!("invalid expression\n{}", e.render(text)),
            e => e.to_string(),
        })
    }

    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
        let rules = if self.misere {
            "misère play: whoever makes the last move loses"
        } else {
            "normal play: whoever makes the last move wins"
        };
        writeln!(
            out,
            "Playing {} ({rules}). Type `help` for the commands.",
            self.game.position()
        )?;
        let mut show_moves = true;
        loop {
            let ctx = context(self.misere);
            // `None`: the position cannot be played here (said once; the game is not over).
            let status = match self.game.status_in(&ctx) {
                Ok(s) => Some(s),
                Err(e) => {
                    if show_moves {
                        writeln!(out)?;
                        writeln!(out, "Position: {}", self.game.position())?;
                        writeln!(out, "This position cannot be played here: {e}")?;
                    }
                    None
                }
            };
            match status {
                None => write!(out, "(new EXPR, undo or quit)> ")?,
                Some(Status::ToMove(Player::Computer)) => {
                    self.computer_moves(out)?;
                    show_moves = true;
                    continue;
                }
                Some(Status::ToMove(Player::Human)) => {
                    if show_moves {
                        writeln!(out)?;
                        writeln!(out, "Position: {}", self.game.position())?;
                        self.list_moves(out, &ctx)?;
                    }
                    write!(out, "Your move> ")?;
                }
                Some(Status::Won(winner)) => {
                    if show_moves {
                        writeln!(out)?;
                        writeln!(out, "Position: {}", self.game.position())?;
                        writeln!(out, "{}", game_over(winner))?;
                    }
                    write!(out, "(new EXPR, undo or quit)> ")?;
                }
            }
            out.flush()?;
            let line = match read_line(input, MAX_LINE)? {
                Line::End => {
                    writeln!(out)?;
                    writeln!(out, "Bye.")?;
                    return Ok(());
                }
                Line::TooLong => {
                    writeln!(
                        out,
                        "Line ignored: it is longer than {MAX_LINE} bytes (write a long position to a file and use `grundy analyze --file`)."
                    )?;
                    show_moves = false;
                    continue;
                }
                Line::NotText => {
                    writeln!(out, "Line ignored: it is not UTF-8 text.")?;
                    show_moves = false;
                    continue;
                }
                Line::Text(line) => line,
            };
            let line = line.trim();
            show_moves = false;
            let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            match command {
                "" => show_moves = true,
                "quit" | "exit" | "q" => {
                    writeln!(out, "Bye.")?;
                    return Ok(());
                }
                "help" | "?" => write!(out, "{HELP}")?,
                "moves" | "list" => show_moves = true,
                "hint" | "why" => self.hint(out)?,
                "undo" => {
                    let taken = self.game.undo_for(Player::Human);
                    if taken == 0 {
                        writeln!(out, "Nothing to undo.")?;
                    } else {
                        writeln!(
                            out,
                            "Took back {taken} {}.",
                            grundy::words::plural(taken, "move")
                        )?;
                        show_moves = true;
                    }
                }
                "new" => match self.new_game(rest.trim()) {
                    Ok(game) => {
                        self.game = game;
                        writeln!(out, "New game: {}", self.game.position())?;
                        show_moves = true;
                    }
                    Err(e) => writeln!(out, "{e}")?,
                },
                _ => {
                    match status {
                        Some(Status::Won(_)) => {
                            writeln!(out, "The game is over: type `new EXPR`, `undo` or `quit`.")?;
                            continue;
                        }
                        None => {
                            writeln!(
                                out,
                                "This position cannot be played here: type `new EXPR`, `undo` or `quit`."
                            )?;
                            continue;
                        }
                        Some(Status::ToMove(_)) => {}
                    }
                    match self.game.choose(line, &ctx) {
                        Ok(choice) => {
                            writeln!(out, "You: {}", describe(&choice))?;
                            self.game.apply(&choice);
                            show_moves = true;
                        }
                        Err(PlayError::Expr(e)) => writeln!(
                            out,
                            "Not a move: type a number from the list, a position, or `help`.\n{}",
                            e.render(line)
                        )?,
                        Err(e) => writeln!(out, "Not a move: {e}.")?,
                    }
                }
            }
        }
    }

    fn computer_moves(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let ctx = context(self.misere);
        match self.game.reply(&ctx) {
            Ok(reply) => {
                writeln!(out)?;
                writeln!(out, "Position: {}", self.game.position())?;
                writeln!(out, "Computer: {}", describe(&reply.choice))?;
                writeln!(out, "  ({})", reply.explanation)?;
                self.game.apply(&reply.choice);
            }
            Err(e) => {
                // No reply could be found (the budget ran out): the computer resigns rather
                // than hang.
                writeln!(out, "The computer cannot find a move ({e}) and resigns.")?;
                self.game = Game::from_sum(grundy::sum::Sum::default(), false, Player::Computer);
            }
        }
        Ok(())
    }

    fn list_moves(&self, out: &mut dyn Write, ctx: &Context) -> std::io::Result<()> {
        match self.game.moves(ctx) {
            Ok(moves) => {
                writeln!(
                    out,
                    "Your turn. {} legal {}:",
                    moves.len(),
                    grundy::words::plural(moves.len(), "move")
                )?;
                for m in moves.iter().take(MAX_LISTED) {
                    writeln!(out, "  {:>3}. {}", m.number, describe(m))?;
                }
                if moves.len() > MAX_LISTED {
                    writeln!(
                        out,
                        "  ... and {} more: type a number up to {} or the position you want.",
                        moves.len() - MAX_LISTED,
                        moves.len()
                    )?;
                }
            }
            Err(e) => match self.game.least_move(ctx) {
                // Too many to list, but playable: the player types the position.
                Ok(Some(example)) => {
                    writeln!(out, "Your turn. The moves are too many to list ({e}).")?;
                    writeln!(
                        out,
                        "  Type the position after your move, for example `{}` ({}).",
                        example.result, example.description
                    )?;
                }
                _ => writeln!(out, "The moves cannot be listed: {e}")?,
            },
        }
        Ok(())
    }

    fn hint(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let ctx = context(self.misere);
        match self.game.hint(&ctx) {
            Ok(hint) => {
                writeln!(out, "Hint: {}", hint.outcome.describe())?;
                for line in &hint.explanation {
                    writeln!(out, "  {line}")?;
                }
                if hint.moves.is_empty() {
                    writeln!(
                        out,
                        "  No winning move: every move leaves the opponent a win. Play on and hope for a mistake."
                    )?;
                } else {
                    writeln!(out, "  Best moves:")?;
                    for m in hint.moves.iter().take(MAX_LISTED) {
                        if m.number == 0 {
                            writeln!(out, "    - {}", describe(m))?;
                        } else {
                            writeln!(out, "  {:>3}. {}", m.number, describe(m))?;
                        }
                    }
                    if hint.moves.len() > MAX_LISTED {
                        writeln!(out, "  ... and {} more.", hint.moves.len() - MAX_LISTED)?;
                    }
                }
            }
            Err(e) => writeln!(out, "No hint: {e}")?,
        }
        Ok(())
    }
}

/// The longest input line read, in bytes (a longer one is skipped to its end, unread).
const MAX_LINE: usize = 1 << 20;

/// A line of input.
#[derive(Debug)]
enum Line {
    /// The end of the input.
    End,
    /// A line (without its end of line).
    Text(String),
    /// A line longer than the limit (skipped).
    TooLong,
    /// A line that is not UTF-8.
    NotText,
}

/// Reads one line of at most `max` bytes, in memory bounded by `max` whatever the input.
fn read_line(input: &mut dyn BufRead, max: usize) -> std::io::Result<Line> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long {
            if bytes.len() + chunk.len() > max {
                too_long = true;
                bytes = Vec::new();
            } else {
                bytes.extend_from_slice(chunk);
            }
        }
        let used = end.unwrap_or(buf.len());
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    Ok(if !any {
        Line::End
    } else if too_long {
        Line::TooLong
    } else {
        match String::from_utf8(bytes) {
            Ok(text) => Line::Text(text),
            Err(_) => Line::NotText,
        }
    })
}

fn describe(m: &Choice) -> String {
    format!("{} in {}  ->  {}", m.description, m.from, m.result)
}

fn game_over(winner: Player) -> &'static str {
    match winner {
        Player::Human => "Game over: you won!",
        Player::Computer => "Game over: the computer won.",
    }
}
