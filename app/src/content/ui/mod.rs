//! The content pages: the documents (about us, privacy policy, general conditions), the
//! landing pages, the after-sale hub `/postsales` and the premium page `/checkout/loyalty`.
pub mod document;
pub mod hubs;
pub mod landing;

pub use document::DocumentPage;
pub use hubs::{LogoutRedirect, LoyaltyPage, PostSalesPage};
pub use landing::LandingPage;
