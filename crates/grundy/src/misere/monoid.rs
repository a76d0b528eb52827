//! The misère quotient as a value: a finite commutative monoid with a P-portion, the
//! elements of its generators and a representative sum for each element.
//!
//! The bottom of the quotient modules: the algorithm that computes a quotient, the
//! presentation that names its elements and the trial builders all work on this type, and
//! it depends on none of them.

/// A finite commutative monoid with a P-portion, and the images of the generators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quotient {
    table: Vec<Vec<u32>>,
    p: Vec<bool>,
    reps: Vec<Vec<u32>>,
    images: Vec<u32>,
}

impl Quotient {
    /// The quotient of the empty closure: the identity alone, an N-position.
    pub fn trivial() -> Self {
        Quotient {
            table: vec![vec![0]],
            p: vec![false],
            reps: vec![vec![]],
            images: Vec::new(),
        }
    }

    /// A quotient from its parts (for the candidate builders of this module's siblings).
    pub(super) fn from_parts(
        table: Vec<Vec<u32>>,
        p: Vec<bool>,
        reps: Vec<Vec<u32>>,
        images: Vec<u32>,
    ) -> Self {
        Quotient {
            table,
            p,
            reps,
            images,
        }
    }

    /// The same monoid and P-portion with other images of the generators (a trial that maps
    /// a new generator to an element already there).
    pub(super) fn with_generator_images(&self, images: Vec<u32>) -> Self {
        Quotient {
            images,
            ..self.clone()
        }
    }

    /// The number of elements.
    pub fn order(&self) -> usize {
        self.table.len()
    }

    /// The product of two elements.
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.table[a as usize][b as usize]
    }

    /// The multiplication table, row `a`, column `b` = `a·b`; element 0 is the identity.
    pub fn table(&self) -> &[Vec<u32>] {
        &self.table
    }

    /// Whether element `x` is in the P-portion.
    pub fn is_p(&self, x: u32) -> bool {
        self.p[x as usize]
    }

    /// The elements of the P-portion, ascending.
    pub fn p_portion(&self) -> Vec<u32> {
        (0..self.order() as u32).filter(|&x| self.is_p(x)).collect()
    }

    /// The element of generator `g`.
    pub fn image_of_generator(&self, g: u32) -> u32 {
        self.images[g as usize]
    }

    /// How many generators have an image (the first ones of the closure's list).
    pub fn generator_count(&self) -> usize {
        self.images.len()
    }

    /// The element of a sum of generators.
    pub fn image(&self, pos: &[u32]) -> u32 {
        pos.iter()
            .fold(0, |x, &g| self.mul(x, self.images[g as usize]))
    }

    /// A representative sum of generators of element `x` (sorted generator indices).
    pub fn representative(&self, x: u32) -> &[u32] {
        &self.reps[x as usize]
    }

    /// The element of each generator, by generator index.
    pub fn generator_images(&self) -> &[u32] {
        &self.images
    }

    /// The representative sum of every element, by element.
    pub fn representatives(&self) -> &[Vec<u32>] {
        &self.reps
    }
}

/// The set `W` of a heap with these options (sums of generators mapped by `q`): the `y`
/// with `y·o` in the P-portion for the image `o` of one of them, as a bit set.
pub fn p_after_option(q: &Quotient, options: &[Vec<u32>]) -> Vec<u64> {
    let n = q.order();
    let mut opts: Vec<u32> = options.iter().map(|o| q.image(o)).collect();
    opts.sort_unstable();
    opts.dedup();
    let mut w = vec![0u64; n.div_ceil(64)];
    for y in 0..n as u32 {
        if opts.iter().any(|&o| q.is_p(q.mul(y, o))) {
            w[y as usize / 64] |= 1 << (y % 64);
        }
    }
    w
}
