//! The account pages: `/myaccount` (tabs and the account menu) and `/myaccount/memberdata`.
pub mod draft;
pub mod frame;
pub mod home;
pub mod personal;
