//! Who may do what in the back office. An operator has one role; every handler names the
//! permission it needs and the server checks it on every call (`session::Operator::require`).
//! The table in `docs/backoffice.md` is this one, read out; a test keeps them the same.
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Admin,
    Merchandiser,
    CustomerCare,
    Moderator,
}

impl Role {
    pub const ALL: [Role; 4] = [
        Role::Admin,
        Role::Merchandiser,
        Role::CustomerCare,
        Role::Moderator,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Merchandiser => "merchandiser",
            Role::CustomerCare => "customer_care",
            Role::Moderator => "moderator",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Permission {
    /// Invite, deactivate and change the role of operators.
    ManageOperators,
    /// Read and search the audit log.
    ReadAudit,
    /// Read sales, products, options and their stock.
    ReadCatalogue,
    /// Create, edit, duplicate and archive sales, products and options.
    EditCatalogue,
    /// Set and adjust the stock of an option.
    AdjustStock,
    /// Watch a sale's live opening dashboard.
    WatchSaleOpening,
    /// Read notices of illegal content and decide them (remove, disable, restrict, or no
    /// action), with the statement of reasons.
    ModerateContent,
    /// Work the support queue: assign, answer, close and reopen tickets; saved replies.
    AnswerTickets,
    /// Edit the help articles behind the automatic answers.
    EditHelpArticles,
    /// Find orders and move them along their life cycle (cancel included).
    ManageOrders,
    /// Find members, read their orders, tickets and sign-ins, change their access, export
    /// and erase their data.
    ManageMembers,
    /// Create, follow and stop voucher and promotion campaigns.
    ManagePromotions,
    /// Read the experiments' report; start, stop and reweigh an experiment.
    RunExperiments,
}

impl Permission {
    pub const ALL: [Permission; 13] = [
        Permission::ManageOperators,
        Permission::ReadAudit,
        Permission::ReadCatalogue,
        Permission::EditCatalogue,
        Permission::AdjustStock,
        Permission::WatchSaleOpening,
        Permission::ModerateContent,
        Permission::AnswerTickets,
        Permission::EditHelpArticles,
        Permission::ManageOrders,
        Permission::ManageMembers,
        Permission::ManagePromotions,
        Permission::RunExperiments,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Permission::ManageOperators => "manage operators",
            Permission::ReadAudit => "read the audit log",
            Permission::ReadCatalogue => "read the catalogue and stock",
            Permission::EditCatalogue => "edit the catalogue",
            Permission::AdjustStock => "adjust stock",
            Permission::WatchSaleOpening => "watch a sale opening",
            Permission::ModerateContent => "decide notices of illegal content",
            Permission::AnswerTickets => "answer support tickets",
            Permission::EditHelpArticles => "edit the help articles",
            Permission::ManageOrders => "manage orders",
            Permission::ManageMembers => "manage members",
            Permission::ManagePromotions => "manage voucher and promotion campaigns",
            Permission::RunExperiments => "run experiments",
        }
    }
}

/// Whether `role` has `permission`. Customer care reads the catalogue (to answer members
/// about a product) and watches openings (to expect the questions); only merchandisers
/// and admins change it. Moderators decide notices and nothing else: a decision about a
/// seller's product is not the merchandisers' to take. Merchandisers run the commercial
/// levers (campaigns, experiments) next to the sales they plan.
pub fn allows(role: Role, permission: Permission) -> bool {
    use Permission::*;
    match role {
        Role::Admin => true,
        Role::Merchandiser => matches!(
            permission,
            ReadCatalogue
                | EditCatalogue
                | AdjustStock
                | WatchSaleOpening
                | ManagePromotions
                | RunExperiments
        ),
        Role::CustomerCare => matches!(
            permission,
            ReadCatalogue
                | WatchSaleOpening
                | AnswerTickets
                | EditHelpArticles
                | ManageOrders
                | ManageMembers
        ),
        Role::Moderator => matches!(permission, ReadCatalogue | ModerateContent),
    }
}

/// The permission table as Markdown rows, as `docs/backoffice.md` shows it.
pub fn markdown_table() -> String {
    let mut out = String::from("| permission | admin | merchandiser | customer_care | moderator |\n|---|---|---|---|---|\n");
    for p in Permission::ALL {
        out.push_str(&format!("| {} |", p.as_str()));
        for r in Role::ALL {
            out.push_str(if allows(r, p) { " yes |" } else { " no |" });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_admins_manage_operators_and_read_the_audit_log() {
        for r in Role::ALL {
            assert_eq!(allows(r, Permission::ManageOperators), r == Role::Admin);
            assert_eq!(allows(r, Permission::ReadAudit), r == Role::Admin);
        }
        assert!(allows(Role::Merchandiser, Permission::AdjustStock));
        assert!(!allows(Role::CustomerCare, Permission::EditCatalogue));
        assert!(!allows(Role::Moderator, Permission::AdjustStock));
    }

    #[test]
    fn roles_read_back_from_their_names() {
        for r in Role::ALL {
            assert_eq!(Role::parse(r.as_str()), Some(r));
        }
        assert_eq!(Role::parse("root"), None);
    }

    #[test]
    fn the_docs_show_this_table() {
        let docs = include_str!("../../../docs/backoffice.md");
        assert!(
            docs.contains(&markdown_table()),
            "docs/backoffice.md must hold this table:\n{}",
            markdown_table()
        );
    }
}
