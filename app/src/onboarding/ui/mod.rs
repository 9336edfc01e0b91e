//! The onboarding layer: consent banner, popins and banners.
pub mod layer;

pub use layer::OnboardingLayer;
