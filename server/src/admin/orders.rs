//! `server orders ...`: the fulfilment simulator. Paid orders move along the
//! life cycle of spec 001 §3 as a warehouse and a carrier would move them:
//!
//! - `server orders advance <ORDER_ID> [STATUS]`: one step along the simulator path of the
//!   order's kind (goods: validated or validated_available → in_preparation → shipped →
//!   received; a travel booking: validated → active, then expired once its stay is over;
//!   an accepted return → return_received → refund_in_progress → refunded), or straight to
//!   STATUS when the life cycle allows that move for that kind of order (e.g.
//!   `validated_available` when pre-reception goods came in, `shipped_partially`,
//!   `cancelled`, `expired`, `return_requested_accepted`);
//! - `server orders simulate`: one step for every order that can move (an active booking
//!   only once its stay is over).
//!
//! Shipping gives the order its tracking number. Every move is one transaction through
//! `orders::store::status::record` (status, timeline event, notification).
use app::orders::error::OrdersError;
use app::orders::service::{self, Moved};

const USAGE: &str =
    "usage: server orders advance <ORDER_ID> [STATUS]\n       server orders simulate";

fn describe(m: &Moved) -> String {
    match &m.tracking_number {
        Some(n) if m.to.assigns_tracking() => format!(
            "order {}: {} -> {} (tracking number {n})",
            m.order_id,
            m.from,
            m.to.wire()
        ),
        _ => format!("order {}: {} -> {}", m.order_id, m.from, m.to.wire()),
    }
}

pub async fn run(args: &[String]) -> i32 {
    let (command, rest) = match args.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => {
            eprintln!("{USAGE}");
            return 2;
        }
    };
    match command {
        "advance" if (1..=2).contains(&rest.len()) => {
            let Ok(id) = rest[0].parse::<i64>() else {
                eprintln!("not an order id: {:?}\n{USAGE}", rest[0]);
                return 2;
            };
            let db = match super::open_db().await {
                Ok(db) => db,
                Err(e) => {
                    eprintln!("{e}");
                    return 1;
                }
            };
            let now = app::platform::state::now();
            match service::advance(
                &db,
                id,
                rest.get(1).map(String::as_str),
                Some("operator"),
                now,
            )
            .await
            {
                Ok(m) => {
                    println!("{}", describe(&m));
                    0
                }
                Err(OrdersError::NotFound) => {
                    eprintln!("no order {id}");
                    1
                }
                Err(OrdersError::Refused(why)) => {
                    eprintln!("refused: order {id}: {why}");
                    1
                }
                Err(e) => {
                    eprintln!("failed: {e}");
                    1
                }
            }
        }
        "simulate" if rest.is_empty() => {
            let db = match super::open_db().await {
                Ok(db) => db,
                Err(e) => {
                    eprintln!("{e}");
                    return 1;
                }
            };
            match service::simulate(&db, app::platform::state::now()).await {
                Ok(moved) => {
                    for m in &moved {
                        println!("{}", describe(m));
                    }
                    println!("{} order(s) moved", moved.len());
                    0
                }
                Err(e) => {
                    eprintln!("failed: {e}");
                    1
                }
            }
        }
        _ => {
            eprintln!("{USAGE}");
            2
        }
    }
}
