//! How much memory a new computation may take on this machine and in this process.
//!
//! [`Limits::DEFAULT`] allows one table of 4 GiB whatever the machine has. Where a process
//! runs under an address-space limit (`ulimit -v`, a container's cap) or on a small machine,
//! a table that passes the budget's check can still fail to allocate, and a failed
//! allocation aborts the whole process (a Python interpreter with it). Front ends therefore
//! start from [`Limits::for_this_machine`]: the same defaults with the table limit lowered to
//! half of [`available_memory`], so that the budget refuses the table, naming the figure,
//! before the allocator does.

use super::Limits;

impl Limits {
    /// [`Limits::DEFAULT`] with `max_bytes` at most half the memory available
    /// ([`available_memory`]): a table the machine or the process's address-space limit could
    /// not hold is refused by the budget instead of aborting on a failed allocation. Where
    /// nothing can be measured (not Linux), the defaults.
    pub fn for_this_machine() -> Limits {
        Limits {
            max_bytes: default_table_bytes(Limits::DEFAULT.max_bytes),
            ..Limits::DEFAULT
        }
    }
}

/// `default`, or half the memory available if that is less.
pub fn default_table_bytes(default: u64) -> u64 {
    available_memory().map_or(default, |bytes| default.min(bytes / 2))
}

/// The memory available to a new computation, in bytes: the machine's available memory
/// (`MemAvailable` of `/proc/meminfo`), or less when the process's address-space limit
/// leaves less (Linux); `None` where neither can be read.
pub fn available_memory() -> Option<u64> {
    match (machine_memory(), address_space_left()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The machine's available memory (`MemAvailable` of `/proc/meminfo`).
fn machine_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// What the process's address-space limit leaves beyond what the process maps already;
/// `None` without such a limit.
fn address_space_left() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    // "Max address space   <soft>   <hard>   bytes"; "unlimited" is no limit.
    let soft: u64 = line.split_whitespace().nth(3)?.parse().ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let mapped_kib: u64 = status
        .lines()
        .find(|l| l.starts_with("VmSize:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(soft.saturating_sub(mapped_kib.saturating_mul(1024)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_limit_never_exceeds_the_default_and_keeps_the_other_limits() {
        let fitted = Limits::for_this_machine();
        assert!(fitted.max_bytes <= Limits::DEFAULT.max_bytes);
        assert_eq!(fitted.max_work, Limits::DEFAULT.max_work);
        assert_eq!(fitted.max_positions, Limits::DEFAULT.max_positions);
        if let Some(available) = available_memory() {
            assert!(fitted.max_bytes <= available / 2);
            assert_eq!(default_table_bytes(1 << 10), (1 << 10).min(available / 2));
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_reports_the_memory_available() {
        let available = available_memory().expect("/proc/meminfo is readable on Linux");
        assert!(available > 0);
    }
}
