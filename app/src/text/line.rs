//! Text a visitor or member typed, put on one line of something line-based: a log line,
//! an email header, the support terminal.

/// Control characters (new lines, carriage returns, terminal escapes) become spaces, so the
/// text cannot forge a line, a header or a colour of its own.
pub fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Whether the text holds a control character ([`one_line`] would change it).
pub fn has_control(s: &str) -> bool {
    s.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_spaces_and_the_rest_stays() {
        assert_eq!(one_line("a\r\nBcc: x\u{1b}[31m"), "a  Bcc: x [31m");
        assert_eq!(one_line("Jean-Pierre 🌹 Ωμέγα"), "Jean-Pierre 🌹 Ωμέγα");
        assert!(has_control("x\u{7f}") && has_control("\u{85}") && !has_control("é 漢字"));
    }
}
