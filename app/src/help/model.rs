//! The help centre's wire shapes (spec 001 §3, §7): the contact message, the automatic
//! answer and its feedback, the message centre's list, a ticket's thread.
use serde::{Deserialize, Serialize};

/// A message to support (spec 001 §7 "Send contact form"). `subjectId` is the reason's id,
/// or `reason.subReason`; `subjectTitle` the label the member read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct ContactRequest {
    /// Always `Front` (anything else: 400 `help.errors.contact_from`). Checked, not
    /// stored: tickets have no column for it, and it could only ever say `Front`.
    pub contact_from: String,
    pub subject_id: String,
    pub subject_title: String,
    pub body: String,
    /// The sale (operation) the message is about, if any: the id of a sale the member
    /// bought from (another sale: 400 `help.errors.sale`). Kept with the ticket.
    pub operation_code: Option<String>,
    /// One of the member's orders, if any (another's answers 404).
    pub order_id: Option<i64>,
}

/// The ticket a message became.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContactResponse {
    pub ticket_id: i64,
    pub message_has_been_sent: bool,
}

/// An automatic answer: the help article found for the message, under an evaluation id
/// the member rates it with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    pub evaluation_id: String,
    pub article_id: String,
    pub title: String,
    pub body: String,
}

/// `{"answer": {...}}`, or `{"answer": null}` when no article answers the message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AnswerResponse {
    pub answer: Option<Answer>,
}

/// The member's rating of an answer (spec 001 §7 "AI feedback"): `good` or `bad`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct FeedbackRequest {
    pub satisfaction: String,
    pub evaluation_id: String,
}

/// After a rating: a bad one sent the message as a ticket, or, on a site that takes no
/// tickets, asks the form to show the extra text (the other ways to reach support).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FeedbackResponse {
    pub satisfaction: String,
    pub ticket_id: Option<i64>,
    pub message_has_been_sent: bool,
    /// A bad rating where tickets are not taken: no ticket, the extra text shows.
    #[serde(default)]
    pub display_extra_text: bool,
}

/// One entry of the message centre: an order that changed status, or a support answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NotificationItem {
    pub id: i64,
    /// `order` or `ticket`.
    pub kind: String,
    pub order_id: Option<i64>,
    pub ticket_id: Option<i64>,
    /// The order's status (kind `order`).
    pub status: Option<String>,
    /// The ticket's subject (kind `ticket`).
    pub subject_title: Option<String>,
    pub created_at: i64,
    pub read: bool,
}

/// A ticket in the list: its subject, status and whether support's last answer is unread.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TicketSummary {
    pub id: i64,
    pub subject_title: String,
    /// `open`, `answered` or `closed`.
    pub status: String,
    pub order_id: Option<i64>,
    pub updated_at: i64,
    pub unread: i64,
}

/// The message centre.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MessageCentre {
    pub unread_count: i64,
    pub notifications: Vec<NotificationItem>,
    pub tickets: Vec<TicketSummary>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct UnreadCount {
    pub unread_count: i64,
}

/// A file attached to a message (listed; its content stays with support).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AttachmentInfo {
    pub id: i64,
    pub name: String,
    pub content_type: String,
    pub size: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ThreadMessage {
    pub id: i64,
    /// `member` or `support`.
    pub author: String,
    pub body: String,
    pub created_at: i64,
    pub attachments: Vec<AttachmentInfo>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TicketThread {
    pub id: i64,
    pub subject_id: String,
    pub subject_title: String,
    pub status: String,
    pub order_id: Option<i64>,
    /// `form` or `chat`.
    pub channel: String,
    pub created_at: i64,
    pub messages: Vec<ThreadMessage>,
}

/// A member's answer in a thread, or a chat message.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct ReplyRequest {
    pub body: String,
}

/// A chat message (`/chat?reason=...&order=...&isPastOrder=...`): it starts, or continues,
/// the member's chat thread on that reason.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct ChatRequest {
    pub reason: String,
    pub order_id: Option<i64>,
    pub body: String,
}
