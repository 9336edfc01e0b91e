//! `server orders ...`: the fulfilment simulator (issue #14), owned by the orders area.
pub async fn run(_args: &[String]) -> i32 {
    eprintln!("usage: server orders <command> (not built yet)");
    2
}
