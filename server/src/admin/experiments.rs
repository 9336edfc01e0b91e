//! `server experiments report`: per experiment and variation, the visitors recorded, the
//! pages that showed it (exposures), the conversions (visitors whose member paid an order
//! after the assignment) and the conversion rate with its 95% Wilson interval.
const USAGE: &str = "usage: server experiments report";

pub async fn run(args: &[String]) -> i32 {
    if args.len() != 1 || args[0] != "report" {
        eprintln!("{USAGE}");
        return 2;
    }
    let db = match super::open_db().await {
        Ok(db) => db,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    match app::experiments::service::report(&db).await {
        Ok(lines) => {
            print!("{}", app::experiments::report::render(&lines));
            0
        }
        Err(e) => {
            eprintln!("cannot read the experiments: {e}");
            1
        }
    }
}
