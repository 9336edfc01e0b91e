//! The onboarding layer: consent banner, popins and banners.
pub mod draft;
pub mod layer;

pub use layer::OnboardingLayer;
