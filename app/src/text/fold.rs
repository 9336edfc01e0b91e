//! Accent folding: the one table every text rule uses (slugs, search terms and queries).
//! Lower case, accents removed (é→e, ß→ss, æ→ae, ø→o, œ→oe…).

/// Lower case without accents: the form every term and query token takes.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars().flat_map(char::to_lowercase) {
        match c {
            'à' | 'á' | 'â' | 'ä' | 'ã' | 'å' | 'ā' | 'ą' => out.push('a'),
            'æ' => out.push_str("ae"),
            'ç' | 'ć' | 'č' => out.push('c'),
            'ď' | 'đ' => out.push('d'),
            'é' | 'è' | 'ê' | 'ë' | 'ē' | 'ę' | 'ě' => out.push('e'),
            'í' | 'ì' | 'î' | 'ï' | 'ī' => out.push('i'),
            'ł' => out.push('l'),
            'ñ' | 'ń' | 'ň' => out.push('n'),
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'ø' | 'ō' => out.push('o'),
            'œ' => out.push_str("oe"),
            'ř' => out.push('r'),
            'ß' => out.push_str("ss"),
            'ś' | 'š' => out.push('s'),
            'ť' => out.push('t'),
            'ú' | 'ù' | 'û' | 'ü' | 'ū' | 'ů' => out.push('u'),
            'ý' | 'ÿ' => out.push('y'),
            'ź' | 'ż' | 'ž' => out.push('z'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn folds_accents_and_ligatures() {
        assert_eq!(fold("Éléphant Œuvre Straße"), "elephant oeuvre strasse");
        assert_eq!(fold("Æble Ørken"), "aeble orken");
    }
}
