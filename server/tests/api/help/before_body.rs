//! The forms with files refuse before reading their body (review N3): a visitor without a
//! session, a post another site made and an XSRF cookie that is not the session's get their
//! answer while the megabytes they announced are still unsent. A member's own post is read.
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

/// Sends the head of a multipart POST announcing 8 MB and the start of a first part, no
/// more; the status line of the answer when one comes within `wait`.
async fn answer_before_body(
    t: &TestApp,
    path: &str,
    cookie: &str,
    extra_headers: &str,
    wait: Duration,
) -> Option<String> {
    let url = t.url(path);
    let addr = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let mut stream = TcpStream::connect(&addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: multipart/form-data; boundary=XyZ\r\n\
         Content-Length: 8000000\r\nCookie: {cookie}\r\n{extra_headers}\r\n\
         --XyZ\r\nContent-Disposition: form-data; name=\"body\"\r\n\r\nLe début"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 2048];
    let n = tokio::time::timeout(wait, stream.read(&mut buf))
        .await
        .ok()?
        .ok()?;
    String::from_utf8_lossy(&buf[..n])
        .lines()
        .next()
        .map(str::to_string)
}

async fn refused_before_the_body(t: TestApp) {
    let member = shopper(&t, 0).await;
    let session_only = member.cookie.split("; ").next().unwrap().to_string();
    let quick = Duration::from_secs(5);
    for path in ["/helpform/send", "/rosedeals/forms/contact"] {
        let visitor = answer_before_body(&t, path, "", "", quick).await;
        assert!(
            visitor
                .as_deref()
                .is_some_and(|l| l.starts_with("HTTP/1.1 30")),
            "{path}: a visitor is sent to sign in at once: {visitor:?}"
        );
        let other_site = answer_before_body(
            &t,
            path,
            &member.cookie,
            "Sec-Fetch-Site: cross-site\r\n",
            quick,
        )
        .await;
        assert_eq!(
            other_site.as_deref(),
            Some("HTTP/1.1 403 Forbidden"),
            "{path}: a post from another site"
        );
        for cookie in [
            session_only.clone(),
            format!("{session_only}; XSRF-TOKEN=forged"),
        ] {
            let wrong = answer_before_body(&t, path, &cookie, "", quick).await;
            assert_eq!(
                wrong.as_deref(),
                Some("HTTP/1.1 403 Forbidden"),
                "{path}: {cookie}"
            );
        }
        // The member's own post from this site is read: nothing comes back while the body
        // is still on its way.
        let own = answer_before_body(
            &t,
            path,
            &member.cookie,
            "Sec-Fetch-Site: same-origin\r\n",
            Duration::from_millis(1500),
        )
        .await;
        assert_eq!(own, None, "{path}: the member's post is read");
    }
}
both!(
    refused_before_the_body,
    refused_before_the_body_on_sqlite,
    refused_before_the_body_on_postgres
);
