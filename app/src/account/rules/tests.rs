use super::*;

const TODAY: (u16, u8, u8) = (2026, 11, 23);

fn profile<'a>(first: &'a str, last: &'a str, birth: &'a str, phone: &'a str) -> ProfileInput<'a> {
    ProfileInput {
        first_name: first,
        last_name: last,
        gender: "Female",
        birth_date: birth,
        phone,
        birth_date_required: false,
    }
}

#[test]
fn password_change_reports_missing_fields_first() {
    let r = check_password_change("", "", "").unwrap_err();
    assert_eq!(r.code, PasswordChangeError::MissingField);
    assert_eq!(
        r.fields.iter().map(|f| f.0).collect::<Vec<_>>(),
        [F_CURRENT_PASSWORD, F_PASSWORD, F_CONFIRM_PASSWORD]
    );
    // Even with a mismatch elsewhere, a missing field is what the member fixes first.
    let r = check_password_change("", "Velvet-Orchard-42", "other").unwrap_err();
    assert_eq!(r.code, PasswordChangeError::MissingField);
    assert_eq!(
        r.fields,
        [(F_CURRENT_PASSWORD, "myprofile.password.error.missing_field")]
    );
}

#[test]
fn password_change_needs_identical_confirmation() {
    let r = check_password_change("old-password-1", "Velvet-Orchard-42", "Velvet-Orchard-43")
        .unwrap_err();
    assert_eq!(r.code, PasswordChangeError::NotIdentical);
    assert_eq!(r.fields[0].0, F_CONFIRM_PASSWORD);
    // Case matters: passwords are compared exactly.
    let r = check_password_change("old", "Velvet-Orchard", "velvet-orchard").unwrap_err();
    assert_eq!(r.code, PasswordChangeError::NotIdentical);
}

#[test]
fn password_change_applies_the_password_policy() {
    for (new, key) in [
        ("short", "auth.password.too_short"),
        ("password123", "auth.password.common"),
        (&"x".repeat(129)[..], "auth.password.too_long"),
    ] {
        let r = check_password_change("old-password", new, new).unwrap_err();
        assert_eq!(r.code, PasswordChangeError::NotValid, "{new}");
        assert_eq!(r.fields, [(F_PASSWORD, key)]);
    }
    let r = check_password_change(
        "Velvet-Orchard-42",
        "Velvet-Orchard-42",
        "Velvet-Orchard-42",
    )
    .unwrap_err();
    assert_eq!(r.code, PasswordChangeError::NotValid);
    assert_eq!(r.fields, [(F_PASSWORD, "myprofile.password.error.same")]);
    // Any script and emoji count as characters.
    assert!(check_password_change("old", "Ωμέγα-🌹-Ρόδο", "Ωμέγα-🌹-Ρόδο").is_ok());
    assert!(check_password_change("old", "Velvet-Orchard-42", "Velvet-Orchard-42").is_ok());
}

#[test]
fn password_change_codes_are_the_spec_strings() {
    assert_eq!(PasswordChangeError::MissingField.code(), "MISSING_FIELD");
    assert_eq!(PasswordChangeError::NotValid.code(), "NOT_VALID");
    assert_eq!(PasswordChangeError::NotIdentical.code(), "NOT_IDENTICAL");
    assert_eq!(
        serde_json::to_string(&PasswordChangeError::NotIdentical).unwrap(),
        "\"NOT_IDENTICAL\""
    );
}

#[test]
fn names_take_letters_of_any_script_spaces_hyphens_and_apostrophes() {
    for ok in [
        "Zoé",
        "O'Neil",
        "Jean-Luc",
        "N’Diaye",
        "Anne Marie",
        "Γιώργος",
        "Ólafur",
        "Łukasz",
        "  Jan  ",
    ] {
        assert!(
            check_profile(&profile(ok, "Durand", "", ""), TODAY).is_ok(),
            "{ok}"
        );
    }
    for (bad, key) in [
        ("", "myprofile.errors.required"),
        ("   ", "myprofile.errors.required"),
        ("Zoé2", "myprofile.errors.name"),
        ("Jean.Luc", "myprofile.errors.name"),
        ("-", "myprofile.errors.name"),
        ("🌹", "myprofile.errors.name"),
        (&"a".repeat(61)[..], "myprofile.errors.name"),
    ] {
        let errs = check_profile(&profile(bad, "Durand", "", ""), TODAY).unwrap_err();
        assert_eq!(errs, [(F_NAME, key)], "{bad:?}");
    }
    let v = check_profile(&profile(" Anne   Marie ", "de  la Tour", "", ""), TODAY).unwrap();
    assert_eq!(
        (v.first_name.as_str(), v.last_name.as_str()),
        ("Anne Marie", "de la Tour")
    );
}

#[test]
fn birth_dates_are_dd_mm_yyyy_real_past_and_old_enough() {
    assert_eq!(
        check_birth_date("15/08/1985", TODAY),
        Ok("1985-08-15".into())
    );
    assert_eq!(
        check_birth_date("29/02/2000", TODAY),
        Ok("2000-02-29".into())
    );
    assert_eq!(
        check_birth_date("23/11/2010", TODAY),
        Ok("2010-11-23".into()),
        "16 today"
    );
    for (bad, key) in [
        ("31/02/1990", "myprofile.errors.birthdate_invalid"),
        ("29/02/1999", "myprofile.errors.birthdate_invalid"),
        ("1990-02-01", "myprofile.errors.birthdate_invalid"),
        ("1/2/1990", "myprofile.errors.birthdate_invalid"),
        ("00/01/1990", "myprofile.errors.birthdate_invalid"),
        ("01/13/1990", "myprofile.errors.birthdate_invalid"),
        ("01/01/1899", "myprofile.errors.birthdate_invalid"),
        ("٠١/٠١/١٩٩٠", "myprofile.errors.birthdate_invalid"),
        ("24/11/2026", "myprofile.errors.birthdate_future"),
        ("01/01/3000", "myprofile.errors.birthdate_future"),
        ("24/11/2010", "myprofile.errors.birthdate_too_young"),
    ] {
        assert_eq!(check_birth_date(bad, TODAY), Err(key), "{bad}");
    }
    assert_eq!(display_birth_date("1985-08-15", '/'), "15/08/1985");
    assert_eq!(display_birth_date("1985-08-15", '.'), "15.08.1985");
    assert_eq!(display_birth_date("junk", '/'), "");
}

#[test]
fn birth_date_is_required_only_where_the_site_requires_it() {
    let mut p = profile("Zoé", "Durand", "", "");
    assert_eq!(check_profile(&p, TODAY).unwrap().birth_date, None);
    p.birth_date_required = true;
    assert_eq!(
        check_profile(&p, TODAY).unwrap_err(),
        [(F_BIRTH_DATE, "myprofile.errors.required")]
    );
}

#[test]
fn phones_are_digits_only_within_e164_length() {
    assert_eq!(phone_problem(""), None);
    assert_eq!(phone_problem("0612345678"), None);
    assert_eq!(phone_problem("491701234567890"), None);
    assert_eq!(
        phone_problem("+33612345678"),
        Some("myprofile.errors.phone_digits")
    );
    assert_eq!(
        phone_problem("06 12 34 56 78"),
        Some("myprofile.errors.phone_digits")
    );
    assert_eq!(
        phone_problem("０６１２３４５６７８"),
        Some("myprofile.errors.phone_digits")
    );
    assert_eq!(
        phone_problem("12345"),
        Some("myprofile.errors.phone_length")
    );
    assert_eq!(
        phone_problem(&"1".repeat(16)),
        Some("myprofile.errors.phone_length")
    );
}

#[test]
fn a_profile_reports_every_faulty_field_at_once() {
    let p = ProfileInput {
        first_name: "Zoé1",
        last_name: "",
        gender: "Unknown",
        birth_date: "31/02/1990",
        phone: "abc",
        birth_date_required: false,
    };
    let fields: Vec<_> = check_profile(&p, TODAY)
        .unwrap_err()
        .into_iter()
        .map(|e| e.0)
        .collect();
    assert_eq!(
        fields,
        [F_GENDER, F_NAME, F_LAST_NAME, F_BIRTH_DATE, F_PHONE]
    );
    for g in Gender::ALL {
        assert_eq!(Gender::from_wire(g.wire()), Some(g));
        assert_eq!(Gender::from_civility(g.civility()), g);
    }
    assert_eq!(
        Gender::from_wire("male"),
        None,
        "the wire's spelling exactly"
    );
}

#[test]
fn new_emails_are_checked_against_format_confirmation_and_the_current_one() {
    assert_eq!(
        check_new_email(" New@Example.com ", "new@example.COM", "old@example.com"),
        Ok("new@example.com".into())
    );
    for (new, confirm, field, key) in [
        ("", "", F_NEW_MAIL, "myprofile.errors.required"),
        (
            "not-an-email",
            "not-an-email",
            F_NEW_MAIL,
            "auth.email.invalid",
        ),
        (
            "zoé@example.com",
            "zoé@example.com",
            F_NEW_MAIL,
            "auth.email.invalid",
        ),
        (
            "old@example.com",
            "old@example.com",
            F_NEW_MAIL,
            "myprofile.email.error.same",
        ),
        (
            "new@example.com",
            "new@example.org",
            F_CONFIRM_EMAIL,
            "myprofile.email.error.not_identical",
        ),
        (
            "new@example.com",
            "",
            F_CONFIRM_EMAIL,
            "myprofile.email.error.not_identical",
        ),
    ] {
        assert_eq!(
            check_new_email(new, confirm, "Old@example.com"),
            Err(vec![(field, key)]),
            "{new} / {confirm}"
        );
    }
    let long = format!("{}@example.com", "a".repeat(250));
    assert_eq!(
        check_new_email(&long, &long, "old@example.com"),
        Err(vec![(F_NEW_MAIL, "auth.email.invalid")])
    );
}

#[test]
fn deactivation_reasons_have_translation_keys() {
    assert_eq!(
        deactivation_reason_key("PRIVACY").as_deref(),
        Some("account.deactivate.reason.privacy")
    );
    assert_eq!(deactivation_reason_key("privacy"), None);
    assert_eq!(deactivation_reason_key(""), None);
}

#[test]
fn a_members_segment_follows_their_purchases() {
    let now = 2_000_000_000;
    let day = 86_400;
    assert_eq!(Segment::of(0, None, now), Segment::Prospect);
    assert_eq!(Segment::of(1, Some(now - day), now), Segment::FirstOrder);
    assert_eq!(Segment::of(3, Some(now - day), now), Segment::Regular);
    assert_eq!(
        Segment::of(1, Some(now - LAPSED_AFTER_SECS), now),
        Segment::FirstOrder,
        "a year to the second is not yet lapsed"
    );
    assert_eq!(
        Segment::of(5, Some(now - LAPSED_AFTER_SECS - 1), now),
        Segment::Lapsed
    );
    let ids: Vec<_> = [
        Segment::Prospect,
        Segment::FirstOrder,
        Segment::Regular,
        Segment::Lapsed,
    ]
    .map(Segment::id)
    .to_vec();
    assert_eq!(ids, ["prospect", "first_order", "regular", "lapsed"]);
}
