//! The local test identity provider (see `server::test_idp`), for `end2end/run.sh` and
//! the demo: `ROSACE_TEST_IDP_ADDR` (default 127.0.0.1:4455) and `ROSACE_TEST_IDP_CLIENTS`
//! (`id:secret,id:secret`; default the three demo clients google-test, facebook-test,
//! apple-test with the secret `test-secret`). Never for production.
use std::sync::Arc;

#[tokio::main]
async fn main() {
    let addr = std::env::var("ROSACE_TEST_IDP_ADDR").unwrap_or_else(|_| "127.0.0.1:4455".into());
    let clients = std::env::var("ROSACE_TEST_IDP_CLIENTS").unwrap_or_else(|_| {
        "google-test:test-secret,facebook-test:test-secret,apple-test:test-secret".into()
    });
    let clients: Vec<(String, String)> = clients
        .split(',')
        .filter_map(|c| c.split_once(':'))
        .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
        .collect();
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .expect("bind the test provider");
    let issuer = format!("http://{}", listener.local_addr().expect("address"));
    let idp = Arc::new(server::test_idp::Idp::new(&issuer, clients));
    println!("test identity provider at {issuer}");
    axum::serve(listener, server::test_idp::router(idp))
        .await
        .expect("serve");
}
