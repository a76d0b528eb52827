//! Small sets of values the search keeps per component: what the table knows of a
//! component ([`Look`]), the values it may still have ([`PossibleValues`], Beling and
//! Rogalski's sets as 128-bit masks) and the options still to value ([`Pending`]).

/// What one look finds of a component.
pub(super) enum Look {
    /// Its value.
    Value(u32),
    /// Not its value, but values (bit `k`, `k < 64`) it is known not to have.
    Excluded(u64),
}

/// The least value whose bit is not set.
pub(super) fn mex_of(seen: &[u64]) -> u32 {
    // At most 64 bits a word and few words: the mex fits.
    crate::nimber::mex_of_bits(seen) as u32
}

/// The options of a component whose values are not known yet.
#[derive(Debug)]
pub(super) struct Pending<K> {
    pub(super) options: Vec<PendingOption<K>>,
    /// The unknown parts other than the largest, of every option.
    pub(super) others: Vec<K>,
}

impl<K> Default for Pending<K> {
    fn default() -> Self {
        Pending {
            options: Vec::new(),
            others: Vec::new(),
        }
    }
}

impl<K> Pending<K> {
    /// The easiest options first: those whose unknown parts are smallest (the sum of their
    /// sizes squared).
    pub(super) fn sort(&mut self) {
        self.options.sort_by_key(|o| o.difficulty);
    }
}

/// One option whose value is not known yet.
#[derive(Debug)]
pub(super) struct PendingOption<K> {
    /// The nim-sum of the parts valued so far.
    pub(super) x: u32,
    /// The largest unknown part, asked last.
    pub(super) big: K,
    /// The other unknown parts, a range of [`Pending::others`].
    pub(super) others: (u32, u32),
    /// The sort key.
    pub(super) difficulty: u64,
}

/// Values below this fit the bit sets of the pruned search.
pub(super) const SET_BITS: u32 = 128;

/// The values `0..n` as a bit set (all of them for `n ≥ 128`).
pub(super) fn low_bits(n: u32) -> u128 {
    if n >= SET_BITS {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// The set `{ v ^ x : v in set }` (elements beyond the set's width are dropped; `x < 128`
/// keeps every element).
pub(super) fn xor_set(mut set: u128, x: u32) -> u128 {
    let mut out = 0u128;
    while set != 0 {
        let v = set.trailing_zeros();
        set &= set - 1;
        out |= 1u128 << (v ^ x);
    }
    out
}

/// The values a component may still have while its options are searched: `0..=m` for `m`
/// options at first, one fewer with each option searched.
#[derive(Clone, Copy, Debug)]
pub(super) struct PossibleValues {
    pub(super) set: u128,
}

impl PossibleValues {
    /// `0..=m`, for `m < 128` options.
    pub(super) fn new(m: u32) -> Self {
        PossibleValues {
            set: low_bits(m + 1),
        }
    }

    /// An option of value `v`: removes `v`, or the largest element if `v` is not there.
    pub(super) fn remove(&mut self, v: u32) {
        if v < SET_BITS && self.set & (1 << v) != 0 {
            self.set &= !(1 << v);
        } else {
            self.remove_largest();
        }
    }

    pub(super) fn remove_largest(&mut self) {
        self.set &= !self.largest_bit();
    }

    pub(super) fn largest_bit(&self) -> u128 {
        if self.set == 0 {
            0
        } else {
            1 << (127 - self.set.leading_zeros())
        }
    }

    pub(super) fn without_largest(&self) -> u128 {
        self.set & !self.largest_bit()
    }

    /// The least element (the only one once every option is searched).
    pub(super) fn least(&self) -> u32 {
        self.set.trailing_zeros()
    }
}
