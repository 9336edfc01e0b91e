//! HTML data sheets come from sellers and are shown as HTML. `ammonia` parses them as a
//! browser would (html5ever) and re-serialises an allow-list: the tags below, never with
//! an attribute, text escaped. Whatever the input, the result cannot carry a script, a
//! handler or a link. Server only.
//!
//! Before ammonia, one linear pass bounds the work and the result (review L7): the input is
//! cut at [`MAX_INPUT_BYTES`]; only allowed tags go on, without attributes; a closing tag
//! whose element is not open is dropped at once (a count per tag, no search of the open
//! elements); elements nest at most [`MAX_DEPTH`] deep (deeper start tags are dropped,
//! their text kept); whatever is still open at the end is closed. So the parser only ever
//! sees a short stack of well-nested allowed tags: html5ever's searches of its open
//! elements (end tags, scope checks) stay short, and no page gets thousands of nested
//! elements.
use std::collections::HashSet;
use std::sync::LazyLock;

/// Input past this many bytes is cut (at a character boundary) before it is read.
pub const MAX_INPUT_BYTES: usize = 256 * 1024;
/// Elements nest at most this deep.
pub const MAX_DEPTH: usize = 32;

const ALLOWED: [&str; 22] = [
    "p", "br", "ul", "ol", "li", "strong", "b", "em", "i", "u", "h3", "h4", "h5", "table", "thead",
    "tbody", "tr", "th", "td", "dl", "dt", "dd",
];
/// Elements dropped together with their content.
const DROPPED_WITH_CONTENT: [&str; 7] = [
    "script", "style", "iframe", "object", "template", "noscript", "svg",
];

static CLEANER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let mut b = ammonia::Builder::empty();
    // `empty()` still allows a few generic attributes (`lang`, `title`): none is kept.
    b.tags(HashSet::from(ALLOWED))
        .clean_content_tags(HashSet::from(DROPPED_WITH_CONTENT))
        .generic_attributes(HashSet::new())
        .generic_attribute_prefixes(HashSet::new())
        .tag_attributes(Default::default())
        .url_schemes(HashSet::new())
        .link_rel(None)
        .strip_comments(true);
    b
});

/// Sanitises seller HTML for the product data sheet.
pub fn data_sheet(input: &str) -> String {
    CLEANER.clean(&bounded(input)).to_string()
}

fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// A tag as the HTML tokenizer reads it: where it ends (after its `>`), its name, and
/// whether it ends with `/>`.
struct Tag<'a> {
    end: usize,
    name: &'a [u8],
    self_closing: bool,
}

/// Reads the tag whose name starts at `start` (the byte after `<` or `</`), following the
/// tokenizer's tag and attribute states, so a `>` inside a quoted value does not end it.
/// `None` when the input ends first (a browser drops such a tag).
fn read_tag(b: &[u8], start: usize) -> Option<Tag<'_>> {
    #[derive(Clone, Copy)]
    enum S {
        TagName,
        BeforeName,
        Name,
        AfterName,
        BeforeValue,
        Double,
        Single,
        Unquoted,
        AfterQuoted,
        SelfClosing,
    }
    let mut s = S::TagName;
    let mut name_end = b.len();
    let mut i = start;
    while i < b.len() {
        let c = b[i];
        let mut next = i + 1;
        s = match s {
            S::TagName if is_space(c) || c == b'/' || c == b'>' => {
                name_end = i;
                next = i; // reconsume
                S::BeforeName
            }
            S::TagName => S::TagName,
            S::BeforeName if is_space(c) => S::BeforeName,
            S::BeforeName if c == b'/' || c == b'>' => {
                next = i;
                S::AfterName
            }
            S::BeforeName => S::Name,
            S::Name if is_space(c) || c == b'/' || c == b'>' => {
                next = i;
                S::AfterName
            }
            S::Name if c == b'=' => S::BeforeValue,
            S::Name => S::Name,
            S::AfterName if is_space(c) => S::AfterName,
            S::AfterName if c == b'/' => S::SelfClosing,
            S::AfterName if c == b'=' => S::BeforeValue,
            S::AfterName if c == b'>' => {
                return Some(Tag {
                    end: i + 1,
                    name: &b[start..name_end],
                    self_closing: false,
                })
            }
            S::AfterName => S::Name,
            S::BeforeValue if is_space(c) => S::BeforeValue,
            S::BeforeValue if c == b'"' => S::Double,
            S::BeforeValue if c == b'\'' => S::Single,
            S::BeforeValue if c == b'>' => {
                return Some(Tag {
                    end: i + 1,
                    name: &b[start..name_end],
                    self_closing: false,
                })
            }
            S::BeforeValue => S::Unquoted,
            S::Double if c == b'"' => S::AfterQuoted,
            S::Double => S::Double,
            S::Single if c == b'\'' => S::AfterQuoted,
            S::Single => S::Single,
            S::Unquoted if is_space(c) => S::BeforeName,
            S::Unquoted if c == b'>' => {
                return Some(Tag {
                    end: i + 1,
                    name: &b[start..name_end],
                    self_closing: false,
                })
            }
            S::Unquoted => S::Unquoted,
            S::AfterQuoted if is_space(c) => S::BeforeName,
            S::AfterQuoted if c == b'/' => S::SelfClosing,
            S::AfterQuoted if c == b'>' => {
                return Some(Tag {
                    end: i + 1,
                    name: &b[start..name_end],
                    self_closing: false,
                })
            }
            S::AfterQuoted => {
                next = i;
                S::BeforeName
            }
            S::SelfClosing if c == b'>' => {
                return Some(Tag {
                    end: i + 1,
                    name: &b[start..name_end],
                    self_closing: true,
                })
            }
            S::SelfClosing => {
                next = i;
                S::BeforeName
            }
        };
        i = next;
    }
    None
}

fn index_in(list: &[&str], name: &[u8]) -> Option<usize> {
    list.iter()
        .position(|t| t.as_bytes().eq_ignore_ascii_case(name))
}

/// Where the element dropped with its content ends: after its closing tag, or the end of
/// the input (as in a browser, an unclosed raw-text element takes the rest).
fn skip_content(input: &str, from: usize, name: &str) -> usize {
    let b = input.as_bytes();
    let mut i = from;
    while let Some(at) = input[i..].find("</") {
        let start = i + at + 2;
        let end = start + name.len();
        if end <= b.len()
            && b[start..end].eq_ignore_ascii_case(name.as_bytes())
            && b.get(end)
                .is_none_or(|c| is_space(*c) || *c == b'/' || *c == b'>')
        {
            return read_tag(b, start).map_or(b.len(), |t| t.end);
        }
        i = start;
    }
    b.len()
}

/// End of a comment or bogus comment opened at `i`, as the tokenizer ends it.
fn comment_end(input: &str, i: usize) -> usize {
    let rest = &input[i..];
    if let Some(body) = rest.strip_prefix("<!--") {
        if body.starts_with('>') {
            return i + 5;
        }
        if body.starts_with("->") {
            return i + 6;
        }
        let close = [("-->", 3), ("--!>", 4)]
            .iter()
            .filter_map(|(end, len)| body.find(end).map(|at| at + len))
            .min();
        return close.map_or(input.len(), |at| i + 4 + at);
    }
    rest.find('>').map_or(input.len(), |at| i + at + 1)
}

/// The linear pass described in the module documentation: allowed tags only, without
/// attributes, well nested, at most [`MAX_DEPTH`] deep; comments, other tags and the
/// content of dropped elements left out; text as it came, a stray `<` escaped.
fn bounded(input: &str) -> String {
    let mut cut = input.len().min(MAX_INPUT_BYTES);
    while !input.is_char_boundary(cut) {
        cut -= 1;
    }
    let input = &input[..cut];
    let b = input.as_bytes();
    let mut out = String::with_capacity(input.len() + 16);
    let mut open: Vec<usize> = Vec::with_capacity(MAX_DEPTH);
    let mut counts = [0u32; ALLOWED.len()];
    let mut text_from = 0;
    let mut i = 0;
    while i < b.len() {
        let Some(at) = input[i..].find('<') else {
            break;
        };
        i += at;
        out.push_str(&input[text_from..i]);
        let next = b.get(i + 1).copied();
        let closing = next == Some(b'/');
        let name_start = if closing { i + 2 } else { i + 1 };
        match b.get(name_start) {
            Some(c) if c.is_ascii_alphabetic() => match read_tag(b, name_start) {
                None => i = b.len(),
                Some(tag) => {
                    i = tag.end;
                    match (closing, index_in(&ALLOWED, tag.name)) {
                        (false, Some(idx)) if ALLOWED[idx] == "br" => out.push_str("<br>"),
                        (false, Some(idx)) if open.len() < MAX_DEPTH => {
                            open.push(idx);
                            counts[idx] += 1;
                            out.push('<');
                            out.push_str(ALLOWED[idx]);
                            out.push('>');
                        }
                        (true, Some(idx)) if counts[idx] > 0 => {
                            while let Some(top) = open.pop() {
                                counts[top] -= 1;
                                out.push_str("</");
                                out.push_str(ALLOWED[top]);
                                out.push('>');
                                if top == idx {
                                    break;
                                }
                            }
                        }
                        (false, None) => {
                            if let Some(d) = index_in(&DROPPED_WITH_CONTENT, tag.name) {
                                let name = DROPPED_WITH_CONTENT[d];
                                if !(tag.self_closing && name == "svg") {
                                    i = skip_content(input, i, name);
                                }
                            }
                        }
                        // Too deep, not open, or not allowed: the tag goes, its text stays.
                        _ => {}
                    }
                }
            },
            // `</>` is nothing; `</` at the end is text.
            Some(&b'>') if closing => i += 3,
            None if closing => {
                out.push_str("&lt;/");
                i += 2;
            }
            _ if closing || next == Some(b'!') || next == Some(b'?') => {
                i = comment_end(input, i);
            }
            // A `<` that starts no tag is text.
            _ => {
                out.push_str("&lt;");
                i += 1;
            }
        }
        text_from = i;
    }
    out.push_str(&input[text_from.min(b.len())..]);
    for idx in open.into_iter().rev() {
        out.push_str("</");
        out.push_str(ALLOWED[idx]);
        out.push('>');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{data_sheet, MAX_DEPTH, MAX_INPUT_BYTES};

    #[test]
    fn keeps_allowed_structure_without_attributes() {
        assert_eq!(
            data_sheet(
                r#"<p class="x" onclick="alert(1)">Coton <strong>bio</strong></p><ul><li>40 °C</li></ul>"#
            ),
            "<p>Coton <strong>bio</strong></p><ul><li>40 °C</li></ul>"
        );
    }

    #[test]
    fn drops_scripts_styles_and_unknown_tags() {
        assert_eq!(
            data_sheet("a<script>alert('x')</script>b<style>p{}</style>c<img src=x onerror=alert(1)>d<a href=\"javascript:x\">e</a>"),
            "abcde"
        );
        assert_eq!(data_sheet("<SCRIPT>bad()</SCRIPT>ok"), "ok");
        assert_eq!(data_sheet("<svg><script>x</script></svg>ok"), "ok");
        assert_eq!(data_sheet("<!-- <script> -->ok"), "ok");
    }

    #[test]
    fn escapes_text_and_broken_markup() {
        assert_eq!(data_sheet("1 < 2 & 3"), "1 &lt; 2 &amp; 3");
        assert_eq!(data_sheet("&lt;b&gt;"), "&lt;b&gt;");
        // An unterminated tag at the end is dropped, as a browser drops it (was escaped
        // as text by the hand-written scanner: "tail &lt;scr").
        assert_eq!(data_sheet("tail <scr"), "tail ");
        // Quotes in text need no escaping outside attributes (was "&quot;quoted&quot;").
        assert_eq!(data_sheet("\"quoted\""), "\"quoted\"");
        // A `>` inside an attribute value no longer splits the tag into text.
        assert_eq!(data_sheet(r#"<p title="a>b">x</p>"#), "<p>x</p>");
        assert_eq!(
            data_sheet(r#"<p lang="fr" style="x" id="y">x</p>"#),
            "<p>x</p>"
        );
    }

    #[test]
    fn closes_what_it_opens() {
        // HTML's own rules: a new <li> closes the previous one (was nested
        // "<ul><li>a<li>b</li></li></ul>").
        assert_eq!(
            data_sheet("<ul><li>a<li>b"),
            "<ul><li>a</li><li>b</li></ul>"
        );
        assert_eq!(data_sheet("<p>a</ul>b</p>"), "<p>ab</p>");
        // A closing tag whose element is not open is dropped (review L7).
        assert_eq!(data_sheet("</p>x"), "x");
        assert_eq!(data_sheet("<b>a</i>b</b>"), "<b>ab</b>");
        // Still open at the end: closed.
        assert_eq!(data_sheet("<p><b>x"), "<p><b>x</b></p>");
    }

    #[test]
    fn keeps_definition_lists() {
        assert_eq!(
            data_sheet("<dl><dt>Taille</dt><dd>M</dd></dl>"),
            "<dl><dt>Taille</dt><dd>M</dd></dl>"
        );
    }

    #[test]
    fn nesting_is_capped() {
        let deep = "<ul><li>".repeat(100) + "x";
        let out = data_sheet(&deep);
        assert_eq!(
            out.matches("<ul>").count() + out.matches("<li>").count(),
            MAX_DEPTH
        );
        assert!(out.contains('x'));
        // A formatting element closed around a block: the parser's adoption agency cannot
        // nest deeper and deeper, since every close comes in order.
        let out = data_sheet(&"<b><ul></b>".repeat(5000));
        assert!(out.len() < 5000 * 20);
        assert!(out.matches("<ul>").count() <= 5000);
    }

    #[test]
    fn adversarial_input_of_the_review_is_fast() {
        // About 1.4 MB: past the input cap, so cut, and bounded anyway.
        let review = "<b>".repeat(200_000) + &"</i>".repeat(200_000);
        // Within the cap: the same shape, every closing tag dropped at once.
        let within = "<b>".repeat(30_000) + &"</i>".repeat(30_000) + "end";
        assert!(within.len() < MAX_INPUT_BYTES);
        let started = std::time::Instant::now();
        let out = data_sheet(&review);
        // (The cut falls inside a `<b>`: its lone `<` is text.)
        assert!(out.starts_with(&"<b>".repeat(MAX_DEPTH)), "{out}");
        assert!(out.ends_with(&"</b>".repeat(MAX_DEPTH)), "{out}");
        assert!(out.len() < 8 * MAX_DEPTH, "{out}");
        let out = data_sheet(&within);
        assert_eq!(
            out,
            "<b>".repeat(MAX_DEPTH) + "end" + &"</b>".repeat(MAX_DEPTH)
        );
        // Many distinct attributes (the parser's list of formatting elements compares them)
        // and many unknown tags cost nothing either.
        let attrs: String = (0..20_000).map(|n| format!("<i a{n}=\"x\">")).collect();
        assert_eq!(
            data_sheet(&attrs),
            "<i>".repeat(MAX_DEPTH) + &"</i>".repeat(MAX_DEPTH)
        );
        let unknown = "<span>".repeat(40_000) + &"</i>".repeat(20_000);
        assert_eq!(data_sheet(&unknown), "");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(2),
            "took {:?}",
            started.elapsed()
        );
    }

    #[test]
    fn input_is_cut_at_a_character_boundary() {
        let long = "é".repeat(MAX_INPUT_BYTES);
        let out = data_sheet(&long);
        assert_eq!(out.len(), MAX_INPUT_BYTES);
        assert!(out.chars().all(|c| c == 'é'));
    }

    #[test]
    fn odd_markup_reads_as_a_browser_reads_it() {
        assert_eq!(data_sheet("a</>b"), "ab");
        assert_eq!(data_sheet("a</ b>c"), "ac");
        assert_eq!(data_sheet("a<?php x ?>b"), "ab");
        assert_eq!(data_sheet("a<!--->b<!-->c"), "abc");
        assert_eq!(data_sheet("a<!-- x --!>b"), "ab");
        assert_eq!(data_sheet("x </"), "x &lt;/");
        assert_eq!(data_sheet("<p a='>'>x</p>"), "<p>x</p>");
        assert_eq!(data_sheet("<svg/>ok"), "ok");
        assert_eq!(data_sheet("<script>if (a</b) {}</script >ok"), "ok");
        assert_eq!(data_sheet("<style>p{}"), "");
        assert_eq!(data_sheet("<P>x</P >"), "<p>x</p>");
    }
}
