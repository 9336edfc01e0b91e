//! Operator commands run as `server <command> ...` beside (or instead of) the shop, on the
//! database the shop's own settings name (DATABASE_URL, ROSACE_DATA_DIR): the fulfilment
//! simulator (`server orders ...`), support replies (`server support ...`), the
//! experiments report and controls (`server experiments report|start|stop`), the back
//! office's first admin (`server operators create-admin EMAIL`), and the feed import
//! (`server import FILE`). Each prints what it did and exits 0, or says why not and exits
//! non-zero.
pub mod experiments;
pub mod import;
pub mod operators;
pub mod orders;
pub mod support;

use app::platform::db::Db;

/// Runs the command in `args` (without the program name), or `None` when `args` names no
/// operator command (the shop then starts as usual).
pub async fn run(args: &[String]) -> Option<i32> {
    let (command, rest) = args.split_first()?;
    match command.as_str() {
        "experiments" => Some(experiments::run(rest).await),
        "import" => Some(import::run(rest).await),
        "operators" => Some(operators::run(rest).await),
        "orders" => Some(orders::run(rest).await),
        "support" => Some(support::run(rest).await),
        _ => None,
    }
}

/// The shop's database, opened as the shop would open it (migrations included, so a
/// command run before the first start still finds its tables).
pub async fn open_db() -> Result<Db, String> {
    let config = crate::config::Config::from_env(([127, 0, 0, 1], 3000).into())
        .map_err(|e| format!("configuration error: {e}"))?;
    let db = Db::connect(&config.database_url, 2)
        .await
        .map_err(|e| format!("cannot open the database: {e}"))?;
    db.migrate()
        .await
        .map_err(|e| format!("cannot migrate the database: {e}"))?;
    Ok(db)
}
