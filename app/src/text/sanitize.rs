//! HTML data sheets come from sellers and are shown as HTML. `ammonia` parses them as a
//! browser would (html5ever) and re-serialises an allow-list: the tags below, never with
//! an attribute, text escaped. Whatever the input, the result cannot carry a script, a
//! handler or a link. Server only.
use std::collections::HashSet;
use std::sync::LazyLock;

const ALLOWED: [&str; 21] = [
    "p", "br", "ul", "ol", "li", "strong", "b", "em", "i", "u", "h3", "h4", "h5", "table", "thead",
    "tbody", "tr", "th", "td", "dl", "dt",
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
    CLEANER.clean(input).to_string()
}

#[cfg(test)]
mod tests {
    use super::data_sheet;

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
        // A stray </p> opens an empty paragraph, as in a browser (was "x").
        assert_eq!(data_sheet("</p>x"), "<p></p>x");
    }
}
