//! The checkout waiting line: at most `capacity` payments run at once; beyond it members
//! get a ticket and wait their turn in arrival order (FIFO). A ticket that becomes ready
//! keeps a slot for [`READY_HOLD`]; unused, the slot goes to the next ticket.
//! Per process: each instance admits its own share of the load.
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::model::cart::WaitingLine as WaitingLineView;

/// How long a ready ticket keeps its payment slot.
pub const READY_HOLD: Duration = Duration::from_secs(30);

#[derive(Default)]
struct Inner {
    in_flight: usize,
    queue: VecDeque<(String, i64)>,
    ready: HashMap<String, (i64, Instant)>,
}

pub struct WaitingLine {
    capacity: usize,
    inner: Arc<Mutex<Inner>>,
}

/// A payment slot; dropping it lets the next ticket in.
pub struct Permit {
    inner: Arc<Mutex<Inner>>,
    capacity: usize,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        g.in_flight = g.in_flight.saturating_sub(1);
        promote(&mut g, self.capacity);
    }
}

pub enum Admission {
    Admitted(Permit),
    Queued(WaitingLineView),
}

fn promote(g: &mut Inner, capacity: usize) {
    let now = Instant::now();
    let stale: Vec<String> = g
        .ready
        .iter()
        .filter(|(_, (_, deadline))| *deadline <= now)
        .map(|(t, _)| t.clone())
        .collect();
    for t in stale {
        g.ready.remove(&t);
        g.in_flight = g.in_flight.saturating_sub(1);
    }
    while g.in_flight < capacity {
        let Some((ticket, member)) = g.queue.pop_front() else {
            break;
        };
        g.ready.insert(ticket, (member, now + READY_HOLD));
        g.in_flight += 1;
    }
}

fn view(ticket: &str, position: usize, capacity: usize) -> WaitingLineView {
    WaitingLineView {
        ticket: ticket.to_string(),
        position: position as i64,
        retry_after: if position == 0 {
            0
        } else {
            (1 + position / capacity.max(1)).min(10) as i64
        },
        ready: position == 0,
    }
}

fn new_ticket() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEQ: AtomicU64 = AtomicU64::new(1);
    let seq = SEQ.fetch_add(1, Ordering::Relaxed);
    let salt = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("wl{seq:x}{salt:08x}")
}

impl WaitingLine {
    pub fn new(capacity: usize) -> WaitingLine {
        WaitingLine {
            capacity,
            inner: Arc::new(Mutex::new(Inner::default())),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Admits a member's payment now, or queues it (a member holds one ticket at a time).
    pub fn admit(&self, member_id: i64, ticket: Option<&str>) -> Admission {
        let mut g = self.lock();
        promote(&mut g, self.capacity);
        let permit = || Permit {
            inner: self.inner.clone(),
            capacity: self.capacity,
        };
        if let Some(t) = ticket {
            if g.ready.get(t).is_some_and(|(m, _)| *m == member_id) {
                g.ready.remove(t);
                return Admission::Admitted(permit());
            }
        }
        if let Some(i) = g.queue.iter().position(|(_, m)| *m == member_id) {
            return Admission::Queued(view(&g.queue[i].0, i + 1, self.capacity));
        }
        if let Some((t, _)) = g.ready.iter().find(|(_, (m, _))| *m == member_id) {
            let t = t.clone();
            g.ready.remove(&t);
            return Admission::Admitted(permit());
        }
        if g.queue.is_empty() && g.in_flight < self.capacity {
            g.in_flight += 1;
            return Admission::Admitted(permit());
        }
        let t = new_ticket();
        g.queue.push_back((t.clone(), member_id));
        Admission::Queued(view(&t, g.queue.len(), self.capacity))
    }

    /// Position of a ticket: 0 and ready when it is the member's turn; `None` if unknown.
    pub fn status(&self, ticket: &str) -> Option<WaitingLineView> {
        let mut g = self.lock();
        promote(&mut g, self.capacity);
        if g.ready.contains_key(ticket) {
            return Some(view(ticket, 0, self.capacity));
        }
        g.queue
            .iter()
            .position(|(t, _)| t == ticket)
            .map(|i| view(ticket, i + 1, self.capacity))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queued(a: Admission) -> WaitingLineView {
        match a {
            Admission::Queued(v) => v,
            Admission::Admitted(_) => panic!("expected a ticket"),
        }
    }

    #[test]
    fn first_in_first_out_beyond_capacity() {
        let line = WaitingLine::new(1);
        let Admission::Admitted(first) = line.admit(1, None) else {
            panic!("capacity 1 admits the first")
        };
        let b = queued(line.admit(2, None));
        let c = queued(line.admit(3, None));
        assert_eq!((b.position, c.position), (1, 2));
        assert_eq!(
            queued(line.admit(2, None)).ticket,
            b.ticket,
            "one ticket per member"
        );
        assert_eq!(line.status(&c.ticket).unwrap().position, 2);
        drop(first);
        let ready = line.status(&b.ticket).unwrap();
        assert!(ready.ready && ready.position == 0);
        assert_eq!(line.status(&c.ticket).unwrap().position, 1);
        // Member 3 cannot jump the line; member 2 comes in with the ready ticket.
        assert!(matches!(
            line.admit(3, Some(&c.ticket)),
            Admission::Queued(_)
        ));
        let Admission::Admitted(second) = line.admit(2, Some(&b.ticket)) else {
            panic!("ready ticket admits")
        };
        drop(second);
        assert!(line.status(&c.ticket).unwrap().ready);
        assert!(line.status("nope").is_none());
    }
}
