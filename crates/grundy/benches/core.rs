//! Figures for the foundation: nim-multiplication throughput and the generic engine's speed.
//!
//! `cargo bench -p grundy --bench core` prints:
//! - nim products per second for random 64-bit and 16-bit factors;
//! - the generic engine solving Kayles (written here against the `ImpartialGame` trait, so
//!   every position splits into heaps) up to heap 8000: components solved and options
//!   examined per second.
//!
//! Pass a heap size to change the Kayles run: `cargo bench -p grundy --bench core -- 4000`.

use grundy::Nimber;
use grundy::game::ImpartialGame;
use grundy::solve::Solver;
use std::hint::black_box;
use std::time::Instant;

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn nim_products(mask: u64, label: &str) {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let pairs: Vec<(Nimber, Nimber)> = (0..4096)
        .map(|_| {
            (
                Nimber(xorshift(&mut s) & mask),
                Nimber(xorshift(&mut s) & mask),
            )
        })
        .collect();
    let rounds = 2_000;
    let start = Instant::now();
    let mut acc = Nimber::ZERO;
    for _ in 0..rounds {
        for &(a, b) in &pairs {
            acc ^= black_box(a) * black_box(b);
        }
    }
    black_box(acc);
    let secs = start.elapsed().as_secs_f64();
    let n = rounds as f64 * pairs.len() as f64;
    println!(
        "nim product, {label}: {:.1} million products/s ({n:.0} in {secs:.2} s)",
        n / secs / 1e6
    );
}

/// Kayles (octal 0.77): knock down one pin or two adjacent pins from a row, which may split
/// it in two. A position is a sorted list of rows; each row is a component.
struct Kayles;

impl ImpartialGame for Kayles {
    type Position = Vec<u32>;
    fn options(&self, p: &Vec<u32>) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        if let [n] = p.as_slice() {
            for k in 1..=2u32.min(*n) {
                for a in 0..=(n - k) / 2 {
                    let b = n - k - a;
                    out.push([a, b].into_iter().filter(|&h| h > 0).collect());
                }
            }
        }
        out
    }
    fn components(&self, p: &Vec<u32>) -> Vec<Vec<u32>> {
        p.iter().map(|&h| vec![h]).collect()
    }
}

fn main() {
    let max: u32 = std::env::args()
        .filter_map(|a| a.parse().ok())
        .next()
        .unwrap_or(8000);
    nim_products(u64::MAX, "64-bit factors");
    nim_products(0xffff, "16-bit factors");

    let start = Instant::now();
    let mut solver = Solver::new(Kayles);
    for n in 1..=max {
        // Heaps in increasing order: each new heap's options are all solved already.
        black_box(solver.value(&vec![n]).unwrap());
    }
    let secs = start.elapsed().as_secs_f64();
    let options: usize = (1..=max).map(|n| Kayles.options(&vec![n]).len()).sum();
    // Kayles has period 12 from n = 71 (Guy and Smith 1956): a sanity check on the figures.
    if max > 83 {
        let r = 71 + (max - 71) % 12;
        assert_eq!(
            solver.value(&vec![max]),
            solver.value(&vec![r]),
            "Kayles periodicity"
        );
    }
    println!(
        "generic engine, Kayles heaps 1..={max}: {} components, {options} options in {secs:.2} s: \
         {:.2} million options/s, {:.0} components/s",
        solver.solved(),
        options as f64 / secs / 1e6,
        solver.solved() as f64 / secs
    );
}
