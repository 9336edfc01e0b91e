//! `server support ...`: support replies to tickets (issue #14), owned by the help area.
pub async fn run(_args: &[String]) -> i32 {
    eprintln!("usage: server support <command> (not built yet)");
    2
}
