//! A sale's banner and logo uploaded in the back office: refused when not a picture or
//! without the form token (nothing stored), then shown by the shop in place of its drawing
//! on the home's tiles and sale cards, in the header's menu and in the sale's catalog call,
//! served in the shop's widths.
use super::*;
use crate::helpers::{both, TestApp};

fn png(width: u32, height: u32) -> Vec<u8> {
    let mut png = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([x as u8, 90, y as u8])
    }))
    .write_to(&mut png, image::ImageFormat::Png)
    .unwrap();
    png.into_inner()
}

async fn a_sale_gets_its_own_banner_and_logo(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let (status, page) = merch.get(&t, "/backoffice/sales/1001").await;
    assert_eq!(status, 200);
    assert!(
        page.contains(r#"src="/img/sale/1001/banner.svg""#),
        "the drawing until one is sent"
    );
    let upload = |desk: &Desk, kind: &'static str, token: String, bytes: Vec<u8>| {
        let form = reqwest::multipart::Form::new().text("_xsrf", token).part(
            "picture",
            reqwest::multipart::Part::bytes(bytes).file_name("banner.png"),
        );
        t.client
            .post(t.url(&format!("/backoffice/sales/1001/{kind}")))
            .header("cookie", &desk.cookie)
            .multipart(form)
            .send()
    };

    // Refused, nothing stored: a file that is not a picture, a forged token, another role.
    let res = upload(
        &merch,
        "banner",
        merch.xsrf.clone(),
        b"GIF89a not really".to_vec(),
    )
    .await
    .unwrap();
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("This file is not a JPEG, PNG or WebP picture."),
        "{html}"
    );
    assert!(
        html.contains(r#"id="sale-banner-error""#),
        "said beside its form"
    );
    assert_eq!(
        upload(&merch, "banner", "forged".into(), png(1200, 400))
            .await
            .unwrap()
            .status(),
        403
    );
    let care = sign_in(&t, CARE).await;
    assert_eq!(
        upload(&care, "logo", care.xsrf.clone(), png(96, 96))
            .await
            .unwrap()
            .status(),
        403
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM sale_pictures").await, 0);

    // Sent: the banner, then the logo.
    let res = upload(&merch, "banner", merch.xsrf.clone(), png(1200, 400))
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(
        res.headers()["location"],
        "/backoffice/sales/1001?done=picture"
    );
    let res = upload(&merch, "logo", merch.xsrf.clone(), png(96, 96))
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let banner = t
        .count("SELECT banner_image_id FROM sales WHERE id = 1001")
        .await;
    let logo = t
        .count("SELECT logo_image_id FROM sales WHERE id = 1001")
        .await;
    assert!(banner > 0 && logo > 0 && banner != logo);
    assert_eq!(audit_count(&t, "picture", "sale").await, 2);
    let (_, page) = merch.get(&t, "/backoffice/sales/1001").await;
    assert!(page.contains(&format!(r#"data-uploaded="{banner}""#)));
    assert!(page.contains(&format!(r#"src="/img/s/{logo}?w=179""#)));

    // Served in the shop's widths, never enlarged, kept for a year.
    let res = t
        .client
        .get(t.url(&format!("/img/s/{banner}?w=960")))
        .header("accept", "image/webp,*/*")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/webp");
    assert!(res.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("immutable"));
    let img = image::load_from_memory(&res.bytes().await.unwrap()).unwrap();
    assert_eq!((img.width(), img.height()), (960, 320));
    let res = t.get(&format!("/img/s/{logo}?w=179")).await;
    assert_eq!(res.status(), 200);
    let img = image::load_from_memory(&res.bytes().await.unwrap()).unwrap();
    assert_eq!(
        img.width(),
        96,
        "a logo smaller than the width asked is not enlarged"
    );
    assert_eq!(t.get("/img/s/999999?w=179").await.status(), 404);

    // The home's tiles of the sale now show it.
    assert_eq!(
        t.count("SELECT COUNT(*) FROM banners WHERE sale_id = 1001 AND image_url = '/img/sale/1001/banner.svg'")
            .await,
        0
    );
    let tiles = t
        .count(&format!(
            "SELECT COUNT(*) FROM banners WHERE sale_id = 1001 AND image_url = '/img/s/{banner}?w=960'"
        ))
        .await;
    assert!(tiles > 0, "the demo home has a tile of sale 1001");

    // A member sees them: the home, the header's menu and the sale's catalog call.
    let member = t.member_session(1).await;
    let res = t.get_with_cookie("/", &member).await;
    assert_eq!(res.status(), 200);
    let home = res.text().await.unwrap();
    assert!(
        home.contains(&format!("/img/s/{banner}?w=960")),
        "the home's tile"
    );
    assert!(
        home.contains(&format!("/img/s/{logo}?w=179")),
        "the header's menu"
    );
    assert!(
        !home.contains("/img/sale/1001/"),
        "no drawing of the sale left"
    );
    let res = t
        .get_with_cookie("/api/catalog/v2/sale/1001", &member)
        .await;
    assert_eq!(res.status(), 200);
    let sale: serde_json::Value = res.json().await.unwrap();
    assert_eq!(sale["banner"], format!("/img/s/{banner}?w=960"));
    assert_eq!(sale["logo"], format!("/img/s/{logo}?w=179"));

    // A copy of the sale keeps its pictures.
    let (status, location, _) = merch
        .post(&t, "/backoffice/sales/1001/duplicate", &[("site", "2")])
        .await;
    assert_eq!(status, 303, "{location}");
    let copy: i64 = location
        .strip_prefix("/backoffice/sales/")
        .and_then(|r| r.split('?').next())
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM sales WHERE id = {copy} AND banner_image_id = {banner} AND logo_image_id = {logo}"
        ))
        .await,
        1
    );
}
both!(
    a_sale_gets_its_own_banner_and_logo,
    sale_pictures_on_sqlite,
    sale_pictures_on_postgres
);
