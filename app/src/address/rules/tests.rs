use super::*;

fn fe(field: &str, error_type: u8) -> AddressFieldError {
    AddressFieldError {
        field_type: field.into(),
        error_type,
    }
}

#[test]
fn message_choice_follows_spec_001_section_5() {
    assert_eq!(error_message(&[]), ErrorMessage::NotSaved);
    assert_eq!(
        error_message(&[fe("zipCode", 4)]),
        ErrorMessage::ForbiddenZip
    );
    assert_eq!(error_message(&[fe("zipCode", 5)]), ErrorMessage::WrongZip);
    // A zip code error of another kind names the field.
    assert_eq!(
        error_message(&[fe("zipCode", 1)]),
        ErrorMessage::WrongField(AddressField::ZipCode)
    );
    assert_eq!(
        error_message(&[fe("phone", 5)]),
        ErrorMessage::WrongField(AddressField::Phone)
    );
    assert_eq!(
        error_message(&[fe("city", 3)]),
        ErrorMessage::WrongField(AddressField::City)
    );
    assert_eq!(
        error_message(&[fe("zipCode", 4), fe("phone", 5)]),
        ErrorMessage::WrongFields
    );
    assert_eq!(
        error_message(&[fe("firstName", 1), fe("lastName", 1), fe("city", 1)]),
        ErrorMessage::WrongFields
    );
    // Two entries for one field are one faulty field; unknown fields count as none.
    assert_eq!(
        error_message(&[fe("zipCode", 4), fe("zipCode", 4)]),
        ErrorMessage::ForbiddenZip
    );
    assert_eq!(error_message(&[fe("planet", 4)]), ErrorMessage::NotSaved);
    assert_eq!(
        error_message(&[fe("planet", 4), fe("zipCode", 5)]),
        ErrorMessage::WrongZip
    );
}

#[test]
fn messages_have_their_keys_and_name_the_field() {
    assert_eq!(
        ErrorMessage::NotSaved.key(),
        "errors.address.not_saved.notification"
    );
    for lang in crate::site::i18n::LANGS {
        let one = ErrorMessage::WrongField(AddressField::City).text(lang);
        let city = crate::site::i18n::t(lang, "address.field.city");
        assert!(one.contains(&city), "{lang}: {one}");
        for m in [
            ErrorMessage::NotSaved,
            ErrorMessage::ForbiddenZip,
            ErrorMessage::WrongZip,
            ErrorMessage::WrongFields,
        ] {
            assert_ne!(m.text(lang), m.key(), "{lang} lacks {}", m.key());
        }
    }
}

#[test]
fn phone_numbers_are_written_the_sites_way() {
    // ES threes, IT after three, FR pairs, DE after two (spec 001 §5).
    assert_eq!(
        format_phone("612345678", PhoneStyle::for_site(3)),
        "612 345 678"
    );
    assert_eq!(
        format_phone("612345678", PhoneStyle::for_site(66)),
        "612 345 678"
    );
    assert_eq!(
        format_phone("3123456789", PhoneStyle::for_site(4)),
        "312 3456789"
    );
    assert_eq!(
        format_phone("3123456789", PhoneStyle::for_site(69)),
        "312 3456789"
    );
    assert_eq!(
        format_phone("0612345678", PhoneStyle::for_site(1)),
        "06 12 34 56 78"
    );
    assert_eq!(
        format_phone("01711234567", PhoneStyle::for_site(2)),
        "01 711234567"
    );
    // Austria writes as Germany; Belgium, the Netherlands as France; Luxembourg in threes.
    assert_eq!(PhoneStyle::for_site(7), PhoneStyle::AfterTwo);
    for site in [70, 71, 76] {
        assert_eq!(PhoneStyle::for_site(site), PhoneStyle::Pairs);
    }
    assert_eq!(PhoneStyle::for_site(73), PhoneStyle::Threes);
    assert_eq!(
        format_phone("621123456", PhoneStyle::for_site(73)),
        "621 123 456"
    );
    // An odd count ends with a shorter group.
    assert_eq!(
        format_phone("061234567", PhoneStyle::Pairs),
        "06 12 34 56 7"
    );
    assert_eq!(
        format_phone("6123456789", PhoneStyle::Threes),
        "612 345 678 9"
    );
    // International numbers: the calling code, then the national grouping.
    assert_eq!(
        format_phone("+33612345678", PhoneStyle::Pairs),
        "+33 6 12 34 56 78"
    );
    assert_eq!(
        format_phone("+34612345678", PhoneStyle::Threes),
        "+34 612 345 678"
    );
    assert_eq!(
        format_phone("+393123456789", PhoneStyle::AfterThree),
        "+39 312 3456789"
    );
    assert_eq!(
        format_phone("+491711234567", PhoneStyle::AfterTwo),
        "+49 1 711234567"
    );
    // Another country or a stray value is shown as it is.
    assert_eq!(
        format_phone("+12025550123", PhoneStyle::Pairs),
        "+12025550123"
    );
    assert_eq!(format_phone("06 ab", PhoneStyle::Pairs), "06 ab");
    assert_eq!(format_phone("", PhoneStyle::Pairs), "");
}

#[test]
fn phone_numbers_keep_digits_only() {
    assert_eq!(
        normalize_phone(" 06.12.34-56/78 ").as_deref(),
        Ok("0612345678")
    );
    assert_eq!(normalize_phone("+33 (0)6 12").as_deref(), Ok("+330612"));
    assert_eq!(
        normalize_phone("0033612345678").as_deref(),
        Ok("+33612345678")
    );
    assert_eq!(normalize_phone("12345"), Err(ErrorType::Wrong));
    assert_eq!(normalize_phone("1234567890123456"), Err(ErrorType::Wrong));
    assert_eq!(
        normalize_phone("06 12 34 56 7x"),
        Err(ErrorType::Characters)
    );
    assert_eq!(
        normalize_phone("０６１２３４５６７８"),
        Err(ErrorType::Characters)
    );
    assert_eq!(
        normalize_phone("06 12 34 56 78 📞"),
        Err(ErrorType::Characters)
    );
    assert_eq!(normalize_phone("++33612345678"), Err(ErrorType::Characters));
}

#[test]
fn zip_codes_of_each_country() {
    let ok = |c: &str, z: &str, want: &str| {
        assert_eq!(normalize_zip(c, z).as_deref(), Ok(want), "{c} {z}")
    };
    let bad = |c: &str, z: &str, e: ErrorType| assert_eq!(normalize_zip(c, z), Err(e), "{c} {z}");
    ok("FR", "75011", "75011");
    ok("FR", " 20000 ", "20000"); // Corsica is delivered
    bad("FR", "7501", ErrorType::Wrong);
    bad("FR", "750111", ErrorType::Wrong);
    bad("FR", "7501A", ErrorType::Wrong);
    bad("FR", "97400", ErrorType::Forbidden); // La Réunion
    bad("FR", "98000", ErrorType::Forbidden); // Monaco
    ok("DE", "10115", "10115");
    bad("DE", "27498", ErrorType::Forbidden); // Heligoland
    bad("DE", "78266", ErrorType::Forbidden); // Büsingen
    bad("DE", "1011", ErrorType::Wrong);
    ok("ES", "28013", "28013");
    bad("ES", "35001", ErrorType::Forbidden); // Las Palmas
    bad("ES", "38001", ErrorType::Forbidden); // Santa Cruz de Tenerife
    bad("ES", "51001", ErrorType::Forbidden); // Ceuta
    bad("ES", "52001", ErrorType::Forbidden); // Melilla
    bad("ES", "53001", ErrorType::Wrong); // no province 53
    bad("ES", "00001", ErrorType::Wrong);
    ok("IT", "20121", "20121");
    bad("IT", "23041", ErrorType::Forbidden); // Livigno
    bad("IT", "22061", ErrorType::Forbidden); // Campione d'Italia
    bad("IT", "47890", ErrorType::Forbidden); // San Marino
    bad("IT", "00120", ErrorType::Forbidden); // Vatican City
    ok("IT", "00118", "00118");
    ok("AT", "1010", "1010");
    bad("AT", "0100", ErrorType::Wrong);
    bad("AT", "10100", ErrorType::Wrong);
    ok("BE", "1000", "1000");
    bad("BE", "100", ErrorType::Wrong);
    ok("LU", "L-1009", "1009");
    ok("LU", "l1009", "1009");
    ok("LU", "1009", "1009");
    bad("LU", "L-10090", ErrorType::Wrong);
    ok("NL", "1011ab", "1011 AB");
    ok("NL", "1011 AB", "1011 AB");
    bad("NL", "1011 SA", ErrorType::Forbidden);
    bad("NL", "1011 SS", ErrorType::Forbidden);
    bad("NL", "0111 AB", ErrorType::Wrong);
    bad("NL", "1011", ErrorType::Wrong);
    bad("NL", "1011 A1", ErrorType::Wrong);
    // Other alphabets, emoji, a country no site delivers to.
    bad("FR", "75０11", ErrorType::Wrong);
    bad("NL", "1011 ÅB", ErrorType::Wrong);
    bad("FR", "750😀", ErrorType::Wrong);
    bad("US", "10001", ErrorType::Wrong);
}

#[test]
fn every_country_rule_has_a_valid_example_and_pattern_shape() {
    for rule in ZIP_RULES {
        assert!(
            normalize_zip(rule.country, rule.example).is_ok(),
            "{}",
            rule.country
        );
        assert!(rule.pattern.starts_with('^') && rule.pattern.ends_with('$'));
    }
    // Each site's own country has a rule.
    for site in crate::site::SITES.iter() {
        assert!(zip_rule(site.country_code).is_some(), "{}", site.site_id);
    }
}

fn good(country: &str) -> AddressRequest {
    AddressRequest {
        first_name: "Zoë".into(),
        last_name: "O'Neil-Dupré".into(),
        details: "12, rue de la Paix".into(),
        extras: "Bât. B, 3º".into(),
        zip_code: "75002".into(),
        city: "Paris".into(),
        country: country.into(),
        phone: "06 12 34 56 78".into(),
        ..Default::default()
    }
}

#[test]
fn a_good_address_is_normalized() {
    let mut req = good("fr");
    req.city = "  Saint-Denis   la  Plaine ".into();
    let v = check_address(1, &req).unwrap();
    assert_eq!(v.country, "FR");
    assert_eq!(v.city, "Saint-Denis la Plaine");
    assert_eq!(v.phone, "0612345678");
    // An empty country is the site's own; extras may stay empty.
    let mut req = good("");
    req.extras = " ".into();
    let v = check_address(1, &req).unwrap();
    assert_eq!((v.country.as_str(), v.extras.as_str()), ("FR", ""));
    // Dutch site, Dutch code.
    let mut req = good("NL");
    req.zip_code = "1011ab".into();
    assert_eq!(check_address(76, &req).unwrap().zip_code, "1011 AB");
}

#[test]
fn bad_addresses_name_each_faulty_field_in_form_order() {
    let empty = check_address(1, &AddressRequest::default()).unwrap_err();
    let fields: Vec<&str> = empty.iter().map(|e| e.field_type.as_str()).collect();
    assert_eq!(
        fields,
        [
            "firstName",
            "lastName",
            "details",
            "zipCode",
            "city",
            "phone"
        ]
    );
    assert!(empty.iter().all(|e| e.error_type == 1));

    let mut req = good("FR");
    req.first_name = "😀".into();
    req.last_name = "Иванов".into(); // carriers print Latin labels
    req.details = "x".repeat(61);
    req.zip_code = "97400".into();
    req.phone = "call me".into();
    let errs = check_address(1, &req).unwrap_err();
    let got: Vec<(&str, u8)> = errs
        .iter()
        .map(|e| (e.field_type.as_str(), e.error_type))
        .collect();
    assert_eq!(
        got,
        [
            ("firstName", 3),
            ("lastName", 3),
            ("details", 2),
            ("zipCode", 4),
            ("phone", 3)
        ]
    );
    assert_eq!(error_message(&errs), ErrorMessage::WrongFields);

    // A country the site does not deliver to: the country is named, not the zip code.
    let errs = check_address(1, &good("DE")).unwrap_err();
    assert_eq!(errs, [fe("country", 4)]);
    assert_eq!(
        check_address(1, &good("France")).unwrap_err(),
        [fe("country", 5)]
    );

    // Only the zip code: the spec's zip code messages.
    let mut req = good("FR");
    req.zip_code = "7501".into();
    assert_eq!(
        error_message(&check_address(1, &req).unwrap_err()),
        ErrorMessage::WrongZip
    );
    req.zip_code = "98000".into();
    assert_eq!(
        error_message(&check_address(1, &req).unwrap_err()),
        ErrorMessage::ForbiddenZip
    );
    // A megabyte of text is one "too long", not a crash.
    req.zip_code = "7".repeat(1 << 20);
    assert_eq!(check_address(1, &req).unwrap_err(), [fe("zipCode", 2)]);
    let keys = field_errors(&[fe("zipCode", 4), fe("phone", 5), fe("nope", 1)]);
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0].message_key, "address.errors.zip_forbidden");
    assert_eq!(keys[1].message_key, "address.errors.phone");
}

#[test]
fn checkout_takes_the_favourite_else_the_first() {
    let a = |id: i64, fav: bool| Address {
        id,
        is_favorite: fav,
        ..Default::default()
    };
    assert_eq!(default_address(&[]), None);
    assert_eq!(
        default_address(&[a(1, false), a(2, false)]).map(|x| x.id),
        Some(1)
    );
    assert_eq!(
        default_address(&[a(1, false), a(2, true)]).map(|x| x.id),
        Some(2)
    );
}

#[test]
fn specificities_describe_each_site() {
    let es = specificities(3);
    assert_eq!(es.countries.len(), 1);
    assert_eq!(es.countries[0].code, "ES");
    assert!(es.countries[0]
        .forbidden_zip_codes
        .contains(&"35".to_string()));
    assert_eq!((es.phone_format.first, es.phone_format.rest), (3, Some(3)));
    assert_eq!(es.phone_format.example, "612 345 678");
    assert!(!es.required_fields.contains(&"extras".to_string()));
    assert_eq!(es.max_lengths["details"], 60);
    assert_eq!(specificities(4).phone_format.rest, None);
    assert_eq!(specificities(73).countries[0].code, "LU");
}

#[test]
fn return_paths_are_same_site_relative_only() {
    let checkout = "/t/p/102525/10252504/checkout?package=7&city=3&party=a,a,c2019-06-15";
    assert_eq!(return_path(Some(checkout)).as_deref(), Some(checkout));
    assert_eq!(return_path(Some(" /cart ")).as_deref(), Some("/cart"));
    for bad in [
        "",
        "/",
        "https://evil.example/",
        "//evil.example",
        "/\\evil.example",
        "javascript:alert(1)",
        "t/p/1/2/checkout",
        "/a?u=http://x",
        "/x y",
        "/x\ty",
        "/caf\u{e9}",
        "/t/p/1/2/checkout#pay",
        "/postsales/myaccount/addresses/?returnTo=/cart",
        "/postsales/myaccount/addresses/form",
    ] {
        assert_eq!(return_path(Some(bad)), None, "{bad:?}");
    }
    assert_eq!(
        return_path(Some(&format!("/{}", "a".repeat(MAX_RETURN_PATH)))),
        None
    );
    assert_eq!(return_path(None), None);
}
