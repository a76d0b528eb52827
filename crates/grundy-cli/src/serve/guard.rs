//! Connections that cannot hold the server: a client that opens a connection and then sends
//! nothing, or sends its headers or body a byte at a time, or never reads its answer, is
//! closed once it has been silent for the idle time; and at most [`MAX_CONNECTIONS`] are
//! open at once (further clients wait in the system's queue until one closes), so slow
//! clients cannot take every file descriptor and the server keeps serving the others.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// The most connections open at once.
pub const MAX_CONNECTIONS: usize = 512;

/// A listener whose connections close after `idle` without progress, at most
/// [`MAX_CONNECTIONS`] at once.
#[derive(Debug)]
pub struct GuardedListener {
    inner: TcpListener,
    idle: Duration,
    slots: Arc<Semaphore>,
}

impl GuardedListener {
    /// Guards the connections of `inner`.
    pub fn new(inner: TcpListener, idle: Duration) -> Self {
        GuardedListener {
            inner,
            idle,
            slots: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
        }
    }
}

impl axum::serve::Listener for GuardedListener {
    type Io = GuardedStream;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        // The semaphore is never closed: a permit always comes, once a connection ends.
        let permit = Arc::clone(&self.slots)
            .acquire_owned()
            .await
            .expect("the connection slots are never closed");
        let (stream, address) = axum::serve::Listener::accept(&mut self.inner).await;
        (GuardedStream::new(stream, self.idle, permit), address)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

/// A connection that fails with [`io::ErrorKind::TimedOut`] once a read or a write has
/// waited `idle` since the last progress.
#[derive(Debug)]
pub struct GuardedStream {
    inner: TcpStream,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
    _slot: OwnedSemaphorePermit,
}

impl GuardedStream {
    fn new(inner: TcpStream, idle: Duration, slot: OwnedSemaphorePermit) -> Self {
        GuardedStream {
            inner,
            idle,
            deadline: Box::pin(tokio::time::sleep(idle)),
            _slot: slot,
        }
    }

    fn progress(&mut self) {
        let next = Instant::now() + self.idle;
        self.deadline.as_mut().reset(next);
    }

    /// After the inner stream answered `Pending`: an error once the deadline has passed.
    fn pending<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client was silent for too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for GuardedStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(r) => {
                this.progress();
                Poll::Ready(r)
            }
            Poll::Pending => this.pending(cx),
        }
    }
}

impl AsyncWrite for GuardedStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_write(cx, buf) {
            Poll::Ready(r) => {
                this.progress();
                Poll::Ready(r)
            }
            Poll::Pending => this.pending(cx),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_flush(cx) {
            Poll::Ready(r) => Poll::Ready(r),
            Poll::Pending => this.pending(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}
