//! The values the board test checks the page against, by brute force from the definitions
//! (the mex of the options), written here without the library.

use std::collections::{HashMap, HashSet};

/// The least value not in `seen`.
pub(super) fn mex(seen: &HashSet<u64>) -> u64 {
    (0..).find(|v| !seen.contains(v)).unwrap()
}

/// The value of a row of `n` pins in Kayles, by brute force: the mex of the values of the
/// rows left by knocking down one pin or two neighbours anywhere.
pub(super) fn kayles(n: usize) -> u64 {
    let mut g = vec![0u64; n + 1];
    for m in 1..=n {
        let mut seen = HashSet::new();
        for take in 1..=2.min(m) {
            for left in 0..=m - take {
                seen.insert(g[left] ^ g[m - take - left]);
            }
        }
        g[m] = mex(&seen);
    }
    g[n]
}

/// The picture left by cutting edge `k`: the edges still joined to the ground (vertex 0).
pub(super) fn cut(edges: &[(u32, u32)], k: usize) -> Vec<(u32, u32)> {
    let left: Vec<(u32, u32)> = edges
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != k)
        .map(|(_, &e)| e)
        .collect();
    let mut grounded = HashSet::from([0]);
    loop {
        let before = grounded.len();
        for &(a, b) in &left {
            if grounded.contains(&a) || grounded.contains(&b) {
                grounded.insert(a);
                grounded.insert(b);
            }
        }
        if grounded.len() == before {
            break;
        }
    }
    left.into_iter()
        .filter(|(a, _)| grounded.contains(a))
        .collect()
}

/// The value of a Green Hackenbush picture by brute force: the mex of the values of the
/// pictures left by each cut.
pub(super) fn hackenbush(edges: &[(u32, u32)], memo: &mut HashMap<Vec<(u32, u32)>, u64>) -> u64 {
    let mut key = edges.to_vec();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let seen = (0..edges.len())
        .map(|k| hackenbush(&cut(edges, k), memo))
        .collect();
    let v = mex(&seen);
    memo.insert(key, v);
    v
}

/// A Cram board as the API writes it: `RxC` (all free) or rows of `.` and `#` split by `/`.
pub(super) fn board(text: &str) -> Vec<Vec<bool>> {
    if let Some((r, c)) = text.split_once('x') {
        let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
        return vec![vec![true; c]; r];
    }
    text.split('/')
        .map(|row| row.chars().map(|ch| ch == '.').collect())
        .collect()
}

/// A cell's name as the page and the API write it: `(row,column)` from 1 at the top left.
pub(super) fn cell(r: usize, c: usize) -> String {
    format!("({},{})", r + 1, c + 1)
}

/// Every domino that fits on a board, each as its two cells, cell by cell from the top left.
pub(super) fn dominoes(cells: &[Vec<bool>]) -> Vec<(usize, usize, usize, usize)> {
    let free = |r: usize, c: usize| cells.get(r).and_then(|row| row.get(c)) == Some(&true);
    let mut out = Vec::new();
    for (r, row) in cells.iter().enumerate() {
        for c in 0..row.len() {
            if free(r, c) && free(r, c + 1) {
                out.push((r, c, r, c + 1));
            }
            if free(r, c) && free(r + 1, c) {
                out.push((r, c, r + 1, c));
            }
        }
    }
    out
}

/// The value of a Cram board by brute force: the mex of the values of the boards left by
/// each domino.
pub(super) fn cram(cells: &[Vec<bool>], memo: &mut HashMap<Vec<Vec<bool>>, u64>) -> u64 {
    if let Some(&v) = memo.get(cells) {
        return v;
    }
    let mut seen = HashSet::new();
    for (r, c, r2, c2) in dominoes(cells) {
        let mut after = cells.to_vec();
        after[r][c] = false;
        after[r2][c2] = false;
        seen.insert(cram(&after, memo));
    }
    let v = mex(&seen);
    memo.insert(cells.to_vec(), v);
    v
}

/// The free cells of a board, row by row from the top left.
pub(super) fn free_cells(cells: &[Vec<bool>]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (r, row) in cells.iter().enumerate() {
        for (c, &free) in row.iter().enumerate() {
            if free {
                out.push((r, c));
            }
        }
    }
    out
}

/// The board left by taking cell (r, c) in Node Kayles: it and its neighbours leave.
pub(super) fn take(cells: &[Vec<bool>], r: usize, c: usize) -> Vec<Vec<bool>> {
    let mut after = cells.to_vec();
    after[r][c] = false;
    for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
        let (r2, c2) = (r as i64 + dr, c as i64 + dc);
        if r2 >= 0 && c2 >= 0 {
            if let Some(x) = after
                .get_mut(r2 as usize)
                .and_then(|row| row.get_mut(c2 as usize))
            {
                *x = false;
            }
        }
    }
    after
}

/// The value of Node Kayles on a board (cells joined to their neighbours in a row or a
/// column) by brute force.
pub(super) fn node_kayles(cells: &[Vec<bool>], memo: &mut HashMap<Vec<Vec<bool>>, u64>) -> u64 {
    if let Some(&v) = memo.get(cells) {
        return v;
    }
    let seen = free_cells(cells)
        .into_iter()
        .map(|(r, c)| node_kayles(&take(cells, r, c), memo))
        .collect();
    let v = mex(&seen);
    memo.insert(cells.to_vec(), v);
    v
}

/// The squares Wythoff's queen at (x, y) reaches: left, down, or diagonally down-left.
pub(super) fn queen_moves(x: u64, y: u64) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = (0..x).map(|a| (a, y)).collect();
    out.extend((0..y).map(|b| (x, b)));
    out.extend((1..=x.min(y)).map(|d| (x - d, y - d)));
    out
}

/// The value of Wythoff's game at (x, y) by brute force.
pub(super) fn wythoff(x: u64, y: u64) -> u64 {
    let mut g = vec![vec![0u64; y as usize + 1]; x as usize + 1];
    for a in 0..=x {
        for b in 0..=y {
            let seen = queen_moves(a, b)
                .into_iter()
                .map(|(a2, b2)| g[a2 as usize][b2 as usize])
                .collect();
            g[a as usize][b as usize] = mex(&seen);
        }
    }
    g[x as usize][y as usize]
}

/// The moves of Turning Turtles (turn a head to tails and maybe one coin to its left either
/// way; coins numbered from 1): the coins each turns and the heads it leaves.
pub(super) fn turn_moves(heads: &[u64]) -> Vec<(Vec<u64>, Vec<u64>)> {
    let mut out = Vec::new();
    for &h in heads {
        for other in std::iter::once(None).chain((1..h).map(Some)) {
            let mut after: Vec<u64> = heads.iter().copied().filter(|&k| k != h).collect();
            let mut turned = vec![h];
            if let Some(j) = other {
                turned.insert(0, j);
                match after.iter().position(|&k| k == j) {
                    Some(at) => {
                        after.remove(at);
                    }
                    None => after.push(j),
                }
            }
            after.sort_unstable();
            out.push((turned, after));
        }
    }
    out
}

/// The value of a Turning Turtles row by brute force.
pub(super) fn turtles(heads: &[u64], memo: &mut HashMap<Vec<u64>, u64>) -> u64 {
    if let Some(&v) = memo.get(heads) {
        return v;
    }
    let seen = turn_moves(heads)
        .into_iter()
        .map(|(_, after)| turtles(&after, memo))
        .collect();
    let v = mex(&seen);
    memo.insert(heads.to_vec(), v);
    v
}
