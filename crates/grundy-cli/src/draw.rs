//! `grundy draw`: a Hackenbush picture as a text tree or as Graphviz DOT.

use crate::{Failure, emit};
use grundy::hackenbush::{draw_dot, draw_text, parse_picture, value};

/// Draw a Hackenbush picture: as a tree grown from the ground, or as Graphviz DOT
/// (`grundy draw --dot "hackenbush 0-1 1-2 2-0" | dot -Tsvg > picture.svg`).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The picture, such as "hackenbush 0-1 1-2 2-0 2-3 3-3" (unquoted words are joined).
    #[arg(required = true, num_args = 1..)]
    expression: Vec<String>,
    /// Print Graphviz DOT instead of text.
    #[arg(long)]
    dot: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let expression = args.expression.join(" ");
    let picture = parse_picture(&expression)
        .map_err(|e| Failure::input(format!("invalid picture\n{}", e.render(&expression))))?;
    if args.dot {
        return emit(&draw_dot(&picture));
    }
    let mut text = draw_text(&picture);
    if !picture.touches_ground() {
        text.push_str("No edge touches the ground: every edge has already fallen.\n");
    }
    text.push_str(&format!("Value {}\n", value(&picture).0));
    emit(&text)
}
