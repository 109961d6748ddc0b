//! A fixed set of open database connections. A handler takes one inside `spawn_blocking` (the
//! drivers block), uses it and gives it back; when all are busy it waits for one. A connection
//! that failed (a restarted PostgreSQL server) is dropped and a fresh one opened in its place.

use std::sync::{Arc, Condvar, Mutex};

use resultsdb::{Location, Store};

pub struct Pool {
    loc: Location,
    idle: Mutex<Vec<Store>>,
    ready: Condvar,
}

/// An error of a database call inside the pool.
pub type DbResult<T> = Result<T, resultsdb::Error>;

impl Pool {
    /// Opens `n` connections; the first one migrates the schema.
    pub fn open(loc: &Location, n: usize) -> anyhow::Result<Pool> {
        let first = Store::open(loc).map_err(|e| {
            anyhow::anyhow!("cannot open the results database {}: {e}", loc.display())
        })?;
        let mut idle = vec![first];
        for _ in 1..n.max(1) {
            idle.push(Store::open(loc)?);
        }
        Ok(Pool {
            loc: loc.clone(),
            idle: Mutex::new(idle),
            ready: Condvar::new(),
        })
    }

    /// Runs `f` with a connection on a blocking thread.
    pub async fn with<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Store) -> DbResult<T> + Send + 'static,
    ) -> DbResult<T> {
        let pool = Arc::clone(self);
        tokio::task::spawn_blocking(move || pool.with_blocking(f))
            .await
            .unwrap_or_else(|e| {
                Err(resultsdb::Error::Other(format!(
                    "database task failed: {e}"
                )))
            })
    }

    /// Runs `f` with a connection on this (blocking) thread: for work that is not only database
    /// calls ([`crate::heavy`]); its errors are its own.
    pub fn with_connection<T, E>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut store = self.take();
        let r = f(&mut store);
        self.give_back(store);
        r
    }

    fn take(&self) -> Store {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(s) = idle.pop() {
                return s;
            }
            idle = self.ready.wait(idle).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn give_back(&self, store: Store) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(store);
        self.ready.notify_one();
    }

    fn with_blocking<T>(&self, f: impl FnOnce(&mut Store) -> DbResult<T>) -> DbResult<T> {
        let mut store = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(s) = idle.pop() {
                    break s;
                }
                idle = self.ready.wait(idle).unwrap_or_else(|e| e.into_inner());
            }
        };
        let r = f(&mut store);
        let broken = matches!(&r, Err(resultsdb::Error::Postgres(e)) if e.is_closed());
        if broken && let Ok(fresh) = Store::open(&self.loc) {
            store = fresh;
        }
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(store);
        self.ready.notify_one();
        r
    }
}
