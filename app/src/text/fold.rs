//! Accent folding: the one table every text rule uses (slugs, search terms and queries).
//! Lower case, accents removed (é→e, ß→ss, æ→ae, ø→o, œ→oe…).

/// Lower case without accents: the form every term and query token takes.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars().flat_map(char::to_lowercase) {
        match c {
            'à' | 'á' | 'â' | 'ä' | 'ã' | 'å' | 'ā' | 'ą' | 'ă' => out.push('a'),
            'æ' => out.push_str("ae"),
            'ç' | 'ć' | 'č' => out.push('c'),
            'ď' | 'đ' | 'ð' => out.push('d'),
            'é' | 'è' | 'ê' | 'ë' | 'ē' | 'ę' | 'ě' | 'ė' => out.push('e'),
            'ğ' | 'ģ' => out.push('g'),
            'í' | 'ì' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => out.push('i'),
            'ķ' => out.push('k'),
            'ł' | 'ľ' | 'ĺ' | 'ļ' => out.push('l'),
            'ñ' | 'ń' | 'ň' | 'ņ' => out.push('n'),
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'ø' | 'ō' | 'ő' => out.push('o'),
            'œ' => out.push_str("oe"),
            'ř' | 'ŕ' => out.push('r'),
            'ß' => out.push_str("ss"),
            'ś' | 'š' | 'ș' | 'ş' => out.push('s'),
            'ť' | 'ț' | 'ţ' => out.push('t'),
            'þ' => out.push_str("th"),
            'ú' | 'ù' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' => out.push('u'),
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

    /// The letters of the sites' neighbours: Hungarian, Romanian, Croatian, Turkish, Baltic,
    /// Icelandic (a brands-place search for "gyor" finds "Győr", as its in-page filter did).
    #[test]
    fn folds_central_and_northern_european_letters() {
        assert_eq!(fold("Győr Ștefan Țara Đukić"), "gyor stefan tara dukic");
        assert_eq!(fold("Şişli Ğöl Ilık Műanyag"), "sisli gol ilik muanyag");
        assert_eq!(
            fold("Ėglė Ķekava Ļaudis Ņina Ģirts Ųla Įėjimas"),
            "egle kekava laudis nina girts ula iejimas"
        );
        assert_eq!(fold("Þór Guðrún"), "thor gudrun");
    }
}
