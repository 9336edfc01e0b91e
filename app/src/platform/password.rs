//! Password hashing: argon2id with OWASP ASVS 5.0 appendix C parameters (m=19456 KiB, t=2, p=1).
//!
//! One hash costs tens of milliseconds of CPU and 19 MiB. Request handlers use
//! [`hash_async`] and [`verify_async`]: the work runs on Tokio's blocking pool
//! (`spawn_blocking`), never on the async worker threads that serve every other request,
//! and at most [`permits`] hashes (one per CPU) run at once; more wait their turn, so a
//! burst of logins costs a queue, not the machine's memory and every core (review M3).
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

fn hasher() -> Argon2<'static> {
    let params = Params::new(19_456, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes computed and verified since start (tests use it to prove that a refused request
/// cost no hash).
static COMPUTED: AtomicU64 = AtomicU64::new(0);
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
static MOST_IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

static PERMITS: LazyLock<Arc<Semaphore>> = LazyLock::new(|| Arc::new(Semaphore::new(permits())));

/// A real argon2id hash, verified against when an email is unknown (same work either way,
/// so timing does not tell which emails exist). Made on first use, on the blocking pool.
static DUMMY_HASH: LazyLock<String> =
    LazyLock::new(|| hash(&crate::platform::session::new_token()).unwrap_or_default());

/// How many hashes may run at once: the number of CPUs.
pub fn permits() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
}

/// Hashes computed or verified since the process started.
pub fn computed() -> u64 {
    COMPUTED.load(Ordering::SeqCst)
}

/// The most hashes that ran at the same time through [`hash_async`]/[`verify_async`].
pub fn most_in_flight() -> usize {
    MOST_IN_FLIGHT.load(Ordering::SeqCst)
}

pub fn hash(password: &str) -> Result<String, argon2::password_hash::Error> {
    COMPUTED.fetch_add(1, Ordering::SeqCst);
    let salt = SaltString::generate(&mut OsRng);
    Ok(hasher()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

pub fn verify(password: &str, stored: &str) -> bool {
    COMPUTED.fetch_add(1, Ordering::SeqCst);
    PasswordHash::new(stored)
        .is_ok_and(|h| hasher().verify_password(password.as_bytes(), &h).is_ok())
}

/// Runs `work` on the blocking pool once a permit is free; the permit is held until the
/// work ends, even if the request that asked for it is gone.
async fn off_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let permit = PERMITS.clone().acquire_owned().await.ok()?;
    tokio::task::spawn_blocking(move || {
        let now = IN_FLIGHT.fetch_add(1, Ordering::SeqCst) + 1;
        MOST_IN_FLIGHT.fetch_max(now, Ordering::SeqCst);
        let out = work();
        IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
        drop(permit);
        out
    })
    .await
    .ok()
}

/// [`hash`] off the async threads, with bounded concurrency.
pub async fn hash_async(password: &str) -> Result<String, String> {
    let password = password.to_string();
    off_thread(move || hash(&password).map_err(|e| e.to_string()))
        .await
        .unwrap_or_else(|| Err("password hashing task failed".into()))
}

/// [`verify`] off the async threads, with bounded concurrency. `None`: no account, the
/// password is checked against a dummy hash for the same cost.
pub async fn verify_async(password: &str, stored: Option<&str>) -> bool {
    let password = password.to_string();
    let stored = stored.map(str::to_string);
    off_thread(move || match stored {
        Some(stored) => verify(&password, &stored),
        None => {
            let _ = verify(&password, &DUMMY_HASH);
            false
        }
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    #[test]
    fn hashes_are_argon2id_with_asvs_parameters_and_verify() {
        let h = super::hash("correct horse battery").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(super::verify("correct horse battery", &h));
        assert!(!super::verify("wrong", &h));
        assert!(!super::verify("x", "not a hash"));
    }

    /// On a single async thread, other tasks keep running while a hash is computed: the
    /// work is not on that thread.
    #[tokio::test(flavor = "current_thread")]
    async fn hashing_leaves_the_async_thread_free() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let done = Arc::new(AtomicBool::new(false));
        let ticker = {
            let done = done.clone();
            tokio::spawn(async move {
                let mut ticks = 0u32;
                while !done.load(Ordering::SeqCst) {
                    tokio::time::sleep(std::time::Duration::from_millis(1)).await;
                    ticks += 1;
                }
                ticks
            })
        };
        let h = super::hash_async("correct horse battery").await.unwrap();
        assert!(super::verify_async("correct horse battery", Some(&h)).await);
        assert!(!super::verify_async("wrong", Some(&h)).await);
        assert!(!super::verify_async("wrong", None).await);
        done.store(true, Ordering::SeqCst);
        let ticks = ticker.await.unwrap();
        assert!(ticks >= 3, "the async thread was blocked ({ticks} ticks)");
    }

    /// Many concurrent hashes: never more at once than there are permits.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_hashes_are_bounded() {
        let many = super::permits() * 3 + 1;
        let tasks: Vec<_> = (0..many)
            .map(|n| tokio::spawn(async move { super::hash_async(&format!("pw-{n}")).await }))
            .collect();
        for t in tasks {
            assert!(t.await.unwrap().is_ok());
        }
        let most = super::most_in_flight();
        assert!(most >= 1 && most <= super::permits(), "{most} at once");
    }
}
