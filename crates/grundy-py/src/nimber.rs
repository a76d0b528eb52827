//! `grundy.Nimber`: a nim-value with nim-sum `^` and nim-product `*`.

use pyo3::exceptions::{PyValueError, PyZeroDivisionError};
use pyo3::prelude::*;

/// A nimber *n: the value of an impartial game. `a ^ b` is the nim-sum (the value of a sum
/// of games), `a * b` the nim-product (Conway's field of nimbers); plain integers mix in.
///
/// >>> from grundy import Nimber
/// >>> Nimber(2) * Nimber(3)
/// Nimber(1)
/// >>> int(Nimber(5) ^ 3)
/// 6
#[pyclass(module = "grundy", frozen, eq, ord, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nimber(pub grundy::Nimber);

fn operand(other: &Bound<'_, PyAny>) -> PyResult<Option<grundy::Nimber>> {
    if let Ok(n) = other.downcast::<Nimber>() {
        return Ok(Some(n.get().0));
    }
    match other.extract::<u64>() {
        Ok(v) => Ok(Some(grundy::Nimber(v))),
        Err(_) => Ok(None),
    }
}

#[pymethods]
impl Nimber {
    /// The nimber *value (a whole number from 0 to 2**64 - 1).
    #[new]
    fn new(value: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v: u64 = value.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "a nimber is a whole number from 0 to 2**64 - 1, not {}",
                value.repr().map_or_else(|_| "?".into(), |r| r.to_string())
            ))
        })?;
        Ok(Nimber(grundy::Nimber(v)))
    }

    /// The plain integer.
    #[getter]
    fn value(&self) -> u64 {
        self.0.0
    }

    fn __int__(&self) -> u64 {
        self.0.0
    }

    fn __index__(&self) -> u64 {
        self.0.0
    }

    fn __bool__(&self) -> bool {
        !self.0.is_zero()
    }

    fn __repr__(&self) -> String {
        format!("Nimber({})", self.0.0)
    }

    fn __str__(&self) -> String {
        format!("*{}", self.0.0)
    }

    fn __xor__(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<Nimber>> {
        Ok(operand(other)?.map(|o| Nimber(self.0 ^ o)))
    }

    fn __rxor__(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<Nimber>> {
        self.__xor__(other)
    }

    fn __mul__(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<Nimber>> {
        Ok(operand(other)?.map(|o| Nimber(self.0 * o)))
    }

    fn __rmul__(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<Nimber>> {
        self.__mul__(other)
    }

    /// The nim-product inverse: `a * a.inverse() == Nimber(1)`.
    fn inverse(&self) -> PyResult<Nimber> {
        self.0
            .inverse()
            .map(Nimber)
            .ok_or_else(|| PyZeroDivisionError::new_err("*0 has no inverse"))
    }

    fn __truediv__(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<Nimber>> {
        match operand(other)? {
            None => Ok(None),
            Some(o) => {
                let inv = o
                    .inverse()
                    .ok_or_else(|| PyZeroDivisionError::new_err("division by *0"))?;
                Ok(Some(Nimber(self.0 * inv)))
            }
        }
    }
}
