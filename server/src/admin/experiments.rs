//! `server experiments report`: per experiment and variation, the visitors recorded, the
//! pages that showed it (exposures), the conversions (visitors whose member paid an order
//! after the assignment) and the conversion rate with its 95% Wilson interval.
//! `server experiments start|stop NAME`: what the back office's experiments page does,
//! through the same service and with its audit record; a running shop takes it up at its
//! next reload of the controls (`startup::EXPERIMENTS_RELOAD`).
use app::experiments::error::ExperimentsError;
use app::experiments::rules::Settings;
use app::experiments::service::{Change, Live};

use crate::backoffice::audit::Actor;

const USAGE: &str = "usage: server experiments report | server experiments start|stop NAME";

pub async fn run(args: &[String]) -> i32 {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let change = match words.as_slice() {
        ["report"] => None,
        ["start", name] => Some((Change::Start, *name)),
        ["stop", name] => Some((Change::Stop, *name)),
        _ => {
            eprintln!("{USAGE}");
            return 2;
        }
    };
    let db = match super::open_db().await {
        Ok(db) => db,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let Some((change, name)) = change else {
        return match app::experiments::service::report(&db).await {
            Ok(lines) => {
                print!("{}", app::experiments::report::render(&lines));
                0
            }
            Err(e) => {
                eprintln!("cannot read the experiments: {e}");
                1
            }
        };
    };
    let actor = Actor {
        operator_id: None,
        email: "command line".into(),
        ip: "local".into(),
    };
    let live = Live::new(Settings::current().clone());
    match crate::backoffice::experiments::apply(&db, &live, &actor, name, None, &change).await {
        Ok(true) => {
            println!("{name}: {}", change.action());
            0
        }
        Ok(false) => {
            println!("{name}: nothing to change");
            0
        }
        Err(ExperimentsError::UnknownExperiment) => {
            eprintln!("no experiment named {name:?}");
            2
        }
        Err(e) => {
            eprintln!("cannot change the experiment: {e}");
            1
        }
    }
}
