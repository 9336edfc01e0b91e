//! The members of a sale opening (scripts/bench/bench-sale-opening.sh) as a Goose attack.
//!
//!   sale-opening-load CONFIG.json
//!
//! CONFIG (written by the shell script) names the sessions file of bench_seed, the sale,
//! the servers, the opening time, the arrival window and the scratch folder. Every member
//! is a Goose user with its own client (one connection, as one browser tab), session cookie
//! and XSRF token, running the journey once. Member i (the i-th line of the sessions file)
//! arrives at opening + i x window / N and goes
//!   home → catalog → product → add (the scarce option; refused: another product's) →
//!   cart page → cart → freeze → pay, then the waiting line until its turn, then pay again
//! as the browser does (app/src/cart/ui/cart_page.rs). A 503 (load shedding) is asked again
//! after its Retry-After, no answer or a 408 after a second, as a person reloading would.
//!
//! It writes the same log as sale-opening.py's Locust members, which reads it for the
//! report: `R member step status epoch_start ms` per answer (the time includes the body),
//! `E member event epoch detail` per event, and one `P` line with the process' CPU.
//! Goose's own metrics are off: the log is the measurement. Pages are asked for compressed,
//! as a browser asks, and read without being inflated; the API's answers come plain.

use goose::prelude::*;
use serde_json::{json, Value};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const CARD: &str = "4242 4242 4242 4242";
const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";

struct Run {
    members: Vec<[String; 3]>,
    hosts: Vec<String>,
    opens_at: f64,
    window: f64,
    deadline: f64,
    sale: Value,
    log: Mutex<BufWriter<File>>,
    finished: AtomicUsize,
    /// The latest start of a member's journey, in microseconds since the epoch.
    last_start_us: AtomicU64,
}

static RUN: OnceLock<Run> = OnceLock::new();

fn run() -> &'static Run {
    RUN.get().expect("the run is read before the attack starts")
}

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

fn write_log(line: String) {
    if let Ok(mut log) = run().log.lock() {
        // A lost line would skew the report quietly, so a failed write ends the run.
        log.write_all(line.as_bytes())
            .expect("the load log is writable");
    }
}

fn event(member: &str, name: &str, detail: &str) {
    write_log(format!("E {member} {name} {:.6} {detail}\n", now()));
}

/// One answer: its status (0 for none) and body.
struct Answer {
    status: u16,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

struct Member<'a> {
    user: &'a mut GooseUser,
    id: String,
    cookie: String,
    xsrf: String,
    host: String,
    deadline: Instant,
}

impl Member<'_> {
    async fn call(&mut self, step: &'static str, post: Option<&Value>, path: &str) -> Answer {
        let page = matches!(step, "home" | "catalog" | "product" | "cart_page");
        let mut answer = Answer {
            status: 0,
            body: Vec::new(),
        };
        for _ in 0..20 {
            let method = if post.is_some() {
                GooseMethod::Post
            } else {
                GooseMethod::Get
            };
            let url = format!("{}{path}", self.host);
            let Ok(mut builder) = self.user.get_request_builder(&method, &url) else {
                return answer;
            };
            builder = builder
                .header("Cookie", &self.cookie)
                .header("X-XSRF-TOKEN", &self.xsrf);
            if page {
                // As a browser asks; the compressed page is read but never inflated here
                // (the client's gzip is off), as the member's own machine would inflate it.
                builder = builder
                    .header("Accept", "text/html")
                    .header("Accept-Encoding", "gzip");
            }
            if let Some(body) = post {
                builder = builder
                    .header("Content-Type", "application/json")
                    .body(body.to_string());
            }
            let request = GooseRequest::builder()
                .set_request_builder(builder)
                .name(step)
                .build();
            let started_at = now();
            let started = Instant::now();
            let mut retry_after = None;
            answer = match self.user.request(request).await.map(|r| r.response) {
                Ok(Ok(response)) => {
                    let status = response.status().as_u16();
                    retry_after = response
                        .headers()
                        .get("Retry-After")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.parse::<u64>().ok());
                    match response.bytes().await {
                        Ok(body) => Answer {
                            status,
                            body: body.to_vec(),
                        },
                        Err(_) => Answer {
                            status: 0,
                            body: Vec::new(),
                        },
                    }
                }
                _ => Answer {
                    status: 0,
                    body: Vec::new(),
                },
            };
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            write_log(format!(
                "R {} {step} {} {started_at:.6} {ms:.3}\n",
                self.id, answer.status
            ));
            // No answer, 408 (the response did not start in time) or 503 (shed): a person
            // reloads or clicks again; a payment asked again with the same cart hash gets
            // the order it made, not a second charge.
            if matches!(answer.status, 0 | 408 | 503) && Instant::now() < self.deadline {
                let wait = if answer.status == 0 {
                    1
                } else {
                    retry_after.unwrap_or(1)
                };
                tokio::time::sleep(Duration::from_secs(wait)).await;
                continue;
            }
            return answer;
        }
        answer
    }

    fn fail(&self, step: &str, answer: &Answer) {
        event(&self.id, "failed", &format!("{step}:{}", answer.status));
    }

    async fn shop(&mut self) {
        let sale = &run().sale;
        let id = &sale["id"];
        for (step, path) in [
            ("home", "/".to_string()),
            ("catalog", format!("/catalog/{id}/0")),
            (
                "product",
                format!("/product/{id}/{}", sale["scarce_product"]),
            ),
        ] {
            let answer = self.call(step, None, &path).await;
            if answer.status != 200 {
                return self.fail(step, &answer);
            }
        }
        let mut item = json!({"product_id": sale["scarce_option"].to_string(), "quantity": 1, "cart_type": "fs"});
        let mut got = "scarce";
        let mut answer = self
            .call("add", Some(&item), "/api/cartproxy/v1/item")
            .await;
        if answer.status != 201 {
            // Sold out (or refused): the member takes another product of the sale.
            item["product_id"] = json!(sale["plenty_option"].to_string());
            got = "plenty";
            answer = self
                .call("add_other", Some(&item), "/api/cartproxy/v1/item")
                .await;
            if answer.status != 201 {
                return self.fail("add_other", &answer);
            }
        }
        event(&self.id, "added", got);
        for (step, path) in [("cart_page", "/cart"), ("cart", "/api/cartproxy/v1")] {
            let answer = self.call(step, None, path).await;
            if answer.status != 200 {
                return self.fail(step, &answer);
            }
        }
        let answer = self.call("freeze", None, PIPE).await;
        let cart_hash = match answer.json()["cartHash"].as_str() {
            Some(hash) if answer.status == 200 => hash.to_string(),
            _ => return self.fail("freeze", &answer),
        };
        let pay = format!("{PIPE}/pay");
        let mut ticket = Value::Null;
        let mut queued = false;
        while Instant::now() < self.deadline {
            let body = json!({
                "cartHash": cart_hash, "generateDeeplinkReturnUrl": false, "card": CARD,
                "saveCard": false, "waitingLineTicket": ticket, "addressId": null,
            });
            let answer = self.call("pay", Some(&body), &pay).await;
            match answer.status {
                200 => {
                    let order = answer.json()["orderId"].to_string();
                    return event(&self.id, "paid", order.trim_matches('"'));
                }
                // This member's payment is still running (a retry): ask again.
                409 => {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                202 => {}
                _ => return self.fail("pay", &answer),
            }
            let mut line = answer.json()["waitingLine"].clone();
            if !queued {
                queued = true;
                event(&self.id, "queued", &line["position"].to_string());
            }
            ticket = Value::Null;
            while Instant::now() < self.deadline {
                let delay = line["retryAfter"].as_u64().unwrap_or(1).clamp(1, 10);
                tokio::time::sleep(Duration::from_secs(delay)).await;
                let path = format!(
                    "/api/catalog/v1/waiting-line/{}",
                    line["ticket"].as_str().unwrap_or("-")
                );
                let answer = self.call("line", None, &path).await;
                if answer.status != 200 {
                    break; // lapsed (410): paying again takes a new place, or pays
                }
                line = answer.json();
                if line["ready"].as_bool() == Some(true) || line["position"].as_i64() == Some(0) {
                    ticket = line["ticket"].clone();
                    break;
                }
            }
        }
        event(&self.id, "failed", "deadline")
    }
}

async fn journey(user: &mut GooseUser) -> TransactionResult {
    let run = run();
    let i = user.weighted_users_index;
    let Some([id, token, xsrf]) = run.members.get(i).cloned() else {
        return Ok(());
    };
    let host = run.hosts[i % run.hosts.len()].clone();
    let start_us = (now() * 1e6) as u64;
    run.last_start_us.fetch_max(start_us, Ordering::Relaxed);
    let arrive = run.opens_at + i as f64 * run.window / run.members.len().max(1) as f64;
    tokio::time::sleep(Duration::from_secs_f64((arrive - now()).max(0.0))).await;
    let instance = run.hosts.iter().position(|h| *h == host).unwrap_or(0);
    event(&id, "arrive", &format!("{i} {instance}"));
    let mut member = Member {
        user,
        cookie: format!("rosace_session={token}; XSRF-TOKEN={xsrf}"),
        id,
        xsrf,
        host,
        deadline: Instant::now() + Duration::from_secs_f64(run.deadline),
    };
    member.shop().await;
    run.finished.fetch_add(1, Ordering::Relaxed);
    Ok(())
}

/// CPU seconds (user + system) this process has used, from /proc.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's closing parenthesis; utime and stime are the 12th
    // and 13th of them, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

fn read_run(path: &str) -> Result<Run, String> {
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?)
            .map_err(|e| format!("{path}: {e}"))?;
    let text = |key: &str| {
        config[key]
            .as_str()
            .map(str::to_string)
            .ok_or(format!("{path}: no {key}"))
    };
    let number = |key: &str| config[key].as_f64().ok_or(format!("{path}: no {key}"));
    let sessions = text("sessions")?;
    let members = std::fs::read_to_string(&sessions)
        .map_err(|e| format!("{sessions}: {e}"))?
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split_whitespace().map(str::to_string);
            Some([f.next()?, f.next()?, f.next()?])
        })
        .collect::<Vec<_>>();
    let hosts: Vec<String> = config["hosts"]
        .as_array()
        .map(|h| {
            h.iter()
                .filter_map(|h| h.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    if members.is_empty() || hosts.is_empty() {
        return Err(format!("{path}: no members or no hosts"));
    }
    let log =
        File::create(format!("{}/load-0.log", text("scratch")?)).map_err(|e| e.to_string())?;
    Ok(Run {
        members,
        hosts,
        opens_at: number("opens_at")?,
        window: number("window")?,
        deadline: number("member_deadline")?,
        sale: config["sale"].clone(),
        log: Mutex::new(BufWriter::with_capacity(1 << 16, log)),
        finished: AtomicUsize::new(0),
        last_start_us: AtomicU64::new(0),
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: sale-opening-load CONFIG.json")?;
    let run = RUN.get_or_init(|| {
        read_run(&path).unwrap_or_else(|e| {
            eprintln!("sale-opening-load: {e}");
            std::process::exit(2)
        })
    });
    let n = run.members.len();
    let cpu0 = cpu_seconds();
    let started = now();
    GooseAttack::initialize_with_config(Default::default())?
        .register_scenario(scenario!("member").register_transaction(transaction!(journey)))
        .set_default(GooseDefault::Host, run.hosts[0].as_str())?
        .set_default(GooseDefault::Users, n)?
        // Every user starts at once and waits for its own arrival time.
        .set_default(GooseDefault::IncreaseRate, (n * 4).to_string().as_str())?
        .set_default(GooseDefault::Iterations, 1)?
        .set_default(GooseDefault::NoMetrics, true)?
        .set_default(GooseDefault::NoPrintMetrics, true)?
        .set_default(GooseDefault::NoErrorSummary, true)?
        // Inflating every page took a third of this process's CPU at the peak (perf), on
        // the cores the server needs: pages ask for gzip themselves (`Member::call`).
        .set_default(GooseDefault::NoGzip, true)?
        .set_default(GooseDefault::NoTelnet, true)?
        .set_default(GooseDefault::NoWebSocket, true)?
        .set_default(GooseDefault::Quiet, 1)?
        .set_default(GooseDefault::Timeout, "120")?
        .execute()
        .await?;
    let spawned = run.last_start_us.load(Ordering::Relaxed) as f64 / 1e6;
    let finished = run.finished.load(Ordering::Relaxed);
    write_log(format!(
        "P 0 {n} {finished} {started:.3} {spawned:.3} {:.3} {:.3}\n",
        now(),
        cpu_seconds() - cpu0
    ));
    run.log.lock().map_err(|_| "the load log's lock")?.flush()?;
    Ok(())
}
