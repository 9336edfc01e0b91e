//! Outgoing email. By default messages are written to an outbox folder (one `.eml` file
//! each) so a local user can open the activation or recovery link.
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// Writes the message and returns its path.
pub fn send(outbox_dir: &str, mail: &Mail, now: i64) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(outbox_dir)?;
    let safe_to: String = mail
        .to
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let name = format!("{now}-{}-{safe_to}.eml", crate::session::new_token());
    let path = PathBuf::from(outbox_dir).join(name);
    let text = format!(
        "To: {}\r\nFrom: Rosace <no-reply@rosace.test>\r\nSubject: {}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
        mail.to, mail.subject, mail.body
    );
    std::fs::write(&path, text)?;
    Ok(path)
}
