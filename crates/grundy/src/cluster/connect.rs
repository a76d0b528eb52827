//! The processes of a cluster and their connections: a hosts file (one `host:port` a line),
//! this process's index, and the sockets between every pair, made under a deadline.
//!
//! Timely's own start-up connects and retries forever, printing to standard output; here each
//! process binds its own address, connects to the processes before it and accepts those after
//! it (the connecting process sends its index and its number of workers, 8 big-endian
//! bytes each, and the accepting one answers with its number of workers: timely needs the
//! same in every process),
//! and stops with [`ClusterError::Connect`] naming the peers still missing when the deadline
//! passes. The sockets are then handed to timely.

use super::ClusterError;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};
use timely::communication::Hooks;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};

/// The most processes a hosts file may name.
pub const MAX_PROCESSES: usize = 1024;

/// A cluster as one process sees it: every process's address and its own index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    addresses: Vec<String>,
    process: usize,
    workers: usize,
    timeout: Duration,
}

impl Cluster {
    /// Reads a hosts file's text (`origin` names it in errors): one `host:port` a line, in
    /// the order of the processes' indices; blank lines and `#` comments are skipped.
    pub fn from_hosts(text: &str, origin: &str, process: usize) -> Result<Cluster, ClusterError> {
        let mut addresses: Vec<String> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let entry = line.split('#').next().unwrap_or("").trim();
            if entry.is_empty() {
                continue;
            }
            let bad = |message: String| ClusterError::Hosts {
                origin: origin.to_string(),
                line: i + 1,
                message,
            };
            let Some((host, port)) = entry.rsplit_once(':') else {
                return Err(bad(format!("`{entry}` is not host:port")));
            };
            if host.is_empty() || host.contains(char::is_whitespace) {
                return Err(bad(format!("`{entry}` has no host name")));
            }
            if port.parse::<u16>().map_or(true, |p| p == 0) {
                return Err(bad(format!("`{port}` is not a port (1 to 65535)")));
            }
            if addresses.iter().any(|a| a == entry) {
                return Err(bad(format!("`{entry}` is named twice")));
            }
            if addresses.len() == MAX_PROCESSES {
                return Err(bad(format!("more than {MAX_PROCESSES} processes")));
            }
            addresses.push(entry.to_string());
        }
        if addresses.is_empty() {
            return Err(ClusterError::Hosts {
                origin: origin.to_string(),
                line: 0,
                message: "names no process".into(),
            });
        }
        if process >= addresses.len() {
            return Err(ClusterError::Process {
                process,
                count: addresses.len(),
            });
        }
        Ok(Cluster {
            addresses,
            process,
            workers: 1,
            timeout: Duration::from_secs(30),
        })
    }

    /// With `workers` worker threads in each process (1 by default).
    pub fn with_workers(mut self, workers: usize) -> Self {
        self.workers = workers.max(1);
        self
    }

    /// With this deadline for every process to connect (30 s by default).
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// This process's index.
    pub fn process(&self) -> usize {
        self.process
    }

    /// How many processes.
    pub fn processes(&self) -> usize {
        self.addresses.len()
    }

    /// Worker threads in each process.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// The deadline for connecting.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// A socket to every other process (`None` at this process's own index), made before
    /// the deadline.
    pub(crate) fn sockets(&self) -> Result<Vec<Option<TcpStream>>, ClusterError> {
        let deadline = Instant::now() + self.timeout;
        let me = self.process;
        let n = self.addresses.len();
        let own = &self.addresses[me];
        let listener = TcpListener::bind(own).map_err(|e| ClusterError::Bind {
            address: own.clone(),
            message: e.to_string(),
        })?;
        listener
            .set_nonblocking(true)
            .map_err(|e| self.io_error(e))?;
        let mut sockets: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
        for (peer, address) in self.addresses.iter().enumerate().take(me) {
            let stream = loop {
                let attempt = address
                    .to_socket_addrs()
                    .ok()
                    .and_then(|mut a| a.next())
                    .map(|a| TcpStream::connect_timeout(&a, Duration::from_millis(500)));
                match attempt {
                    Some(Ok(stream)) => break stream,
                    _ if Instant::now() >= deadline => {
                        return Err(self.missing(vec![peer]));
                    }
                    _ => std::thread::sleep(Duration::from_millis(100)),
                }
            };
            let mut stream = stream;
            let mut theirs = [0u8; 8];
            let left = deadline.saturating_duration_since(Instant::now());
            stream
                .set_nodelay(true)
                .and_then(|()| stream.write_all(&(me as u64).to_be_bytes()))
                .and_then(|()| stream.write_all(&(self.workers as u64).to_be_bytes()))
                .and_then(|()| stream.set_read_timeout(Some(left.max(Duration::from_millis(100)))))
                .and_then(|()| stream.read_exact(&mut theirs))
                .and_then(|()| stream.set_read_timeout(None))
                .map_err(|e| self.io_error(e))?;
            self.same_workers(peer, u64::from_be_bytes(theirs))?;
            sockets[peer] = Some(stream);
        }
        while sockets[me + 1..].iter().any(Option::is_none) {
            match listener.accept() {
                Ok((mut stream, _)) => {
                    let (mut index, mut workers) = ([0u8; 8], [0u8; 8]);
                    let left = deadline.saturating_duration_since(Instant::now());
                    stream
                        .set_nonblocking(false)
                        .and_then(|()| {
                            stream.set_read_timeout(Some(left.max(Duration::from_millis(100))))
                        })
                        .and_then(|()| stream.read_exact(&mut index))
                        .and_then(|()| stream.read_exact(&mut workers))
                        .and_then(|()| stream.write_all(&(self.workers as u64).to_be_bytes()))
                        .and_then(|()| stream.set_read_timeout(None))
                        .and_then(|()| stream.set_nodelay(true))
                        .map_err(|e| self.io_error(e))?;
                    let index = u64::from_be_bytes(index);
                    if let Ok(i) = usize::try_from(index) {
                        self.same_workers(i, u64::from_be_bytes(workers))?;
                    }
                    match usize::try_from(index) {
                        Ok(i) if i > me && i < n && sockets[i].is_none() => {
                            sockets[i] = Some(stream)
                        }
                        _ => {
                            return Err(ClusterError::Protocol(format!(
                                "a connection to process {me} said it was process {index}, not \
                                 one of the processes after it still awaited"
                            )));
                        }
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() >= deadline {
                        let missing = (me + 1..n).filter(|&i| sockets[i].is_none()).collect();
                        return Err(self.missing(missing));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(self.io_error(e)),
            }
        }
        Ok(sockets)
    }

    /// Timely's allocators for this process's workers over sockets to every peer (made
    /// under the deadline), and the communication threads' handle `execute_from` keeps.
    pub(crate) fn allocators(
        &self,
    ) -> Result<(Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>), ClusterError> {
        let sockets = self.sockets()?;
        let hooks = Hooks::default();
        let process_allocators = ProcessBuilder::new_typed_vector(
            self.workers,
            hooks.refill.clone(),
            hooks.spill.clone(),
        );
        let (builders, comms) = initialize_networking_from_sockets(
            process_allocators,
            sockets,
            self.process,
            self.workers,
            hooks,
        )
        .map_err(|e| ClusterError::Protocol(e.to_string()))?;
        let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
        Ok((builders, Box::new(comms)))
    }

    /// Timely needs as many workers in every process: a difference is refused by name.
    fn same_workers(&self, peer: usize, theirs: u64) -> Result<(), ClusterError> {
        if theirs == self.workers as u64 {
            return Ok(());
        }
        Err(ClusterError::Protocol(format!(
            "process {peer} runs {theirs} workers and process {} runs {}: every process needs \
             the same --workers",
            self.process, self.workers
        )))
    }

    fn missing(&self, peers: Vec<usize>) -> ClusterError {
        ClusterError::Connect {
            process: self.process,
            missing: peers
                .iter()
                .map(|&i| format!("{i} ({})", self.addresses[i]))
                .collect(),
            seconds: self.timeout.as_secs_f64(),
        }
    }

    fn io_error(&self, e: std::io::Error) -> ClusterError {
        ClusterError::Protocol(format!(
            "process {} ({}): {e}",
            self.process, self.addresses[self.process]
        ))
    }
}
