use super::*;

/// The example IBANs of the SWIFT IBAN registry (the ECBS examples), one per country.
const REGISTRY_EXAMPLES: &[&str] = &[
    "AD1200012030200359100100",
    "AT611904300234573201",
    "BE68539007547034",
    "BG80BNBG96611020345678",
    "CH9300762011623852957",
    "CY17002001280000001200527600",
    "CZ6508000000192000145399",
    "DE89370400440532013000",
    "DK5000400440116243",
    "EE382200221020145685",
    "ES9121000418450200051332",
    "FI2112345600000785",
    "FR1420041010050500013M02606",
    "GB29NWBK60161331926819",
    "GI75NWBK000000007099453",
    "GR1601101250000000012300695",
    "HR1210010051863000160",
    "HU42117730161111101800000000",
    "IE29AIBK93115212345678",
    "IS140159260076545510730339",
    "IT60X0542811101000000123456",
    "LI21088100002324013AA",
    "LT121000011101001000",
    "LU280019400644750000",
    "LV80BANK0000435195001",
    "MC5811222000010123456789030",
    "MT84MALT011000012345MTLCAST001S",
    "NL91ABNA0417164300",
    "NO9386011117947",
    "PL61109010140000071219812874",
    "PT50000201231234567890154",
    "RO49AAAA1B31007593840000",
    "SE4550000000058398257466",
    "SI56263300012039086",
    "SK3112000000198742637541",
    "SM86U0322509800000000270100",
];

#[test]
fn registry_examples_are_valid() {
    for example in REGISTRY_EXAMPLES {
        let iban = parse_iban(example).unwrap_or_else(|e| panic!("{example}: {e:?}"));
        assert_eq!(iban.as_str(), *example);
        assert_eq!(iban_length(iban.country()), Some(example.len()));
    }
}

#[test]
fn typed_forms_are_normalised() {
    let iban = parse_iban(" fr14 2004 1010 0505 0001 3m02 606 ").unwrap();
    assert_eq!(iban.as_str(), "FR1420041010050500013M02606");
    assert_eq!(
        parse_iban("de89-3704-0044-0532-0130-00").unwrap().as_str(),
        "DE89370400440532013000"
    );
    assert_eq!(
        parse_iban("NL91\u{a0}ABNA\u{a0}0417\u{a0}1643\u{a0}00")
            .unwrap()
            .as_str(),
        "NL91ABNA0417164300"
    );
}

#[test]
fn every_single_digit_change_breaks_the_check_digits() {
    for example in ["DE89370400440532013000", "ES9121000418450200051332"] {
        for i in 2..example.len() {
            let mut b = example.as_bytes().to_vec();
            b[i] = if b[i] == b'9' { b'0' } else { b[i] + 1 };
            let changed = String::from_utf8(b).unwrap();
            assert!(parse_iban(&changed).is_err(), "{changed} passed");
        }
    }
    assert_eq!(
        parse_iban("DE88370400440532013000"),
        Err(IbanError::CheckDigits)
    );
    assert_eq!(
        parse_iban("FR1520041010050500013M02606"),
        Err(IbanError::CheckDigits)
    );
    assert_eq!(
        parse_iban("IT61X0542811101000000123456"),
        Err(IbanError::CheckDigits)
    );
    // Two swapped neighbours (the commonest typing slip).
    assert_eq!(parse_iban("BE68539007547043"), Err(IbanError::CheckDigits));
}

#[test]
fn each_refusal_has_its_reason() {
    assert_eq!(parse_iban(""), Err(IbanError::Empty));
    assert_eq!(parse_iban("   "), Err(IbanError::Empty));
    assert_eq!(
        parse_iban("DE89 3704 0044 0532 0130 0€"),
        Err(IbanError::Characters)
    );
    assert_eq!(
        parse_iban("ΔΕ89370400440532013000"),
        Err(IbanError::Characters)
    );
    assert_eq!(
        parse_iban("DE89😀370400440532013000"),
        Err(IbanError::Characters)
    );
    assert_eq!(parse_iban(&"1".repeat(10_000)), Err(IbanError::Characters));
    // Outside SEPA, or no country at all.
    assert_eq!(
        parse_iban("SA0380000000608010167519"),
        Err(IbanError::Country)
    );
    assert_eq!(
        parse_iban("BR1800360305000010009795493C1"),
        Err(IbanError::Country)
    );
    assert_eq!(parse_iban("1234567890"), Err(IbanError::Country));
    assert_eq!(
        parse_iban("XX89370400440532013000"),
        Err(IbanError::Country)
    );
    // A digit too few or too many.
    assert_eq!(parse_iban("DE8937040044053201300"), Err(IbanError::Length));
    assert_eq!(
        parse_iban("DE893704004405320130000"),
        Err(IbanError::Length)
    );
    // Letters where the registry has digits, and check digits that are not digits.
    assert_eq!(parse_iban("DE89370400440532O13000"), Err(IbanError::Format));
    assert_eq!(parse_iban("NL9112340417164300"), Err(IbanError::Format));
    assert_eq!(parse_iban("DEAB370400440532013000"), Err(IbanError::Format));
}

#[test]
fn masks_show_country_and_last_four_only() {
    let iban = parse_iban("FR1420041010050500013M02606").unwrap();
    assert_eq!(iban.masked(), "FR•• •••• •••• •••• •••• •••2 606");
    assert_eq!(mask("DE", 22, "3000"), "DE•• •••• •••• •••• ••30 00");
    assert!(!format!("{iban:?}").contains("20041010"));
}

#[test]
fn bics_follow_iso_9362() {
    for ok in [
        "DEUTDEFF",
        "DEUTDEFF500",
        "BNPAFRPPXXX",
        "bnpa fr pp",
        "ABNANL2A",
        "INGBNL2A",
        "CAIXESBBXXX",
    ] {
        assert!(parse_bic(ok).is_ok(), "{ok}");
    }
    assert_eq!(parse_bic("bnpafrpp").unwrap(), "BNPAFRPP");
    assert_eq!(parse_bic(""), Err(BicError::Empty));
    assert_eq!(parse_bic("DEUTDEF"), Err(BicError::Format));
    assert_eq!(parse_bic("DEUTDEFF50"), Err(BicError::Format));
    assert_eq!(parse_bic("DEUTDEFF5000"), Err(BicError::Format));
    assert_eq!(parse_bic("1EUTDEFF"), Err(BicError::Format));
    assert_eq!(parse_bic("DEUT1EFF"), Err(BicError::Format));
    assert_eq!(parse_bic("DEUT-DEFF"), Err(BicError::Format));
    assert_eq!(parse_bic("DEUTΔEFF"), Err(BicError::Format));
    assert_eq!(parse_bic("DEUTXXFF"), Err(BicError::Country));
    assert_eq!(parse_bic(&"A".repeat(5000)), Err(BicError::Format));
}

#[test]
fn owner_names_of_any_alphabet() {
    assert_eq!(
        parse_owner_name("  Marie   Dupont ").unwrap(),
        "Marie Dupont"
    );
    assert!(parse_owner_name("Γιώργος Παπαδόπουλος").is_ok());
    assert!(parse_owner_name("Иван Петров").is_ok());
    assert!(parse_owner_name("Jean-Luc O'Neil, Jr.").is_ok());
    assert_eq!(parse_owner_name(" "), Err(OwnerNameError::Empty));
    assert_eq!(parse_owner_name("R2D2"), Err(OwnerNameError::Characters));
    assert_eq!(
        parse_owner_name("Marie 😀"),
        Err(OwnerNameError::Characters)
    );
    assert_eq!(
        parse_owner_name("<script>"),
        Err(OwnerNameError::Characters)
    );
    assert_eq!(parse_owner_name("--"), Err(OwnerNameError::Characters));
    assert_eq!(
        parse_owner_name(&"a".repeat(71)),
        Err(OwnerNameError::TooLong)
    );
    assert_eq!(
        parse_owner_name(&"a".repeat(100_000)),
        Err(OwnerNameError::TooLong)
    );
}

fn form(iban: &str, bic: &str, owner: &str, confirmation: bool) -> BankDetailsRequest {
    BankDetailsRequest {
        iban: iban.into(),
        bic: bic.into(),
        owner_name: owner.into(),
        confirmation,
        current_password: String::new(),
    }
}

#[test]
fn the_form_flags_every_faulty_field_and_a_change_clears_only_its_own() {
    let ok = check_bank_form(&form(
        "de89 3704 0044 0532 0130 00",
        "deutdeff",
        "Max Muster",
        true,
    ))
    .unwrap();
    assert_eq!(ok.iban.as_str(), "DE89370400440532013000");
    assert_eq!(ok.bic, "DEUTDEFF");
    // A SEPA IBAN needs no BIC (since 2016); one of elsewhere does.
    let sepa = check_bank_form(&form(
        "DE89 3704 0044 0532 0130 00",
        " ",
        "Max Muster",
        true,
    ))
    .unwrap();
    assert_eq!(sepa.bic, "");
    let elsewhere = check_bank_form(&form(
        "BR1800360305000010009795493C1",
        "",
        "Max Muster",
        true,
    ))
    .unwrap_err();
    assert_eq!(elsewhere.bic, Some("wallet.errors.bic_empty"));
    assert!(
        bic_optional(" fr76 3000")
            && bic_optional("nl91ABNA")
            && !bic_optional("US12")
            && !bic_optional("")
    );
    let mut errors = check_bank_form(&form("DE88370400440532013000", "XX", "", false)).unwrap_err();
    assert_eq!(errors.iban, Some("wallet.errors.iban_check_digits"));
    assert_eq!(errors.bic, Some("wallet.errors.bic_format"));
    assert_eq!(errors.owner_name, Some("wallet.errors.owner_empty"));
    assert_eq!(errors.confirmation, Some("wallet.errors.confirmation"));
    let wire: Vec<String> = errors
        .to_field_errors()
        .into_iter()
        .map(|f| f.field)
        .collect();
    assert_eq!(wire, ["iban", "bic", "ownerName", "confirmation"]);
    errors.field_changed(BankField::Iban);
    assert_eq!(errors.iban, None);
    assert!(errors.bic.is_some() && errors.owner_name.is_some() && errors.confirmation.is_some());
    for f in BankField::ALL {
        errors.field_changed(f);
        assert_eq!(BankField::from_wire(f.wire()), Some(f));
    }
    assert!(errors.is_empty());
    // Only the unticked box.
    let errors =
        check_bank_form(&form("NL91ABNA0417164300", "ABNANL2A", "Jan", false)).unwrap_err();
    assert_eq!(errors.to_field_errors().len(), 1);
}
