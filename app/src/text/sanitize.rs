//! HTML data sheets come from sellers and are shown as HTML. Rather than filtering the input,
//! the output is rebuilt: only allow-listed tags are emitted, never with attributes, and all
//! text is escaped. Whatever the input, the result cannot carry a script, a handler or a link.

const ALLOWED: [&str; 21] = [
    "p", "br", "ul", "ol", "li", "strong", "b", "em", "i", "u", "h3", "h4", "h5", "table", "thead",
    "tbody", "tr", "th", "td", "dl", "dt",
];
/// Elements dropped together with their content.
const DROPPED_WITH_CONTENT: [&str; 7] = [
    "script", "style", "iframe", "object", "template", "noscript", "svg",
];
const VOID: [&str; 1] = ["br"];

fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// Text between tags may hold entities; they are decoded only as far as needed to avoid
/// double-escaping the common ones, the rest stays literal (and is then escaped).
fn decode_basic(text: &str) -> String {
    text.replace("&nbsp;", "\u{a0}")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Sanitises seller HTML for the product data sheet.
pub fn data_sheet(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    let mut open: Vec<&'static str> = Vec::new();
    let mut skip_until: Option<&'static str> = None;
    let mut rest = input;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            if skip_until.is_none() {
                escape_into(&mut out, &decode_basic(rest));
            }
            break;
        };
        if skip_until.is_none() {
            escape_into(&mut out, &decode_basic(&rest[..lt]));
        }
        rest = &rest[lt..];
        // Comments and declarations are dropped whole.
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |i| &after[i + 3..]);
            continue;
        }
        let Some(gt) = rest.find('>') else {
            // An unterminated tag: the remainder is text.
            if skip_until.is_none() {
                escape_into(&mut out, &decode_basic(rest));
            }
            break;
        };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if let Some(skipped) = skip_until {
            if closing && name == skipped {
                skip_until = None;
            }
            continue;
        }
        if let Some(dropped) = DROPPED_WITH_CONTENT.iter().find(|d| **d == name) {
            if !closing && !tag.ends_with('/') {
                skip_until = Some(dropped);
            }
            continue;
        }
        let Some(allowed) = ALLOWED.iter().find(|a| **a == name) else {
            continue;
        };
        if VOID.contains(allowed) {
            if !closing {
                out.push_str("<br>");
            }
        } else if closing {
            if let Some(pos) = open.iter().rposition(|o| o == allowed) {
                for o in open.drain(pos..).rev() {
                    out.push_str("</");
                    out.push_str(o);
                    out.push('>');
                }
            }
        } else {
            out.push('<');
            out.push_str(allowed);
            out.push('>');
            open.push(allowed);
        }
    }
    for o in open.into_iter().rev() {
        out.push_str("</");
        out.push_str(o);
        out.push('>');
    }
    out
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
        assert_eq!(data_sheet("tail <scr"), "tail &lt;scr");
        assert_eq!(data_sheet("&lt;b&gt;"), "&lt;b&gt;");
        assert_eq!(data_sheet("\"quoted\""), "&quot;quoted&quot;");
    }

    #[test]
    fn closes_what_it_opens() {
        assert_eq!(
            data_sheet("<ul><li>a<li>b"),
            "<ul><li>a<li>b</li></li></ul>"
        );
        assert_eq!(data_sheet("<p>a</ul>b</p>"), "<p>ab</p>");
        assert_eq!(data_sheet("</p>x"), "x");
    }
}
