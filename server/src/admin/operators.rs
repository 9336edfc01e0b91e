//! `server operators create-admin EMAIL [NAME]`: the first admin of the back office (or a
//! new one when every admin lost their phone). Prints a one-time set-up link, good for 72
//! hours, where they choose a password and a second factor. Admins invite the others
//! from the back office.
use crate::backoffice::audit::Actor;
use crate::backoffice::operators::{invite, InviteError};
use crate::backoffice::roles::Role;

const USAGE: &str = "usage: server operators create-admin EMAIL [NAME]";

pub async fn run(args: &[String]) -> i32 {
    let [command, email, rest @ ..] = args else {
        eprintln!("{USAGE}");
        return 2;
    };
    if command != "create-admin" || rest.len() > 1 {
        eprintln!("{USAGE}");
        return 2;
    }
    let name = rest
        .first()
        .cloned()
        .unwrap_or_else(|| email.split('@').next().unwrap_or("admin").to_string());
    let db = match super::open_db().await {
        Ok(db) => db,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let origin = crate::config::Config::from_env(([127, 0, 0, 1], 3000).into())
        .map(|c| c.public_origin)
        .unwrap_or_else(|_| "http://127.0.0.1:3000".into());
    let actor = Actor {
        operator_id: None,
        email: "command line".into(),
        ip: "local".into(),
    };
    match invite(&db, &actor, email, &name, Role::Admin, "en").await {
        Ok(path) => {
            println!("admin {email} created; one-time set-up link (72 hours):");
            println!("{}{path}", origin.trim_end_matches('/'));
            0
        }
        Err(InviteError::Email) => {
            eprintln!("not a valid email address: {email}");
            2
        }
        Err(InviteError::Name) => {
            eprintln!("not a valid name: {name}");
            2
        }
        Err(InviteError::Taken) => {
            eprintln!("an operator with the email {email} already exists");
            1
        }
        Err(InviteError::Db(e)) => {
            eprintln!("database error: {e}");
            1
        }
    }
}
