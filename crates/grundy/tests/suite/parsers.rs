//! Parsers that cannot panic: the expression language, the graph readers and the checkpoint
//! loader fed arbitrary bytes, token soups built from the language's own words, and very long
//! inputs. Every refusal must be an error (never a panic) and an expression error must point
//! inside the input.
//!
//! The default tier runs a few hundred cases of each property in a few seconds; the deep tier
//! (`cargo test -p grundy --test suite parsers:: -- --ignored`) runs tens of thousands.

use grundy::catalog::{self, parse};
use grundy::graph::read::{ReadOptions, read_edge_list, read_judge};
use grundy::heap::checkpoint;
use proptest::prelude::*;

/// A small memory limit, so that an arbitrary header cannot ask the readers for gigabytes.
const SMALL: ReadOptions = ReadOptions {
    max_bytes: 64 << 20,
};

/// Parses `text`; on refusal, checks that the span lies inside the input, on character
/// boundaries, and that the rendered message shows it without panicking.
fn parse_checked(text: &str) {
    if let Err(e) = parse(text) {
        assert!(
            e.span.start <= e.span.end && e.span.end <= text.len(),
            "span {:?} outside the input of {} bytes: {text:?} ({})",
            e.span,
            text.len(),
            e.message
        );
        assert!(
            text.is_char_boundary(e.span.start) && text.is_char_boundary(e.span.end),
            "span {:?} not on character boundaries: {text:?}",
            e.span
        );
        let rendered = e.render(text);
        assert!(rendered.contains(&e.message), "{rendered}");
    }
}

/// The words of the language: every rule name, numbers near 0 and near 2^64, punctuation,
/// code literals, coordinates, edges and some unicode.
fn word() -> impl Strategy<Value = String> {
    let names: Vec<String> = catalog::rules().map(|r| r.name.to_owned()).collect();
    prop_oneof![
        3 => proptest::sample::select(names),
        3 => prop_oneof![
            Just(0u64),
            Just(1),
            Just(2),
            Just(u64::MAX),
            Just(u64::MAX - 1),
            Just(1 << 63),
            Just(u32::MAX as u64 + 1),
            0u64..40,
            any::<u64>(),
        ]
        .prop_map(|n| n.to_string()),
        1 => Just("18446744073709551616".to_owned()),
        3 => proptest::sample::select(vec![
            "+", "(", ")", ",", "!", "?", "=", ".", "-", "/", " ", "  ", "\t", "\n", "0", "0.",
            "4!.0", "0.137", "0.f", "x", ":", "ab", "é", "∞", "😀", "\u{feff}", "\u{0}",
        ])
        .prop_map(str::to_owned),
        1 => (0u64..50, 0u64..50).prop_map(|(a, b)| format!("{a}-{b}")),
        1 => (any::<u64>(), 0u64..9).prop_map(|(a, b)| format!("{a},{b}")),
    ]
}

/// A soup of words, sometimes with spaces between them.
fn soup(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec((word(), any::<bool>()), 0..max).prop_map(|words| {
        let mut text = String::new();
        for (w, space) in words {
            text.push_str(&w);
            if space {
                text.push(' ');
            }
        }
        text
    })
}

/// Arbitrary bytes, read as text the way a front end would (invalid UTF-8 replaced).
fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn graph_inputs_do_not_panic(bytes: &[u8]) {
    let _ = read_edge_list(bytes, &SMALL);
    let _ = read_judge(bytes, &SMALL);
}

fn checkpoint_does_not_panic(bytes: &[u8], dir: &std::path::Path, case: u64) {
    let path = dir.join(format!("case-{case}.ckpt"));
    std::fs::write(&path, bytes).unwrap();
    let _ = checkpoint::load(&path);
    let _ = std::fs::remove_file(&path);
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-parsers-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Judge-format text whose header and lines come from small numbers and the soup's words.
fn judge_like() -> impl Strategy<Value = String> {
    (
        0u64..6,
        0u64..6,
        0u64..6,
        proptest::collection::vec(
            prop_oneof![(0u64..8).prop_map(|n| n.to_string()), word()],
            0..20,
        ),
    )
        .prop_map(|(n, m, k, rest)| {
            let mut text = format!("{n} {m} {k}\n");
            for (i, w) in rest.iter().enumerate() {
                text.push_str(w);
                text.push(if i % 2 == 0 { ' ' } else { '\n' });
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn expressions_from_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        parse_checked(&lossy(&bytes));
    }

    #[test]
    fn expressions_from_token_soups(text in soup(24)) {
        parse_checked(&text);
    }

    #[test]
    fn graph_readers_from_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..96)) {
        graph_inputs_do_not_panic(&bytes);
    }

    #[test]
    fn graph_readers_from_judge_like_text(text in judge_like()) {
        graph_inputs_do_not_panic(text.as_bytes());
    }

    #[test]
    fn checkpoints_from_arbitrary_bytes(
        bytes in proptest::collection::vec(any::<u8>(), 0..128),
        case in any::<u64>(),
    ) {
        checkpoint_does_not_panic(&bytes, &scratch("bytes"), case);
    }

    #[test]
    fn damaged_checkpoints_are_refused_or_read(
        values in proptest::collection::vec(0u16..300, 0..64),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
        case in any::<u64>(),
    ) {
        let dir = scratch("damaged");
        let path = dir.join(format!("good-{case}.ckpt"));
        checkpoint::save(&path, "0.137", &values).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        for (at, x) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= x;
        }
        let keep = cut.index(bytes.len() + 1);
        checkpoint_does_not_panic(&bytes, &dir, case);
        checkpoint_does_not_panic(&bytes[..keep], &dir, case);
    }
}

mod deep {
    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        #[ignore = "deep tier: cargo test -p grundy --test suite parsers:: -- --ignored"]
        fn expressions_from_arbitrary_bytes_deep(
            bytes in proptest::collection::vec(any::<u8>(), 0..512),
        ) {
            parse_checked(&lossy(&bytes));
        }

        #[test]
        #[ignore = "deep tier: cargo test -p grundy --test suite parsers:: -- --ignored"]
        fn expressions_from_token_soups_deep(text in soup(80)) {
            parse_checked(&text);
        }

        #[test]
        #[ignore = "deep tier: cargo test -p grundy --test suite parsers:: -- --ignored"]
        fn graph_readers_deep(text in judge_like(), bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            graph_inputs_do_not_panic(text.as_bytes());
            graph_inputs_do_not_panic(&bytes);
        }

        #[test]
        #[ignore = "deep tier: cargo test -p grundy --test suite parsers:: -- --ignored"]
        fn checkpoints_deep(
            bytes in proptest::collection::vec(any::<u8>(), 0..512),
            case in any::<u64>(),
        ) {
            checkpoint_does_not_panic(&bytes, &scratch("deep"), case);
        }
    }
}

// -- Long inputs. -----------------------------------------------------------------------------

#[test]
fn a_term_of_a_million_characters() {
    // One argument of a million digits: refused as too large, the message cut to a window.
    let text = format!("nim {}", "9".repeat(1_000_000));
    let e = parse(&text).unwrap_err();
    assert_eq!(e.span, 4..text.len());
    let rendered = e.render(&text);
    assert!(rendered.len() < 1_000, "{} bytes", rendered.len());
    assert!(rendered.contains("too large"), "{rendered}");
    // A rule name of a million letters.
    let text = "x".repeat(1_000_000);
    let e = parse(&text).unwrap_err();
    assert_eq!(e.span, 0..text.len());
    assert!(e.render(&text).len() < 2_000);
    // A million characters of arguments in one term: accepted.
    let heaps = " 7".repeat(500_000);
    let sum = parse(&format!("nim{heaps}")).unwrap();
    assert_eq!(sum.components.len(), 500_000);
}

#[test]
fn a_hundred_thousand_terms() {
    let text = vec!["nim 1"; 100_000].join(" + ");
    let sum = parse(&text).unwrap();
    assert_eq!(sum.components.len(), 100_000);
    // An error at the very end is found and shown around its place.
    let text = format!("{text} + nmi 2");
    let e = parse(&text).unwrap_err();
    assert_eq!(&text[e.span.clone()], "nmi");
    let rendered = e.render(&text);
    assert!(
        rendered.starts_with('…') && rendered.contains(" + nim 1 + nmi 2\n"),
        "{rendered}"
    );
}

#[test]
fn deep_nesting_of_parentheses() {
    for text in [
        "(".repeat(100_000),
        ")".repeat(100_000),
        format!("nim{}", "(".repeat(100_000)),
        format!("sub{}1{} 3", "(".repeat(50_000), ")".repeat(50_000)),
        format!("nim 3 + {}", "((a))".repeat(20_000)),
    ] {
        parse_checked(&text);
        assert!(parse(&text).is_err());
    }
}

#[test]
fn errors_at_the_end_point_inside_the_input() {
    for text in [
        "nim 3 +",
        "nim 3 +   ",
        "nim 3 + +",
        "+",
        "sub(",
        "sub(1,",
        "(",
        "é+",
    ] {
        parse_checked(text);
    }
    let e = parse("nim 3 +").unwrap_err();
    assert_eq!(e.span, 6..7);
}

#[test]
fn rendering_a_multi_line_expression_shows_the_line() {
    let text = "nim 3\n+ kayles 4\n+ nmi 5\n";
    let e = parse(text).unwrap_err();
    let rendered = e.render(text);
    assert!(
        rendered.starts_with("line 3:\n+ nmi 5\n  ^^^ unknown rule `nmi`"),
        "{rendered}"
    );
    // A span out of range or inside a character is clamped, not a panic.
    let e = grundy::expr::ExprError::new(1..500, "bad");
    assert!(e.render("é").contains("bad"));
}

#[test]
fn long_graph_inputs() {
    // A vertex name of a million bytes, a line of a hundred thousand tokens.
    let text = format!("{} b\n", "v".repeat(1_000_000));
    assert_eq!(
        read_edge_list(text.as_bytes(), &SMALL)
            .unwrap()
            .vertex_count(),
        2
    );
    let tokens = vec!["1"; 100_000].join(" ");
    let text = format!("1 0 100000\n{tokens}\n");
    assert_eq!(
        read_judge(text.as_bytes(), &SMALL).unwrap().tokens.len(),
        100_000
    );
}
