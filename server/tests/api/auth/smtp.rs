//! Mail goes out through SMTP when a server is configured.
use serde_json::json;

use super::post_json;
use crate::helpers::{start_with, Backend};

/// A minimal SMTP server that hands over each message it receives.
async fn fake_smtp() -> (String, tokio::sync::mpsc::UnboundedReceiver<String>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("smtp://{}", listener.local_addr().unwrap());
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let tx = tx.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 fake ESMTP\r\n").await.unwrap();
                let mut data: Option<String> = None;
                while let Ok(Some(line)) = lines.next_line().await {
                    if let Some(buf) = data.as_mut() {
                        if line == "." {
                            tx.send(data.take().unwrap()).unwrap();
                            write.write_all(b"250 queued\r\n").await.unwrap();
                        } else {
                            buf.push_str(&line);
                            buf.push('\n');
                        }
                        continue;
                    }
                    let reply: &[u8] =
                        match line.get(..4).unwrap_or("").to_ascii_uppercase().as_str() {
                            "EHLO" | "HELO" => b"250 fake\r\n",
                            "DATA" => {
                                data = Some(String::new());
                                b"354 go ahead\r\n"
                            }
                            "QUIT" => {
                                let _ = write.write_all(b"221 bye\r\n").await;
                                return;
                            }
                            _ => b"250 OK\r\n",
                        };
                    write.write_all(reply).await.unwrap();
                }
            });
        }
    });
    (url, rx)
}

#[tokio::test]
async fn emails_go_through_smtp_when_configured() {
    let (url, mut inbox) = fake_smtp().await;
    let t = start_with(Backend::Sqlite, |c| c.settings.mail.smtp_url = Some(url)).await;
    let xsrf = t.xsrf().await;
    let res = post_json(
        &t,
        "/api/authentication/v1/password/recover",
        json!({"email": "demo@rosace.test", "siteId": 2}),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 200);
    let message = tokio::time::timeout(std::time::Duration::from_secs(10), inbox.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(message.contains("To: demo@rosace.test"), "{message}");
    assert!(
        message.contains("updatepassword"),
        "the recovery link: {message}"
    );
    assert!(
        !std::path::Path::new(&t.app.settings.mail.outbox_dir).exists(),
        "nothing in the outbox"
    );
}
