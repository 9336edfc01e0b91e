//! Server functions of the travel product page and its checkout.
