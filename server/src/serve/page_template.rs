//! A cached page cut at its per-visitor values (the XSRF token and the CSP nonce).
//!
//! The text between them is shared by every hit (reference-counted), so serving a page
//! copies none of its bytes. Each text piece is also deflated once, ending on a full
//! flush (byte-aligned, no reference to earlier text); a gzip response is then the pieces'
//! deflated bytes with the visitor's values between them as stored blocks, and a CRC
//! combined from the pieces'. Browsers always ask for gzip: without this, every cached
//! hit was compressed again from scratch (2.4k req/s instead of 38k on the catalog).
use bytes::{BufMut, Bytes, BytesMut};
use crc32fast::Hasher;

use super::crc_shift;
use flate2::{Compress, Compression, FlushCompress};

pub use app::ui::personal::Hole;

/// A value filled per response.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    Token,
    Nonce,
    /// A member template's marks (`app::ui::personal`).
    Name,
    Member,
    Ctx,
    Hole(Hole),
}

struct Text {
    raw: Bytes,
    deflated: Bytes,
    crc: u32,
    /// What joins this text's CRC after another's (`crc_shift`).
    shift: u32,
}

impl Text {
    fn new(text: &str, z: &mut Deflater) -> Text {
        let raw = Bytes::copy_from_slice(text.as_bytes());
        Text {
            deflated: z.piece(&raw),
            crc: crc32fast::hash(&raw),
            shift: crc_shift::shift_for(raw.len()),
            raw,
        }
    }
}

enum Piece {
    Text(Text),
    Mark(Mark),
    /// A member template's tile: one text per state (`TileState::code`); the member's
    /// state picks one per response.
    Choice {
        item: i64,
        variants: Vec<Text>,
    },
}

/// Room for one mark's value in a fill's buffer (a token and its stored block's header).
const MARK_HINT: usize = 96;

pub struct Template {
    pieces: Vec<Piece>,
    /// What the pieces hold in memory (texts and deflated texts, every variant).
    held: usize,
    /// About how long a filled page is, plain and deflated (the longest variants and room
    /// for a value per mark): what a fill's buffer starts with.
    plain_hint: usize,
    gzip_hint: usize,
    /// The items of the page's tiles, in order (a member's state is looked up for these).
    items: Vec<i64>,
    /// Items the page shows in the stand-in's state only (`Marks::require`).
    required: Vec<i64>,
}

/// What fills a template for one response.
pub trait Fill {
    /// The value of a mark (escaped as its place needs).
    fn value(&self, mark: &Mark) -> &str;
    /// The state (`TileState::code`) of the member's tile of `item`.
    fn state(&self, item: i64) -> u8;
}

/// An anonymous visitor's values: no member marks.
pub struct Visitor<'a> {
    pub xsrf: &'a str,
    pub nonce: &'a str,
}

impl Fill for Visitor<'_> {
    fn value(&self, mark: &Mark) -> &str {
        match mark {
            Mark::Token => self.xsrf,
            Mark::Nonce => self.nonce,
            _ => "",
        }
    }

    fn state(&self, _item: i64) -> u8 {
        0
    }
}

/// gzip header: deflate, no name, no time, unknown OS.
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
/// The last block: empty, final, fixed Huffman codes.
const FINAL_BLOCK: [u8; 2] = [0x03, 0x00];
/// A stored block holds at most this many bytes.
const STORED_MAX: usize = 65_535;

/// Deflates a template's texts one after the other in one raw deflate stream, each ended
/// by a full flush: byte-aligned, and with the dictionary emptied, so that no later text
/// refers to an earlier one and each text's bytes stand alone, as if deflated on their own.
/// One compressor for the whole page: a new one per text (a catalog has a few hundred,
/// its tiles' variants) allocated and zeroed its tables each time.
struct Deflater {
    z: Compress,
    out: Vec<u8>,
}

impl Deflater {
    fn new() -> Deflater {
        Deflater {
            z: Compress::new(Compression::new(6), false),
            out: Vec::with_capacity(16 * 1024),
        }
    }

    fn piece(&mut self, raw: &[u8]) -> Bytes {
        self.out.clear();
        let start = self.z.total_in();
        loop {
            let consumed = (self.z.total_in() - start) as usize;
            // Full flush: the output ends byte-aligned and later texts need none of this one.
            if self
                .z
                .compress_vec(&raw[consumed..], &mut self.out, FlushCompress::Full)
                .is_err()
            {
                unreachable!("deflate into a growing buffer cannot fail");
            }
            if (self.z.total_in() - start) as usize == raw.len()
                && self.out.len() < self.out.capacity()
            {
                return Bytes::copy_from_slice(&self.out);
            }
            self.out.reserve(self.out.capacity().max(1024));
        }
    }
}

/// `value` as stored (uncompressed) deflate blocks, for a byte-aligned stream.
fn stored(value: &[u8], out: &mut BytesMut) {
    for chunk in value.chunks(STORED_MAX) {
        let len = chunk.len() as u16;
        out.put_u8(0); // not final, stored
        out.put_u16_le(len);
        out.put_u16_le(!len);
        out.put_slice(chunk);
    }
}

/// One cut of a page: text, or what a mark stands for.
enum Cut<'a> {
    Text(&'a str),
    Mark(Mark),
    Choice(i64, u8),
    ChoiceEnd,
    Require(i64),
}

/// The member mark at the start of `rest` (after the prefix and `:`), and its length up
/// to and with the `;`.
fn member_mark(rest: &str) -> Option<(Cut<'static>, usize)> {
    // Marks are short (`c:{item}:{state}`): a `;` further on is not this mark's.
    let end = rest.bytes().take(48).position(|b| b == b';')?;
    let body = &rest[..end];
    let mut parts = body.split(':');
    let cut = match (parts.next()?, parts.next(), parts.next(), parts.next()) {
        ("n", None, _, _) => Cut::Mark(Mark::Name),
        ("m", None, _, _) => Cut::Mark(Mark::Member),
        ("x", None, _, _) => Cut::Mark(Mark::Ctx),
        ("h", Some(code), None, _) => Cut::Mark(Mark::Hole(Hole::from_code(code)?)),
        ("c", Some(item), Some(state), None) => {
            Cut::Choice(item.parse().ok()?, state.parse().ok()?)
        }
        ("e", None, _, _) => Cut::ChoiceEnd,
        ("r", Some(item), None, _) => Cut::Require(item.parse().ok()?),
        _ => return None,
    };
    Some((cut, end + 1))
}

fn cuts<'a>(
    html: &'a str,
    token_mark: &str,
    nonce_mark: &str,
    prefix: Option<&str>,
) -> Vec<Cut<'a>> {
    // Each marker's next place is kept and looked for again only once the cut has passed
    // it. Looking for every marker from each cut scanned the rest of the page once per mark
    // (a catalog's few hundred): a sixth of a member catalog template's render.
    let needles = [Some(token_mark), Some(nonce_mark), prefix];
    let find_from = |needle: &str, from: usize| html[from..].find(needle).map(|at| from + at);
    let mut next: [Option<usize>; 3] = needles.map(|n| n.and_then(|n| find_from(n, 0)));
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        for (needle, at) in needles.iter().zip(next.iter_mut()) {
            if let (Some(needle), Some(found)) = (needle, *at) {
                if found < pos {
                    *at = find_from(needle, pos);
                }
            }
        }
        // The first marker in the text; on a tie the earlier in `needles`.
        let Some((which, at)) = next
            .iter()
            .enumerate()
            .filter_map(|(k, at)| at.map(|at| (k, at)))
            .min_by_key(|&(_, at)| at)
        else {
            break;
        };
        if at > pos {
            out.push(Cut::Text(&html[pos..at]));
        }
        let after = at + needles[which].map_or(0, str::len);
        match which {
            0 => {
                out.push(Cut::Mark(Mark::Token));
                pos = after;
            }
            1 => {
                out.push(Cut::Mark(Mark::Nonce));
                pos = after;
            }
            _ => match html[after..].strip_prefix(':').and_then(member_mark) {
                Some((cut, used)) => {
                    out.push(cut);
                    pos = after + 1 + used;
                }
                // Not a mark after all: keep the prefix as text.
                None => {
                    out.push(Cut::Text(&html[at..after]));
                    pos = after;
                }
            },
        }
    }
    if pos < html.len() {
        out.push(Cut::Text(&html[pos..]));
    }
    out
}

impl Template {
    /// Cuts `html` at every occurrence of the two markers.
    pub fn parse(html: &str, token_mark: &str, nonce_mark: &str) -> Self {
        Self::assemble(cuts(html, token_mark, nonce_mark, None)).expect("no member marks")
    }

    /// Cuts a member template: the two markers and the member marks of `prefix`. None when
    /// the marks do not nest as templates write them (a tile's variants, ended).
    pub fn parse_member(
        html: &str,
        token_mark: &str,
        nonce_mark: &str,
        prefix: &str,
    ) -> Option<Self> {
        Self::assemble(cuts(html, token_mark, nonce_mark, Some(prefix)))
    }

    fn assemble(cuts: Vec<Cut<'_>>) -> Option<Self> {
        let mut z = Deflater::new();
        let mut pieces = Vec::new();
        let mut items = Vec::new();
        let mut required = Vec::new();
        let mut cuts = cuts.into_iter().peekable();
        while let Some(cut) = cuts.next() {
            match cut {
                Cut::Text(t) => pieces.push(Piece::Text(Text::new(t, &mut z))),
                Cut::Mark(m) => pieces.push(Piece::Mark(m)),
                Cut::ChoiceEnd => return None,
                Cut::Require(item) => required.push(item),
                Cut::Choice(item, state) => {
                    // The variants of one tile, in state order, each one text (texts of a
                    // variant around marks would be filled per state: never written so).
                    let mut variants: Vec<Text> = Vec::new();
                    let mut expected = state;
                    loop {
                        if usize::from(expected) != variants.len() {
                            return None;
                        }
                        let text = match cuts.peek() {
                            Some(Cut::Text(t)) => {
                                let t = Text::new(t, &mut z);
                                cuts.next();
                                t
                            }
                            _ => Text::new("", &mut z),
                        };
                        variants.push(text);
                        match cuts.next() {
                            Some(Cut::Choice(i, s)) if i == item => expected = s,
                            Some(Cut::ChoiceEnd) => break,
                            _ => return None,
                        }
                    }
                    items.push(item);
                    pieces.push(Piece::Choice { item, variants });
                }
            }
        }
        let held = pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.raw.len() + t.deflated.len(),
                Piece::Mark(_) => 0,
                Piece::Choice { variants, .. } => variants
                    .iter()
                    .map(|t| t.raw.len() + t.deflated.len())
                    .sum(),
            })
            .sum();
        let hint = |size: fn(&Text) -> usize| -> usize {
            pieces
                .iter()
                .map(|p| match p {
                    Piece::Text(t) => size(t),
                    Piece::Mark(_) => MARK_HINT,
                    Piece::Choice { variants, .. } => variants.iter().map(size).max().unwrap_or(0),
                })
                .sum()
        };
        let plain_hint = hint(|t| t.raw.len());
        let gzip_hint = hint(|t| t.deflated.len()) + GZIP_HEADER.len() + FINAL_BLOCK.len() + 8;
        Some(Template {
            pieces,
            held,
            plain_hint,
            gzip_hint,
            items,
            required,
        })
    }

    /// What the copy holds in memory (its text and deflated text), for the cache's budget.
    pub fn bytes(&self) -> usize {
        self.held
    }

    /// The items of the page's tiles.
    pub fn items(&self) -> &[i64] {
        &self.items
    }

    /// The items the page shows in the stand-in's state only.
    pub fn required(&self) -> &[i64] {
        &self.required
    }

    /// Whether a mark of `kind` is in the page.
    pub fn has(&self, mark: &Mark) -> bool {
        self.pieces
            .iter()
            .any(|p| matches!(p, Piece::Mark(m) if m == mark))
    }

    /// The marks in order, for tests.
    #[cfg(test)]
    pub fn marks(&self) -> Vec<Option<Mark>> {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Mark(m) => Some(m.clone()),
                _ => None,
            })
            .collect()
    }

    /// The text a piece stands for in this response: a shared text, or none for a mark.
    fn text_of<'a>(piece: &'a Piece, fill: &dyn Fill) -> Option<&'a Text> {
        match piece {
            Piece::Text(t) => Some(t),
            Piece::Mark(_) => None,
            Piece::Choice { item, variants } => {
                let state = usize::from(fill.state(*item));
                variants.get(state).or(variants.first())
            }
        }
    }

    /// The page for one visitor, uncompressed.
    pub fn fill(&self, xsrf: &str, nonce: &str) -> Bytes {
        self.fill_plain(&Visitor { xsrf, nonce })
    }

    /// The page for one visitor as a gzip stream.
    pub fn fill_gzip(&self, xsrf: &str, nonce: &str) -> Bytes {
        self.fill_gzipped(&Visitor { xsrf, nonce })
    }

    // Both fills write the page into one buffer, sent as one body frame: hyper writes at
    // most 16 queued buffers at a time, and a page handed over piece by piece (the shared
    // texts between the visitor's values) left in two writes, each waking the client (two
    // `writev` per response, measured with strace). One copy of the page costs
    // less than the second system call.

    /// The page with `fill`'s values, uncompressed.
    pub fn fill_plain(&self, fill: &dyn Fill) -> Bytes {
        let mut out = BytesMut::with_capacity(self.plain_hint);
        for piece in &self.pieces {
            match piece {
                Piece::Mark(m) => out.put_slice(fill.value(m).as_bytes()),
                _ => {
                    if let Some(t) = Self::text_of(piece, fill) {
                        out.put_slice(&t.raw);
                    }
                }
            }
        }
        out.freeze()
    }

    /// The page with `fill`'s values as a gzip stream: the shared pieces' deflated bytes,
    /// the values between them as stored blocks.
    pub fn fill_gzipped(&self, fill: &dyn Fill) -> Bytes {
        let mut crc = 0u32;
        let mut size = 0usize;
        // The header first, every piece in order (stored blocks for the values), the final
        // block and the trailer last.
        let mut out = BytesMut::with_capacity(self.gzip_hint);
        out.put_slice(&GZIP_HEADER);
        for piece in &self.pieces {
            match piece {
                Piece::Mark(mark) => {
                    let value = fill.value(mark).as_bytes();
                    let mut hasher = Hasher::new_with_initial(crc);
                    hasher.update(value);
                    crc = hasher.finalize();
                    size += value.len();
                    stored(value, &mut out);
                }
                _ => {
                    let Some(t) = Self::text_of(piece, fill) else {
                        continue;
                    };
                    crc = crc_shift::join(crc, t.crc, t.shift);
                    size += t.raw.len();
                    out.put_slice(&t.deflated);
                }
            }
        }
        out.put_slice(&FINAL_BLOCK);
        out.put_u32_le(crc);
        out.put_u32_le(size as u32);
        out.freeze()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn collect(body: Bytes) -> Vec<u8> {
        body.to_vec()
    }

    fn gunzip(bytes: &[u8]) -> String {
        let mut s = String::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_string(&mut s)
            .expect("a valid gzip stream");
        s
    }

    #[test]
    fn the_page_is_cut_at_every_marker_and_refilled_whole() {
        let t = Template::parse("<N>a<T><T>bc<N>", "<T>", "<N>");
        use Mark::*;
        assert_eq!(
            t.marks(),
            vec![
                Some(Nonce),
                None,
                Some(Token),
                Some(Token),
                None,
                Some(Nonce)
            ]
        );
        assert_eq!(collect(t.fill("TT", "N")), b"NaTTTTbcN");
        assert_eq!(Template::parse("plain", "<T>", "<N>").marks(), vec![None]);
    }

    #[test]
    fn the_gzip_stream_decodes_to_the_filled_page() {
        // Repetitive text (compressed much) and values around and between the pieces.
        let page = format!(
            "<T><html>{}<p data-x=\"<T>\"><script nonce=\"<N>\">{}</script><N>",
            "<li>produit</li>".repeat(5000),
            "x".repeat(70_000)
        );
        let t = Template::parse(&page, "<T>", "<N>");
        let plain = String::from_utf8(collect(t.fill("token-1", "nonce-1"))).unwrap();
        let expected = page.replace("<T>", "token-1").replace("<N>", "nonce-1");
        assert_eq!(plain, expected);
        let gz = collect(t.fill_gzip("token-1", "nonce-1"));
        assert!(gz.len() < plain.len() / 10, "{} bytes", gz.len());
        assert_eq!(gunzip(&gz), expected);
        // Another visitor: other values, same shared pieces.
        assert_eq!(
            gunzip(&collect(t.fill_gzip("token-2", "nonce-2"))),
            page.replace("<T>", "token-2").replace("<N>", "nonce-2")
        );
    }

    #[test]
    fn gzip_of_edge_cases() {
        for page in ["", "<T>", "only text", "<N><T>"] {
            let t = Template::parse(page, "<T>", "<N>");
            let expected = page.replace("<T>", "tok").replace("<N>", "non");
            assert_eq!(gunzip(&collect(t.fill_gzip("tok", "non"))), expected);
        }
        // A value longer than one stored block.
        let long = "v".repeat(STORED_MAX + 10);
        let t = Template::parse("a<T>b", "<T>", "<N>");
        assert_eq!(
            gunzip(&collect(t.fill_gzip(&long, "n"))),
            format!("a{long}b")
        );
    }

    struct Member;

    impl Fill for Member {
        fn value(&self, mark: &Mark) -> &str {
            match mark {
                Mark::Token => "tok",
                Mark::Nonce => "non",
                Mark::Name => "Zo&amp;é",
                Mark::Member => "42",
                Mark::Ctx => "{ctx}",
                Mark::Hole(Hole::Bell) => "<bell/>",
                Mark::Hole(Hole::CartLink) => "<cart/>",
                Mark::Hole(Hole::Delivery) => "<delivery/>",
                Mark::Hole(Hole::Orders) => "<orders/>",
            }
        }

        fn state(&self, item: i64) -> u8 {
            if item == 7 {
                4
            } else {
                0
            }
        }
    }

    #[test]
    fn a_member_template_fills_marks_holes_and_tile_variants() {
        let p = "PFX";
        let variants = |item: i64| {
            (0..6)
                .map(|s| format!("PFX:c:{item}:{s};<li i={item} s={s}></li>"))
                .collect::<String>()
                + "PFX:e;"
        };
        let page = format!(
            "<html data-ctx=\"PFX:x;\"><b>Hi PFX:n; (PFX:m;)</b><T>PFX:h:b;PFX:h:c;<ul>{}{}</ul>PFX:r:9;<N></html>",
            variants(7),
            variants(8)
        );
        let t = Template::parse_member(&page, "<T>", "<N>", p).expect("well nested");
        assert_eq!(t.items(), &[7, 8]);
        assert_eq!(t.required(), &[9]);
        assert!(t.has(&Mark::Hole(Hole::Bell)) && t.has(&Mark::Ctx));
        let expected = "<html data-ctx=\"{ctx}\"><b>Hi Zo&amp;é (42)</b>tok<bell/><cart/><ul><li i=7 s=4></li><li i=8 s=0></li></ul>non</html>";
        let plain = String::from_utf8(collect(t.fill_plain(&Member))).unwrap();
        assert_eq!(plain, expected);
        assert_eq!(gunzip(&collect(t.fill_gzipped(&Member))), expected);
        // The same text outside a member template is only text.
        let visitor = Template::parse(&page, "<T>", "<N>");
        assert!(String::from_utf8(collect(visitor.fill("a", "b")))
            .unwrap()
            .contains("PFX:n;"));
    }

    #[test]
    fn each_text_of_a_page_deflates_on_its_own() {
        // Texts deflated one after the other in one stream: a variant shown without the
        // ones before it (or a text after a member's value) must not refer back to them,
        // so the variants repeat the same long text, which a stream that kept its
        // dictionary would point back to.
        let body = "<div class=\"tile\">robe en lin, coloris sable</div>".repeat(60);
        let page = format!(
            "<html>{body}PFX:n;{body}<ul>{}PFX:e;</ul>{body}<T></html>",
            (0..6)
                .map(|s| format!("PFX:c:7:{s};<li s={s}>{body}</li>"))
                .collect::<String>()
        );
        let t = Template::parse_member(&page, "<T>", "<N>", "PFX").expect("well nested");
        let expected =
            format!("<html>{body}Zo&amp;é{body}<ul><li s=4>{body}</li></ul>{body}tok</html>");
        assert_eq!(gunzip(&collect(t.fill_gzipped(&Member))), expected);
        let gz = collect(t.fill_gzipped(&Member)).len();
        assert!(gz < expected.len() / 5, "{gz} bytes for {}", expected.len());
    }

    #[test]
    fn badly_nested_member_marks_make_no_template() {
        for page in [
            "PFX:c:1:0;aPFX:c:1:1;b",       // never ended
            "PFX:e;",                       // ended, never begun
            "PFX:c:1:1;a PFX:e;",           // not from the first state
            "PFX:c:1:0;aPFX:c:2:1;bPFX:e;", // another item's variant inside
        ] {
            assert!(
                Template::parse_member(page, "<T>", "<N>", "PFX").is_none(),
                "{page}"
            );
        }
        // A prefix followed by anything else stays text.
        let t = Template::parse_member("xPFX:zz;y", "<T>", "<N>", "PFX").unwrap();
        assert_eq!(
            String::from_utf8(collect(t.fill_plain(&Member))).unwrap(),
            "xPFX:zz;y"
        );
    }
}
