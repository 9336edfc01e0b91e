//! The member's orders: the paged list (`/my-orders`) and one order's detail, rendered on
//! the server from the orders service; islands only where a click does something.
pub mod after_sale;
pub mod detail;
pub mod list;
pub mod reopen;
mod settled;

use crate::context::RequestCtx;

fn t(key: &str) -> String {
    RequestCtx::current().t(key)
}

/// An instant as a `<time datetime>` value (UTC).
fn iso(unix_secs: i64) -> String {
    let c = crate::site::format::civil_from_unix(unix_secs, 0);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}Z",
        c.year, c.month, c.day, c.hour, c.minute
    )
}
