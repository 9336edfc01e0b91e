//! Outgoing email: over SMTP (lettre) when `ROSACE_SMTP_URL` is set, otherwise written to
//! an outbox folder (one `.eml` file each) so a local user can open the links.
use crate::text::line::one_line;
use std::path::PathBuf;

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

#[derive(Clone, Debug)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// Where emails go (ROSACE_OUTBOX_DIR, ROSACE_SMTP_URL).
#[derive(Clone, Debug)]
pub struct MailSettings {
    /// Where emails are written when no SMTP server is configured.
    pub outbox_dir: String,
    /// `smtp://host:port`: send emails through this relay instead of the outbox.
    pub smtp_url: Option<String>,
}

impl Default for MailSettings {
    fn default() -> Self {
        MailSettings {
            outbox_dir: "data/outbox".into(),
            smtp_url: None,
        }
    }
}

pub const FROM: &str = "Rosace <no-reply@rosace.test>";

/// Sends a message; returns where it went, for the log: the SMTP URL or the outbox folder,
/// never the file (its name holds the address: no email addresses in logs).
pub async fn send(settings: &MailSettings, mail: &Mail, now: i64) -> Result<String, String> {
    // A subject or address holds text members typed (a ticket's title): no line break or
    // other control character may reach a header.
    let clean = |s: &str| s.chars().filter(|c| !c.is_control()).collect::<String>();
    let mail = &Mail {
        to: clean(&mail.to),
        subject: clean(&mail.subject),
        body: mail.body.clone(),
    };
    match settings.smtp_url.as_deref() {
        Some(url) => send_smtp(url, mail).await.map(|_| url.to_string()),
        None => write_outbox(&settings.outbox_dir, mail, now)
            .map(|_| settings.outbox_dir.clone())
            .map_err(|e| e.to_string()),
    }
}

async fn send_smtp(url: &str, mail: &Mail) -> Result<(), String> {
    let from: Mailbox = FROM.parse().map_err(|e| format!("{e}"))?;
    let to: Mailbox = mail.to.parse().map_err(|e| format!("{e}"))?;
    let message = Message::builder()
        .from(from)
        .to(to)
        .subject(mail.subject.clone())
        .body(mail.body.clone())
        .map_err(|e| e.to_string())?;
    let (host, port) = smtp_host_port(url)
        .ok_or_else(|| format!("ROSACE_SMTP_URL is not smtp://host:port: {url}"))?;
    // Plain SMTP: meant for a relay on the same host or network (no TLS compiled in).
    let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
        .port(port)
        .build();
    transport
        .send(message)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// `smtp://host:port` (port 25 when absent).
pub fn smtp_host_port(url: &str) -> Option<(&str, u16)> {
    let rest = url.strip_prefix("smtp://")?.trim_end_matches('/');
    match rest.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() => Some((host, port.parse().ok()?)),
        None if !rest.is_empty() => Some((rest, 25)),
        _ => None,
    }
}

fn write_outbox(outbox_dir: &str, mail: &Mail, now: i64) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(outbox_dir)?;
    let safe_to: String = mail
        .to
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let name = format!(
        "{now}-{}-{safe_to}.eml",
        crate::platform::session::new_token()
    );
    let path = PathBuf::from(outbox_dir).join(name);
    // Headers on one line each whatever a subject was made of (lettre encodes them on the
    // SMTP path; this file is written as is).
    let text = format!(
        "To: {}\r\nFrom: {FROM}\r\nSubject: {}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
        one_line(&mail.to),
        one_line(&mail.subject),
        mail.body
    );
    std::fs::write(&path, text)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    #[test]
    fn smtp_urls_parse() {
        assert_eq!(
            super::smtp_host_port("smtp://127.0.0.1:2525"),
            Some(("127.0.0.1", 2525))
        );
        assert_eq!(
            super::smtp_host_port("smtp://relay.internal"),
            Some(("relay.internal", 25))
        );
        assert_eq!(super::smtp_host_port("http://x"), None);
        assert_eq!(super::smtp_host_port("smtp://:25"), None);
    }

    /// What `send` gives the log names the outbox, never the message's file: its name
    /// holds the recipient (review I6: no email addresses in logs).
    #[tokio::test]
    async fn the_log_line_holds_no_address() {
        let dir = std::env::temp_dir().join(format!("rosace-mail-{}", rand::random::<u64>()));
        let settings = super::MailSettings {
            outbox_dir: dir.display().to_string(),
            smtp_url: None,
        };
        let mail = super::Mail {
            to: "jeanne.martin@example.com".into(),
            subject: "s".into(),
            body: "b".into(),
        };
        let logged = super::send(&settings, &mail, 1).await.unwrap();
        assert!(!logged.contains("jeanne"), "{logged}");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "the mail was written"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
