//! `server support ...`: support's side of the tickets, owned by the help area.
//!
//! - `server support list [--all]`: the tickets waiting for an answer (open), or all;
//! - `server support reply <TICKET_ID> <TEXT...>`: answers a ticket: the message joins the
//!   thread, the member's message centre gets a notification (the header bell counts it)
//!   and the member an email (the Mailer outbox, or SMTP when configured);
//! - `server support close <TICKET_ID>`: closes a ticket.
use app::help::error::HelpError;
use app::help::service;

const USAGE: &str = "usage: server support list [--all]\n       server support reply <TICKET_ID> <TEXT...>\n       server support close <TICKET_ID>";

fn ticket_id(arg: &str) -> Option<i64> {
    arg.trim_start_matches('#').parse().ok()
}

pub async fn run(args: &[String]) -> i32 {
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return 2;
    };
    let config = match crate::config::Config::from_env(([127, 0, 0, 1], 3000).into()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("configuration error: {e}");
            return 1;
        }
    };
    let id = rest.first().and_then(|a| ticket_id(a));
    let ok = match (command.as_str(), id) {
        ("list", _) if rest.len() <= 1 => true,
        ("reply", Some(_)) if rest.len() >= 2 => true,
        ("close", Some(_)) if rest.len() == 1 => true,
        _ => false,
    };
    if !ok {
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
    let now = app::platform::state::now();
    match (command.as_str(), id) {
        ("list", _) => {
            let all = rest.first().is_some_and(|a| a == "--all");
            match app::help::store::support_tickets(&db, all).await {
                Ok(tickets) => {
                    if tickets.is_empty() {
                        println!("no tickets");
                    }
                    for t in tickets {
                        println!(
                            "#{}\t{}\tsite {}\tmember {}\t{}",
                            t.id,
                            t.status,
                            t.site_id,
                            t.member_id,
                            // Titles from before control characters were refused.
                            app::text::line::one_line(&t.subject_title)
                        );
                    }
                    0
                }
                Err(e) => {
                    eprintln!("cannot list the tickets: {e}");
                    1
                }
            }
        }
        ("reply", Some(id)) => {
            let text = rest[1..].join(" ");
            match service::support_reply(
                &db,
                &config.settings.mail,
                &config.public_origin,
                id,
                &text,
                now,
            )
            .await
            {
                Ok(r) => {
                    println!("ticket {}: answered (member {})", r.ticket_id, r.member_id);
                    match r.mailed {
                        Ok(via) => {
                            println!("email sent ({via})");
                            0
                        }
                        Err(e) => {
                            eprintln!("the answer is saved, but the email failed: {e}");
                            1
                        }
                    }
                }
                Err(HelpError::NotFound) => {
                    eprintln!("no ticket {id}");
                    1
                }
                Err(HelpError::Invalid(_)) => {
                    eprintln!("the answer is empty or too long");
                    2
                }
                Err(e) => {
                    eprintln!("cannot answer ticket {id}: {e}");
                    1
                }
            }
        }
        ("close", Some(id)) => match service::support_close(&db, id, now).await {
            Ok(()) => {
                println!("ticket {id}: closed");
                0
            }
            Err(HelpError::NotFound) => {
                eprintln!("no ticket {id}");
                1
            }
            Err(e) => {
                eprintln!("cannot close ticket {id}: {e}");
                1
            }
        },
        _ => 2,
    }
}
