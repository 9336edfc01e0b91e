//! Lays an invoice out as a PDF with `pdf-writer`: A4, the base-14 Helvetica fonts (no font
//! file embedded) in WinAnsi encoding. Text it cannot encode is transliterated
//! ([`winansi`]): `ł` → `l`, the narrow no-break space of French amounts → space, anything
//! else → `?`. Everything here is already translated and formatted by the caller.
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};

/// One row of the lines table, every cell already formatted.
#[derive(Clone, Debug, Default)]
pub struct Row {
    pub name: String,
    pub quantity: String,
    pub unit_price: String,
    pub rate: String,
    pub vat: String,
    pub total: String,
}

/// What the invoice shows, in the member's language.
#[derive(Clone, Debug, Default)]
pub struct InvoiceDoc {
    pub title: String,
    pub seller: Vec<String>,
    /// (label, value) lines under the title: invoice number, order number, date.
    pub facts: Vec<(String, String)>,
    pub address_title: String,
    pub address: Vec<String>,
    /// The column headings, in `Row` order.
    pub header: Row,
    pub rows: Vec<Row>,
    /// (label, amount) lines under the table; the last one is set in bold.
    pub totals: Vec<(String, String)>,
    pub footer: Vec<String>,
}

const PAGE_W: f32 = 595.0;
const PAGE_H: f32 = 842.0;
const MARGIN: f32 = 48.0;
const BOTTOM: f32 = 90.0;
const REGULAR: Name = Name(b"F1");
const BOLD: Name = Name(b"F2");

/// Column left edges (the name) and right edges (the numbers).
const COL_NAME: f32 = MARGIN;
const COL_RIGHT: [f32; 5] = [292.0, 364.0, 422.0, 480.0, PAGE_W - MARGIN];
/// The longest item name a line shows, and where it ends at its size (9 pt).
const NAME_CHARS: usize = 40;
const NAME_END: f32 = COL_NAME + NAME_CHARS as f32 * 556.0 * 9.0 / 1000.0;
/// Space kept between two columns, and the size and line height of the headings.
const GAP: f32 = 6.0;
const HEADING: f32 = 8.0;
const HEADING_LINE: f32 = 9.5;

/// The room the heading of number column `i` has: from the column before it to its edge.
fn room(i: usize) -> f32 {
    let left = if i == 0 { NAME_END } else { COL_RIGHT[i - 1] };
    COL_RIGHT[i] - left - GAP
}

/// A heading broken into the lines that fit `room` at `size`: at spaces, or after a hyphen
/// (`MwSt.-Satz`), so a long heading in one language never runs into its neighbour.
fn wrap(text: &str, room: f32, size: f32) -> Vec<String> {
    let mut words: Vec<String> = vec![];
    for word in text.split(' ') {
        let mut rest = word;
        while let Some(i) = rest.find('-').filter(|i| i + 1 < rest.len()) {
            words.push(rest[..=i].to_string());
            rest = &rest[i + 1..];
        }
        words.push(format!("{rest} "));
    }
    let mut lines: Vec<String> = vec![];
    let mut line = String::new();
    for word in words {
        let candidate = format!("{line}{word}");
        if line.is_empty() || width(&winansi(candidate.trim_end()), size) <= room {
            line = candidate;
        } else {
            lines.push(line.trim_end().to_string());
            line = word;
        }
    }
    lines.push(line.trim_end().to_string());
    lines
}

/// Text in WinAnsi (Windows-1252) bytes, transliterating what it lacks.
pub fn winansi(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        let code = c as u32;
        let byte = match c {
            '\u{20}'..='\u{7e}' => Some(code as u8),
            '\u{a0}'..='\u{ff}' => Some(code as u8),
            '€' => Some(0x80),
            '‚' => Some(0x82),
            'ƒ' => Some(0x83),
            '„' => Some(0x84),
            '…' => Some(0x85),
            '†' => Some(0x86),
            '‡' => Some(0x87),
            'ˆ' => Some(0x88),
            '‰' => Some(0x89),
            'Š' => Some(0x8a),
            '‹' => Some(0x8b),
            'Œ' => Some(0x8c),
            'Ž' => Some(0x8e),
            '‘' => Some(0x91),
            '’' => Some(0x92),
            '“' => Some(0x93),
            '”' => Some(0x94),
            '•' => Some(0x95),
            '–' => Some(0x96),
            '—' => Some(0x97),
            '˜' => Some(0x98),
            '™' => Some(0x99),
            'š' => Some(0x9a),
            '›' => Some(0x9b),
            'œ' => Some(0x9c),
            'ž' => Some(0x9e),
            'Ÿ' => Some(0x9f),
            // Spaces of every width (French groups thousands with U+202F).
            '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\t' => Some(b' '),
            _ => None,
        };
        match byte {
            Some(b) => out.push(b),
            None => {
                let folded = crate::text::fold::fold(&c.to_string());
                if !folded.is_empty() && folded.chars().all(|f| f.is_ascii_graphic()) {
                    if c.is_uppercase() {
                        out.extend(folded.to_ascii_uppercase().bytes());
                    } else {
                        out.extend(folded.bytes());
                    }
                } else {
                    out.push(b'?');
                }
            }
        }
    }
    out
}

/// Helvetica advance widths (per 1000 em) of the characters amounts are made of; other
/// characters count as an average letter. Enough to right-align numbers.
fn width(text: &[u8], size: f32) -> f32 {
    let units: u32 = text
        .iter()
        .map(|b| match b {
            b'0'..=b'9' | 0x80 => 556,
            b' ' | b',' | b'.' | 0xa0 => 278,
            b'%' => 889,
            b'-' => 333,
            _ => 556,
        })
        .sum();
    units as f32 * size / 1000.0
}

fn clip(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max_chars - 1).collect();
        s.push('…');
        s
    }
}

struct Page {
    content: Content,
    y: f32,
}

impl Page {
    fn new() -> Page {
        Page {
            content: Content::new(),
            y: PAGE_H - MARGIN,
        }
    }

    fn text(&mut self, font: Name, size: f32, x: f32, y: f32, text: &str) {
        let bytes = winansi(text);
        self.content
            .begin_text()
            .set_font(font, size)
            .next_line(x, y)
            .show(Str(&bytes))
            .end_text();
    }

    fn right(&mut self, font: Name, size: f32, right: f32, y: f32, text: &str) {
        let w = width(&winansi(text), size);
        self.text(font, size, right - w, y, text);
    }

    fn rule(&mut self, y: f32) {
        self.content
            .set_line_width(0.5)
            .set_stroke_gray(0.6)
            .move_to(MARGIN, y)
            .line_to(PAGE_W - MARGIN, y)
            .stroke();
    }

    /// The headings: the number columns' wrapped to their room, the row as tall as the
    /// tallest.
    fn header(&mut self, row: &Row) {
        let y = self.y;
        self.text(BOLD, HEADING, COL_NAME, y, &row.name);
        let cells = [
            &row.quantity,
            &row.unit_price,
            &row.rate,
            &row.vat,
            &row.total,
        ];
        let mut tallest = 1;
        for (i, (cell, right)) in cells.into_iter().zip(COL_RIGHT).enumerate() {
            let lines = wrap(cell, room(i), HEADING);
            tallest = tallest.max(lines.len());
            for (k, line) in lines.iter().enumerate() {
                self.right(BOLD, HEADING, right, y - k as f32 * HEADING_LINE, line);
            }
        }
        self.y -= 15.0 + (tallest - 1) as f32 * HEADING_LINE;
    }

    fn row(&mut self, font: Name, row: &Row) {
        let y = self.y;
        self.text(font, 9.0, COL_NAME, y, &clip(&row.name, NAME_CHARS));
        let cells = [
            &row.quantity,
            &row.unit_price,
            &row.rate,
            &row.vat,
            &row.total,
        ];
        for (cell, right) in cells.into_iter().zip(COL_RIGHT) {
            self.right(font, 9.0, right, y, cell);
        }
        self.y -= 15.0;
    }
}

/// The invoice as PDF bytes.
pub fn render(doc: &InvoiceDoc) -> Vec<u8> {
    let mut pages = vec![Page::new()];
    let mut p = pages.pop().unwrap_or_else(Page::new);

    // Seller, top left; title and facts, top right.
    let top = p.y;
    for (i, line) in doc.seller.iter().enumerate() {
        let font = if i == 0 { BOLD } else { REGULAR };
        p.text(
            font,
            if i == 0 { 12.0 } else { 9.0 },
            MARGIN,
            top - i as f32 * 13.0,
            line,
        );
    }
    p.right(BOLD, 18.0, PAGE_W - MARGIN, top, &doc.title);
    for (i, (label, value)) in doc.facts.iter().enumerate() {
        p.right(
            REGULAR,
            9.0,
            PAGE_W - MARGIN,
            top - 24.0 - i as f32 * 13.0,
            &format!("{label} {value}"),
        );
    }
    p.y = top - 24.0 - (doc.seller.len().max(doc.facts.len() + 2) as f32) * 13.0 - 12.0;

    // The address the order went to.
    p.text(BOLD, 10.0, MARGIN, p.y, &doc.address_title);
    p.y -= 14.0;
    for line in &doc.address {
        p.text(REGULAR, 9.0, MARGIN, p.y, line);
        p.y -= 12.0;
    }
    p.y -= 18.0;

    // The lines table.
    p.header(&doc.header);
    p.rule(p.y + 10.0);
    for row in &doc.rows {
        if p.y < BOTTOM {
            pages.push(p);
            p = Page::new();
            p.header(&doc.header);
            p.rule(p.y + 10.0);
        }
        p.row(REGULAR, row);
    }
    p.rule(p.y + 10.0);
    p.y -= 6.0;
    if p.y < BOTTOM + doc.totals.len() as f32 * 15.0 {
        pages.push(p);
        p = Page::new();
    }
    let last = doc.totals.len().saturating_sub(1);
    for (i, (label, amount)) in doc.totals.iter().enumerate() {
        let font = if i == last { BOLD } else { REGULAR };
        p.right(font, 10.0, COL_RIGHT[3], p.y, label);
        p.right(font, 10.0, COL_RIGHT[4], p.y, amount);
        p.y -= 15.0;
    }
    pages.push(p);

    // Footer on every page.
    let count = pages.len();
    let mut pdf = Pdf::new();
    let catalog_id = Ref::new(1);
    let tree_id = Ref::new(2);
    let regular_id = Ref::new(3);
    let bold_id = Ref::new(4);
    let info_id = Ref::new(5);
    let page_ids: Vec<Ref> = (0..count).map(|i| Ref::new(6 + 2 * i as i32)).collect();
    pdf.catalog(catalog_id).pages(tree_id);
    pdf.pages(tree_id)
        .kids(page_ids.iter().copied())
        .count(count as i32);
    let title = winansi(&doc.title);
    pdf.document_info(info_id)
        .title(pdf_writer::TextStr(&String::from_utf8_lossy(&title)))
        .producer(pdf_writer::TextStr("Rosace"));
    pdf.type1_font(regular_id)
        .base_font(Name(b"Helvetica"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
    pdf.type1_font(bold_id)
        .base_font(Name(b"Helvetica-Bold"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
    for (i, mut page) in pages.into_iter().enumerate() {
        for (j, line) in doc.footer.iter().enumerate() {
            page.text(REGULAR, 7.5, MARGIN, 48.0 - j as f32 * 10.0, line);
        }
        page.right(
            REGULAR,
            7.5,
            PAGE_W - MARGIN,
            48.0,
            &format!("{}/{}", i + 1, count),
        );
        let page_id = page_ids[i];
        let content_id = Ref::new(page_id.get() + 1);
        let mut pg = pdf.page(page_id);
        pg.parent(tree_id)
            .media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H))
            .contents(content_id);
        pg.resources()
            .fonts()
            .pair(REGULAR, regular_id)
            .pair(BOLD, bold_id);
        pg.finish();
        let data = page.content.finish();
        pdf.stream(content_id, data.as_slice());
    }
    pdf.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_s_headings_fit_their_columns() {
        let locales = [
            include_str!("../../../locales/aftersale/fr.json"),
            include_str!("../../../locales/aftersale/de.json"),
            include_str!("../../../locales/aftersale/es.json"),
            include_str!("../../../locales/aftersale/it.json"),
            include_str!("../../../locales/aftersale/nl.json"),
        ];
        let columns = ["qty", "unit", "rate", "vat", "total"];
        for json in locales {
            let table: std::collections::HashMap<String, String> =
                serde_json::from_str(json).unwrap();
            for (i, column) in columns.iter().enumerate() {
                let heading = &table[&format!("aftersale.invoice.col.{column}")];
                let lines = wrap(heading, room(i), HEADING);
                assert!(lines.len() <= 3, "{heading}: {lines:?}");
                for line in &lines {
                    assert!(
                        width(&winansi(line), HEADING) <= room(i),
                        "{heading}: {line:?} is wider than its column"
                    );
                }
                assert_eq!(lines.join(" ").replace("- ", "-"), *heading);
            }
        }
        // The item names still fit before the quantity column.
        assert!(NAME_END + GAP <= COL_RIGHT[0] - width(b"999", 9.0));
    }

    #[test]
    fn wrap_breaks_at_spaces_and_after_hyphens() {
        assert_eq!(wrap("MwSt.-Satz", 30.0, 8.0), ["MwSt.-", "Satz"]);
        assert_eq!(wrap("Total TTC", 200.0, 8.0), ["Total TTC"]);
        assert_eq!(
            wrap("Prezzo unit. IVA incl.", 60.0, 8.0),
            ["Prezzo unit.", "IVA incl."]
        );
    }

    #[test]
    fn winansi_keeps_latin1_and_the_euro_and_transliterates_the_rest() {
        assert_eq!(
            winansi("Éte 12,00\u{a0}€"),
            b"\xc9te 12,00\xa0\x80".to_vec()
        );
        assert_eq!(winansi("1\u{202f}234"), b"1 234".to_vec());
        // ó is in WinAnsi; Ł and ź are not.
        assert_eq!(winansi("Łódź"), b"L\xf3dz".to_vec());
        assert_eq!(winansi("Œuvre – “x”"), b"\x8cuvre \x96 \x93x\x94".to_vec());
        assert_eq!(winansi("日本"), b"??".to_vec());
    }

    #[test]
    fn renders_a_pdf_with_every_page() {
        let doc = InvoiceDoc {
            title: "Facture".into(),
            seller: vec!["Rosace SAS".into()],
            rows: (0..80)
                .map(|i| Row {
                    name: format!("Article {i}"),
                    ..Row::default()
                })
                .collect(),
            totals: vec![("Total".into(), "1,00 €".into())],
            ..InvoiceDoc::default()
        };
        let bytes = render(&doc);
        assert!(bytes.starts_with(b"%PDF-"));
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("(Article 79)"));
        assert!(text.contains("/Count 2"));
        assert!(text.contains("/WinAnsiEncoding"));
    }
}
