//! Misère canonical forms (grundy::misere::canonical) against the definition of misère
//! equality: `G = H` iff `o⁻(G + X) = o⁻(H + X)` for every `X`, checked here for every `X` of
//! a family of small games (every game tree of birthday at most 3 and every canonical form
//! born by day 4), with outcomes by brute force on raw game trees (independent of the arena).

use grundy::control::{Budget, BudgetError, Limits};
use grundy::game::ImpartialGame;
use grundy::heap::component::HeapGame;
use grundy::heap::rules::HeapRule;
use grundy::misere::MisereError;
use grundy::misere::canonical::{FormId, Forms, HeapForms};
use grundy::misere::form_genus::FormGenus;
use grundy::misere::genus::{GenusSolver, tame_sum_is_p};
use grundy::misere::sequence::{TameBasis, genus_sequence};
use grundy::solve::MisereSolver;
use grundy::value::Outcome;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

/// Raw game trees sharing nodes: node `i`'s options are nodes.
#[derive(Default)]
struct Dag {
    opts: Vec<Vec<usize>>,
}

impl Dag {
    fn add(&mut self, opts: Vec<usize>) -> usize {
        self.opts.push(opts);
        self.opts.len() - 1
    }

    /// The canonical form `id` of `forms`, copied as a raw tree.
    fn copy_form(&mut self, forms: &Forms, id: FormId, memo: &mut HashMap<FormId, usize>) -> usize {
        if let Some(&n) = memo.get(&id) {
            return n;
        }
        let opts: Vec<usize> = forms
            .options(id)
            .iter()
            .map(|&o| self.copy_form(forms, o, memo))
            .collect();
        let n = self.add(opts);
        memo.insert(id, n);
        n
    }

    /// The sum of heaps `pos` of `game`, copied as a raw tree.
    fn copy_heaps(
        &mut self,
        game: &HeapGame,
        pos: Vec<u64>,
        memo: &mut HashMap<Vec<u64>, usize>,
    ) -> usize {
        if let Some(&n) = memo.get(&pos) {
            return n;
        }
        let opts: Vec<usize> = game
            .options(&pos)
            .into_iter()
            .map(|mut o| {
                o.retain(|&h| h > 0);
                o.sort_unstable();
                self.copy_heaps(game, o, memo)
            })
            .collect();
        let n = self.add(opts);
        memo.insert(pos, n);
        n
    }
}

/// The dag as a game for the engines under test.
impl ImpartialGame for Dag {
    type Position = usize;
    fn options(&self, p: &usize) -> Vec<usize> {
        self.opts[*p].clone()
    }
}

/// Misère outcomes of sums of dag nodes, from the definition.
struct Outcomes<'a> {
    dag: &'a Dag,
    memo: HashMap<Vec<usize>, bool>,
}

impl<'a> Outcomes<'a> {
    fn new(dag: &'a Dag) -> Self {
        Outcomes {
            dag,
            memo: HashMap::new(),
        }
    }

    /// Whether the sum of `parts` is a misère P-position: it has a move, and every move
    /// leads to an N-position.
    fn is_p(&mut self, parts: &[usize]) -> bool {
        let mut key: Vec<usize> = parts
            .iter()
            .copied()
            .filter(|&p| !self.dag.opts[p].is_empty())
            .collect();
        key.sort_unstable();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let v = !key.is_empty()
            && (0..key.len()).all(|i| {
                self.dag.opts[key[i]].clone().into_iter().all(|o| {
                    let mut next = key.clone();
                    next[i] = o;
                    !self.is_p(&next)
                })
            });
        self.memo.insert(key, v);
        v
    }
}

/// The test family: every tree of birthday at most 3 (16) and the canonical forms born by
/// day 4, as dag nodes.
fn family(dag: &mut Dag, forms: &mut Forms) -> Vec<usize> {
    let end = dag.add(vec![]);
    let mut games = vec![end];
    for _ in 0..3 {
        let prev = games.clone();
        games.clear();
        for mask in 0u32..(1 << prev.len()) {
            let opts = (0..prev.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| prev[i])
                .collect();
            games.push(dag.add(opts));
        }
    }
    // Day 3's canonical forms, then every set of them.
    let mut day3 = BTreeSet::new();
    for &g in &games {
        day3.insert(forms.of_game(&*dag, &g).unwrap());
    }
    let day3: Vec<FormId> = day3.into_iter().collect();
    let mut day4 = BTreeSet::new();
    for mask in 0u32..(1 << day3.len()) {
        let opts = (0..day3.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| day3[i])
            .collect();
        day4.insert(forms.from_options(opts).unwrap());
    }
    let mut memo = HashMap::new();
    for id in day4 {
        games.push(dag.copy_form(forms, id, &mut memo));
    }
    games
}

/// A random tree: node `i`'s options are chosen among nodes `0..i`; the last node is the game.
fn random_tree() -> impl Strategy<Value = Vec<Vec<usize>>> {
    proptest::collection::vec(
        proptest::collection::vec(any::<prop::sample::Index>(), 0..4),
        1..7,
    )
    .prop_map(|nodes| {
        nodes
            .into_iter()
            .enumerate()
            .map(|(i, opts)| {
                if i == 0 {
                    vec![]
                } else {
                    opts.into_iter().map(|x| x.index(i)).collect()
                }
            })
            .collect()
    })
}

fn add_tree(dag: &mut Dag, tree: &[Vec<usize>]) -> usize {
    let base = dag.opts.len();
    for opts in tree {
        dag.add(opts.iter().map(|&o| base + o).collect());
    }
    dag.opts.len() - 1
}

/// The X of `family`, or sum of two, telling `g` from `h`, if any.
fn distinguish(out: &mut Outcomes, family: &[usize], g: usize, h: usize) -> Option<Vec<usize>> {
    if let Some(x) = family
        .iter()
        .copied()
        .find(|&x| out.is_p(&[g, x]) != out.is_p(&[h, x]))
    {
        return Some(vec![x]);
    }
    for (i, &x) in family.iter().enumerate() {
        for &y in &family[..=i] {
            if out.is_p(&[g, x, y]) != out.is_p(&[h, x, y]) {
                return Some(vec![x, y]);
            }
        }
    }
    None
}

#[test]
fn day_four_has_the_published_count_and_every_pair_is_told_apart() {
    let mut dag = Dag::default();
    let mut forms = Forms::new(&Budget::default());
    let fam = family(&mut dag, &mut forms);
    // 22 misère impartial games are born by day 4 (Conway, ONAG ch. 12; Siegel, CGT V.1).
    let born4: BTreeSet<FormId> = (0..forms.len() as FormId)
        .filter(|&id| forms.birthday(id) <= 4)
        .collect();
    assert_eq!(born4.len(), 22);
    let mut memo = HashMap::new();
    let nodes: Vec<(FormId, usize)> = born4
        .iter()
        .map(|&id| (id, dag.copy_form(&forms, id, &mut memo)))
        .collect();
    let mut out = Outcomes::new(&dag);
    for (i, &(a, ga)) in nodes.iter().enumerate() {
        for &(b, gb) in &nodes[..i] {
            let tree = |id: FormId| {
                let mut v = vec![id];
                let mut i = 0;
                while i < v.len() {
                    for &o in forms.options(v[i]) {
                        if !v.contains(&o) {
                            v.push(o);
                        }
                    }
                    i += 1;
                }
                v.iter()
                    .map(|&x| format!("{x}:{:?}", forms.options(x)))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            assert!(
                distinguish(&mut out, &fam, ga, gb).is_some(),
                "forms {} and {}",
                tree(a),
                tree(b)
            );
        }
    }
}

#[test]
fn published_facts() {
    let mut f = Forms::new(&Budget::default());
    let (one, two, three) = (f.nim(1).unwrap(), f.nim(2).unwrap(), f.nim(3).unwrap());
    assert_eq!(f.sum(one, one).unwrap(), Forms::ZERO);
    let twice_two = f.sum(two, two).unwrap();
    assert_ne!(twice_two, Forms::ZERO);
    assert_eq!(f.options(twice_two), &[two, three]);
    // Nim heaps are their own canonical forms, with the Nim heaps below as options.
    for k in 0..8 {
        let id = f.nim(k).unwrap();
        let below: Vec<FormId> = (0..k).map(|j| f.nim(j).unwrap()).collect();
        let mut sorted = below.clone();
        sorted.sort_unstable();
        assert_eq!(f.options(id), sorted.as_slice());
    }
}

/// CGSuite's tameness of the misère canonical form, for every heap of the reference.
#[test]
fn heap_forms_are_tame_exactly_where_cgsuite_says() {
    let text = include_str!("../data/misere/genus_cgsuite.txt");
    let mut rows: HashMap<String, Vec<(u64, bool)>> = HashMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        rows.entry(f[0].to_owned())
            .or_default()
            .push((f[1].parse().unwrap(), f[4] == "tame"));
    }
    for (rule, rows) in &rows {
        let to = rows.iter().map(|r| r.0).max().unwrap();
        let hf = HeapForms::compute(&HeapRule::parse(rule).unwrap(), to, &Budget::default());
        assert!(hf.stopped.is_none(), "{rule}: {:?}", hf.stopped);
        for &(n, tame) in rows {
            assert_eq!(
                hf.forms.is_tame(hf.heaps[n as usize]),
                tame,
                "{rule} heap {n}"
            );
        }
    }
}

#[test]
fn forms_stop_under_the_budget_and_the_tameness_falls_back_to_the_raw_tree() {
    let kayles = HeapRule::parse("kayles").unwrap();
    for (limits, want_memory) in [
        (
            Limits {
                max_work: 200_000,
                ..Limits::DEFAULT
            },
            false,
        ),
        (
            Limits {
                max_bytes: 20_000,
                ..Limits::DEFAULT
            },
            true,
        ),
    ] {
        let hf = HeapForms::compute(&kayles, 200, &Budget::new(limits));
        let e = hf.stopped.expect("Kayles's forms grow past the limit");
        assert_eq!(
            matches!(e, MisereError::Budget(BudgetError::Memory { .. })),
            want_memory,
            "{e}"
        );
        assert!(
            hf.heaps.len() > 9 && hf.heaps.len() < 201,
            "{}",
            hf.heaps.len()
        );
    }
    // The genus sequence under a small work limit: the forms cover a prefix of the heaps,
    // the raw tree the rest, and a heap tame in the raw tree is tame in its form.
    let seq = genus_sequence(
        &kayles,
        60,
        &Budget::new(Limits {
            max_work: 400_000,
            ..Limits::DEFAULT
        }),
    );
    let canonical = seq
        .entries
        .iter()
        .take_while(|e| e.tame_basis == TameBasis::CanonicalForm)
        .count();
    assert!(canonical >= 9, "{canonical}");
    assert!(
        seq.entries[canonical..]
            .iter()
            .all(|e| e.tame_basis == TameBasis::RawTree)
    );
}

proptest! {
    // 64 cases by default; PROPTEST_CASES sets more.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
        ..ProptestConfig::default()
    })]

    /// (a) A game and its canonical form (and so two games of one form) have the same misère
    /// outcome in every sum with the family; (b) games of different forms born by day 4 are
    /// told apart by it; (c) the genus read from the form is the genus of the raw tree; and
    /// the form of a sum is the sum of the forms.
    #[test]
    fn random_trees_equal_their_forms(g in random_tree(), h in random_tree()) {
        let mut dag = Dag::default();
        let mut forms = Forms::new(&Budget::default());
        let fam = family(&mut dag, &mut forms);
        let (g, h) = (add_tree(&mut dag, &g), add_tree(&mut dag, &h));
        let gh = dag.add(vec![]);
        let (fg, fh) = (forms.of_game(&dag, &g).unwrap(), forms.of_game(&dag, &h).unwrap());
        let mut memo = HashMap::new();
        let (cg, ch) = (dag.copy_form(&forms, fg, &mut memo), dag.copy_form(&forms, fh, &mut memo));
        // The sum g + h as a raw tree.
        let mut sums: HashMap<(usize, usize), usize> = HashMap::new();
        fn sum_node(dag: &mut Dag, a: usize, b: usize, m: &mut HashMap<(usize, usize), usize>) -> usize {
            if let Some(&n) = m.get(&(a, b)) { return n; }
            let mut opts: Vec<usize> = dag.opts[a].clone().into_iter().map(|x| sum_node(dag, x, b, m)).collect();
            opts.extend(dag.opts[b].clone().into_iter().map(|y| sum_node(dag, a, y, m)));
            let n = dag.add(opts);
            m.insert((a, b), n);
            n
        }
        let _ = gh;
        let s = sum_node(&mut dag, g, h, &mut sums);
        let fs = forms.of_game(&dag, &s).unwrap();
        prop_assert_eq!(forms.sum(fg, fh).unwrap(), fs);
        let mut out = Outcomes::new(&dag);
        for &x in &fam {
            prop_assert_eq!(out.is_p(&[g, x]), out.is_p(&[cg, x]));
            prop_assert_eq!(out.is_p(&[h, x]), out.is_p(&[ch, x]));
        }
        if fg != fh && forms.birthday(fg) <= 4 && forms.birthday(fh) <= 4 {
            prop_assert!(distinguish(&mut out, &fam, g, h).is_some());
        }
        let budget = Budget::default();
        let mut raw = GenusSolver::new(&dag, &budget);
        let mut canon = GenusSolver::new(&forms, &budget);
        let mut table = FormGenus::new();
        for (node, id) in [(g, fg), (h, fh), (s, fs)] {
            let genus = raw.genus(&node).unwrap();
            prop_assert_eq!(&canon.genus(&id).unwrap(), &genus);
            // The genus table over the arena (grundy::misere::form_genus) too.
            prop_assert_eq!(&table.genus(&forms, id, &budget).unwrap(), &genus);
            prop_assert_eq!(u64::from(forms.g_plus(id)), genus.value);
            prop_assert_eq!(u64::from(forms.g_minus(id)), genus.exponents[0]);
            // Hereditarily tame forms have tame genera; hereditarily tame trees have tame forms.
            if forms.is_tame(id) {
                prop_assert!(genus.tame().is_some(), "{}", genus);
            }
            let (_, tree_tame) = raw.hereditarily_tame(&node).unwrap();
            if tree_tame {
                prop_assert!(forms.is_tame(id));
            }
        }
    }

    /// The same on the heaps of random octal codes: each heap equals its form in every sum
    /// with the family, and the genus read from the form is the heap's.
    #[test]
    fn random_octal_heaps_equal_their_forms(
        digits in proptest::collection::vec(0u8..8, 0..3),
        last in 1u8..8,
    ) {
        // The last digit is not 0 (a code of zeros allows no move, and is refused).
        let digits: Vec<u8> = digits.into_iter().chain([last]).collect();
        let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        let rule = HeapRule::parse(&code).unwrap();
        let max = 6;
        let hf = HeapForms::compute(&rule, max, &Budget::default());
        prop_assert!(hf.stopped.is_none());
        let mut forms = hf.forms;
        let mut dag = Dag::default();
        let fam = family(&mut dag, &mut forms);
        let game = HeapGame::new(&rule);
        let mut hm = HashMap::new();
        let mut fm = HashMap::new();
        let heaps: Vec<usize> = (0..=max).map(|n| dag.copy_heaps(&game, if n == 0 { vec![] } else { vec![n] }, &mut hm)).collect();
        let copies: Vec<usize> = hf.heaps.iter().map(|&id| dag.copy_form(&forms, id, &mut fm)).collect();
        let mut out = Outcomes::new(&dag);
        for n in 0..=max as usize {
            for &x in &fam {
                prop_assert_eq!(out.is_p(&[heaps[n], x]), out.is_p(&[copies[n], x]), "{} heap {}", code, n);
            }
        }
        let budget = Budget::default();
        let mut raw = GenusSolver::new(&game, &budget);
        let mut canon = GenusSolver::new(&forms, &budget);
        for n in 0..=max {
            let pos = if n == 0 { vec![] } else { vec![n] };
            prop_assert_eq!(canon.genus(&hf.heaps[n as usize]).unwrap(), raw.genus(&pos).unwrap());
        }
    }

    /// Conway's rule decides sums of heaps that are tame in their canonical forms (though
    /// their raw trees may hold wild positions), as the exhaustive search does.
    #[test]
    fn conways_rule_holds_for_canonically_tame_heaps(
        digits in proptest::collection::vec(0u8..8, 0..3),
        last in 1u8..8,
        heaps in proptest::collection::vec(1u64..10, 1..4),
    ) {
        // The last digit is not 0 (a code of zeros allows no move, and is refused).
        let digits: Vec<u8> = digits.into_iter().chain([last]).collect();
        let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        let rule = HeapRule::parse(&code).unwrap();
        let hf = HeapForms::compute(&rule, 9, &Budget::default());
        prop_assert!(hf.stopped.is_none());
        // The tame heaps drawn (for a wild code, the small ones).
        let heaps: Vec<u64> = heaps.into_iter().filter(|&h| hf.forms.is_tame(hf.heaps[h as usize])).collect();
        if heaps.is_empty() {
            return Ok(());
        }
        let game = HeapGame::new(&rule);
        let budget = Budget::default();
        let mut solver = GenusSolver::new(&game, &budget);
        let genera: Vec<_> = heaps.iter().map(|&h| solver.genus(&vec![h]).unwrap()).collect();
        let (is_p, _) = tame_sum_is_p(&genera).expect("tame forms have tame genera");
        let mut pos = heaps.clone();
        pos.sort_unstable();
        let brute = MisereSolver::with_budget(&game, &budget).outcome(&pos).unwrap() == Outcome::P;
        prop_assert_eq!(is_p, brute, "{} {:?}", code, heaps);
    }
}
