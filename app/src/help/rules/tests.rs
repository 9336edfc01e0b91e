//! The help form's rules, one test per rule of spec 001 §4.
use super::*;

fn filled() -> HelpFormState {
    HelpFormState {
        selected_reason: Some("delivery".into()),
        selected_sub_reason: Some("late".into()),
        selected_sale: Some("sale-1".into()),
        selected_order: Some(42),
        text_area_message: "Where is my parcel please?".into(),
        reason_error: true,
        sub_reason_error: true,
        order_error: true,
        message_error: true,
        open_order_alert: true,
        message_has_been_sent: true,
        send_message_error: Some("errors.general_retry.notification".into()),
        display_extra_text: true,
        ..Default::default()
    }
}

#[test]
fn choosing_a_reason_clears_sub_reason_sale_order_message_errors_and_sent_flag() {
    let s = reduce(filled(), HelpAction::SelectReason("returns".into()));
    assert_eq!(s.selected_reason.as_deref(), Some("returns"));
    assert_eq!(s.selected_sub_reason, None);
    assert_eq!(s.selected_sale, None);
    assert_eq!(s.selected_order, None);
    assert_eq!(s.text_area_message, "");
    assert!(!s.reason_error && !s.sub_reason_error && !s.order_error && !s.message_error);
    assert_eq!(s.send_message_error, None);
    assert!(!s.message_has_been_sent);
}

#[test]
fn choosing_a_sub_reason_clears_order_sale_message_errors_and_extra_text() {
    let s = reduce(filled(), HelpAction::SelectSubReason("damaged".into()));
    assert_eq!(
        s.selected_reason.as_deref(),
        Some("delivery"),
        "the reason stays"
    );
    assert_eq!(s.selected_sub_reason.as_deref(), Some("damaged"));
    assert_eq!(s.selected_sale, None);
    assert_eq!(s.selected_order, None);
    assert_eq!(s.text_area_message, "");
    assert!(!s.reason_error && !s.sub_reason_error && !s.order_error && !s.message_error);
    assert!(!s.display_extra_text);
    assert!(
        s.message_has_been_sent,
        "the sent flag is the reason's to clear"
    );
}

#[test]
fn choosing_an_order_clears_its_error_and_the_extra_text_only() {
    let s = reduce(filled(), HelpAction::SelectOrder(Some(7)));
    assert_eq!(s.selected_order, Some(7));
    assert!(!s.order_error);
    assert!(!s.display_extra_text);
    assert!(!s.open_order_alert);
    assert!(s.message_error && s.reason_error, "other errors stay");
    assert_eq!(s.text_area_message, "Where is my parcel please?");
}

#[test]
fn sending_starts_loading_success_sets_sent_failure_stores_the_error() {
    let s = reduce(HelpFormState::default(), HelpAction::SendStarted);
    assert!(s.loading);
    let ok = reduce(s.clone(), HelpAction::SendSucceeded);
    assert!(!ok.loading && ok.message_has_been_sent);
    let failed = reduce(s, HelpAction::SendFailed("help.errors.send".into()));
    assert!(!failed.loading && !failed.message_has_been_sent);
    assert_eq!(
        failed.send_message_error.as_deref(),
        Some("help.errors.send")
    );
}

#[test]
fn an_answer_keeps_loading_until_displayed_and_a_bad_rating_marks_the_message_sent() {
    let s = reduce(HelpFormState::default(), HelpAction::SendStarted);
    let answered = reduce(
        s.clone(),
        HelpAction::AnswerReceived(Some(("ev".into(), "delivery-times".into()))),
    );
    assert!(
        answered.loading,
        "loading stays until the answer is displayed"
    );
    assert_eq!(
        answered.help_form_gen_ai_response.as_ref().unwrap().1,
        "delivery-times"
    );
    let displayed = reduce(answered.clone(), HelpAction::AnswerDisplayed);
    assert!(!displayed.loading, "displayed: loading ends");
    assert_eq!(
        displayed.help_form_gen_ai_response,
        answered.help_form_gen_ai_response
    );
    let none = reduce(s, HelpAction::AnswerReceived(None));
    assert!(none.loading, "the ticket send follows");
    assert_eq!(none.help_form_gen_ai_response, None);
    let bad = reduce(displayed.clone(), HelpAction::FeedbackSent { good: false });
    assert!(bad.message_has_been_sent);
    let good = reduce(displayed.clone(), HelpAction::FeedbackSent { good: true });
    assert!(!good.message_has_been_sent);
    let failed = reduce(
        displayed,
        HelpAction::FeedbackFailed("errors.general_retry.notification".into()),
    );
    assert!(failed.gen_ai_res_feedback_error.is_some());
}

#[test]
fn a_bad_rating_is_a_ticket_only_where_tickets_are_taken() {
    assert_eq!(after_feedback(true, true), AfterFeedback::Thanks);
    assert_eq!(after_feedback(true, false), AfterFeedback::Thanks);
    assert_eq!(after_feedback(false, true), AfterFeedback::SendTicket);
    assert_eq!(after_feedback(false, false), AfterFeedback::ShowExtraText);
}

#[test]
fn choosing_a_sale_sets_it_and_clears_nothing_else() {
    let s = reduce(filled(), HelpAction::SelectSale(Some("1001".into())));
    assert_eq!(s.selected_sale.as_deref(), Some("1001"));
    assert_eq!(
        s,
        HelpFormState {
            selected_sale: Some("1001".into()),
            ..filled()
        }
    );
    let s = reduce(s, HelpAction::SelectSale(None));
    assert_eq!(s.selected_sale, None);
}

#[test]
fn sale_options_list_each_sale_once_and_codes_are_sale_ids() {
    let options = sale_options(&[
        (1001, "Maison Lumière".into()),
        (2002, "Sport & Co".into()),
        (1001, "Maison Lumière".into()),
        (3003, " ".into()),
    ]);
    assert_eq!(
        options
            .iter()
            .map(|o| (o.operation_code.as_str(), o.label.as_str()))
            .collect::<Vec<_>>(),
        [
            ("1001", "Maison Lumière"),
            ("2002", "Sport & Co"),
            ("3003", "#3003")
        ]
    );
    assert_eq!(sale_id_of("1001"), Some(1001));
    assert_eq!(sale_id_of(" 7 "), Some(7));
    assert_eq!(sale_id_of("0"), None);
    assert_eq!(sale_id_of("-3"), None);
    assert_eq!(sale_id_of("SUMMER"), None);
}

#[test]
fn contact_from_is_front_only() {
    assert!(contact_from_allowed("Front"));
    for other in ["", "front", "FRONT", "Back", "App", " Front"] {
        assert!(!contact_from_allowed(other), "{other:?}");
    }
}

#[test]
fn past_orders_are_those_that_came_to_an_end() {
    use crate::orders::rules::OrderStatus;
    let past: Vec<&str> = OrderStatus::ALL
        .into_iter()
        .map(OrderStatus::wire)
        .filter(|s| is_past_order(s))
        .collect();
    assert_eq!(
        past,
        [
            "cancelled",
            "expired",
            "received",
            "received_partially",
            "refunded",
            "refund_in_progress",
            "return_requested",
            "return_requested_denied",
            "return_requested_accepted",
            "return_received",
        ]
    );
    for current in [
        "active",
        "validated",
        "validated_available",
        "in_preparation",
        "shipped",
        "shipped_partially",
    ] {
        assert!(!is_past_order(current), "{current}");
    }
    assert!(!is_past_order("reopened"), "not a status of its own");
    assert!(!is_past_order("nonsense"));
    assert_eq!(
        chat_link(
            "order",
            Some((12, is_past_order(OrderStatus::Received.wire())))
        ),
        "/chat?reason=order&order=12&isPastOrder=true"
    );
    assert_eq!(
        chat_link("order", Some((12, is_past_order("shipped")))),
        "/chat?reason=order&order=12&isPastOrder=false"
    );
}

#[test]
fn no_answer_sends_a_ticket_when_allowed_else_shows_the_extra_text() {
    assert_eq!(after_answer(true, true, true), NextStep::ShowAnswer);
    assert_eq!(after_answer(true, false, false), NextStep::ShowAnswer);
    assert_eq!(
        after_answer(false, true, true),
        NextStep::SendTicket { multipart: true }
    );
    assert_eq!(
        after_answer(false, true, false),
        NextStep::SendTicket { multipart: false }
    );
    assert_eq!(after_answer(false, false, true), NextStep::ShowExtraText);
    let s = reduce(HelpFormState::default(), HelpAction::ShowExtraText);
    assert!(s.display_extra_text && !s.loading);
}

#[test]
fn an_order_reason_without_an_order_opens_the_order_alert() {
    let rule = ReasonRule {
        has_sub_reasons: true,
        needs_order: true,
    };
    let s = HelpFormState {
        selected_reason: Some("delivery".into()),
        selected_sub_reason: Some("late".into()),
        text_area_message: "Where is my parcel please?".into(),
        ..Default::default()
    };
    let faults = check(&s, Some(&rule));
    assert_eq!(faults, vec![HelpField::Order]);
    let s = reduce(s, HelpAction::Invalid(faults));
    assert!(s.order_error && s.open_order_alert);
    let s = reduce(s, HelpAction::OpenOrderAlert(false));
    assert!(!s.open_order_alert);
}

#[test]
fn checks_name_every_missing_field() {
    let faults = check(&HelpFormState::default(), None);
    assert_eq!(faults, vec![HelpField::Reason, HelpField::Message]);
    let rule = ReasonRule {
        has_sub_reasons: true,
        needs_order: false,
    };
    let s = HelpFormState {
        selected_reason: Some("account".into()),
        text_area_message: "short".into(),
        ..Default::default()
    };
    assert_eq!(
        check(&s, Some(&rule)),
        vec![HelpField::SubReason, HelpField::Message]
    );
    let s = reduce(s, HelpAction::SetMessage("A message long enough".into()));
    let s = reduce(s, HelpAction::SelectSale(Some("s".into())));
    assert_eq!(s.selected_sale.as_deref(), Some("s"));
    assert_eq!(check(&s, Some(&rule)), vec![HelpField::SubReason]);
}

#[test]
fn contact_methods_are_kept() {
    let m = ContactMethod {
        platform_name: "WhatsApp".into(),
        href: "https://wa.me/33100000000".into(),
        label: "+33 1 00 00 00 00".into(),
    };
    let s = reduce(
        HelpFormState::default(),
        HelpAction::SetContactMethods(vec![m.clone()]),
    );
    assert_eq!(s.contact_methods, vec![m]);
}

#[test]
fn order_options_are_numbered_from_one() {
    let facts = [
        OrderFacts {
            order_id: 9,
            operation_name: "Maison Lumière".into(),
            date: "12/11/2026".into(),
            price: "59,90 €".into(),
            status: "received".into(),
        },
        OrderFacts {
            order_id: 4,
            operation_name: "Sport & Co".into(),
            date: "02/10/2026".into(),
            price: "20,00 €".into(),
            status: "shipped".into(),
        },
    ];
    let options = order_options(&facts);
    assert_eq!(options[0].label, "1. Maison Lumière – 12/11/2026 – 59,90 €");
    assert_eq!(options[1].label, "2. Sport & Co – 02/10/2026 – 20,00 €");
    assert_eq!(options[1].order_id, 4);
    assert!(options[0].is_past_order && !options[1].is_past_order);
}

#[test]
fn chat_links_carry_reason_and_order() {
    assert_eq!(chat_link("delivery", None), "/chat?reason=delivery");
    assert_eq!(chat_link("a b&c", None), "/chat?reason=a%20b%26c");
    assert_eq!(
        chat_link("returns", Some((12, true))),
        "/chat?reason=returns&order=12&isPastOrder=true"
    );
    assert_eq!(order_help_form_link(12), "/postsales/12/helpform");
}

#[test]
fn ticket_status_follows_the_last_author_and_ratings_parse() {
    assert_eq!(
        TicketStatus::Closed.after_message(false),
        TicketStatus::Open
    );
    assert_eq!(
        TicketStatus::Open.after_message(true),
        TicketStatus::Answered
    );
    assert_eq!(TicketStatus::from_wire("answered"), TicketStatus::Answered);
    assert_eq!(satisfied("BAD"), Some(false));
    assert_eq!(satisfied("good"), Some(true));
    assert_eq!(satisfied("maybe"), None);
}
