//! The back office's words, in the operator's language (English or French: the team's
//! languages; an operator chooses theirs, the sign-in pages follow the browser). A key
//! missing from a language falls back to English; a test checks that none is missing.
pub const LANGS: [&str; 2] = ["en", "fr"];

/// `(key, English, French)`.
const TABLE: &[(&str, &str, &str)] = &[
    ("app", "Rosace back office", "Back office Rosace"),
    ("nav.home", "Overview", "Vue d'ensemble"),
    ("nav.sales", "Sales", "Ventes"),
    ("nav.operators", "Operators", "Opérateurs"),
    ("nav.audit", "Audit log", "Journal d'audit"),
    ("nav.signout", "Sign out", "Se déconnecter"),
    ("skip", "Skip to content", "Aller au contenu"),
    ("signin.title", "Operator sign-in", "Connexion opérateur"),
    ("signin.email", "Email", "E-mail"),
    ("signin.password", "Password", "Mot de passe"),
    ("signin.submit", "Continue", "Continuer"),
    ("signin.refused", "Wrong email or password.", "E-mail ou mot de passe incorrect."),
    ("signin.locked", "Too many failed attempts: this account is locked for 15 minutes.", "Trop d'essais manqués : ce compte est bloqué pendant 15 minutes."),
    ("signin.rate", "Too many attempts from this address. Wait a few minutes.", "Trop d'essais depuis cette adresse. Patientez quelques minutes."),
    ("signin.expired", "Your session ended. Sign in again.", "Votre session a pris fin. Reconnectez-vous."),
    ("signin.form_expired", "This form expired. Try again.", "Ce formulaire a expiré. Réessayez."),
    ("totp.title", "Second factor", "Second facteur"),
    ("totp.code", "6-digit code from your authenticator app", "Code à 6 chiffres de votre application d'authentification"),
    ("totp.recovery", "Or a recovery code", "Ou un code de secours"),
    ("totp.refused", "This code is not valid (or was already used).", "Ce code n'est pas valide (ou a déjà servi)."),
    ("totp.recovery_left", "recovery codes left", "codes de secours restants"),
    ("setup.title", "Set up your operator account", "Créer votre compte opérateur"),
    ("setup.invalid", "This set-up link is not valid any more. Ask an admin for a new one.", "Ce lien n'est plus valide. Demandez-en un nouveau à un administrateur."),
    ("setup.password_rule", "At least 12 characters.", "Au moins 12 caractères."),
    ("setup.password_short", "The password must have at least 12 characters.", "Le mot de passe doit compter au moins 12 caractères."),
    ("setup.secret", "Add this key to your authenticator app, then type the code it shows.", "Ajoutez cette clé à votre application d'authentification, puis saisissez le code affiché."),
    ("setup.link", "Or open this link on your phone", "Ou ouvrez ce lien sur votre téléphone"),
    ("setup.done", "Your account is ready. Keep these recovery codes somewhere safe: each works once, if you lose your phone.", "Votre compte est prêt. Gardez ces codes de secours en lieu sûr : chacun sert une fois, si vous perdez votre téléphone."),
    ("setup.continue", "Sign in", "Se connecter"),
    ("denied.title", "Not allowed", "Accès refusé"),
    ("denied.text", "Your role does not allow this. Ask an admin if you need it.", "Votre rôle ne le permet pas. Demandez à un administrateur si nécessaire."),
    ("notfound", "Nothing here.", "Rien ici."),
    ("home.title", "Overview", "Vue d'ensemble"),
    ("home.live", "Live sales", "Ventes en cours"),
    ("home.upcoming", "Opening within 48 hours", "Ouverture dans les 48 heures"),
    ("home.none", "None.", "Aucune."),
    ("operators.title", "Operators", "Opérateurs"),
    ("operators.invite", "Invite an operator", "Inviter un opérateur"),
    ("operators.name", "Name", "Nom"),
    ("operators.role", "Role", "Rôle"),
    ("operators.lang", "Language", "Langue"),
    ("operators.status", "Status", "Statut"),
    ("operators.active", "active", "actif"),
    ("operators.inactive", "deactivated", "désactivé"),
    ("operators.pending", "set-up link not used yet", "lien de création non utilisé"),
    ("operators.deactivate", "Deactivate", "Désactiver"),
    ("operators.reactivate", "Reactivate", "Réactiver"),
    ("operators.change_role", "Change role", "Changer de rôle"),
    ("operators.invited", "Invitation made. Send this one-time set-up link to the operator (valid 72 hours):", "Invitation créée. Envoyez ce lien à usage unique à l'opérateur (valable 72 heures) :"),
    ("operators.email_taken", "An operator with this email already exists.", "Un opérateur avec cet e-mail existe déjà."),
    ("operators.email_invalid", "Enter a valid email address.", "Saisissez une adresse e-mail valide."),
    ("operators.name_missing", "Enter a name.", "Saisissez un nom."),
    ("operators.last_admin", "The last admin cannot be deactivated or lose the admin role.", "Le dernier administrateur ne peut être désactivé ni perdre son rôle."),
    ("operators.self", "You cannot deactivate yourself.", "Vous ne pouvez pas vous désactiver vous-même."),
    ("operators.saved", "Saved.", "Enregistré."),
    ("audit.title", "Audit log", "Journal d'audit"),
    ("audit.search", "Search", "Rechercher"),
    ("audit.when", "When (UTC)", "Quand (UTC)"),
    ("audit.who", "Who", "Qui"),
    ("audit.action", "Action", "Action"),
    ("audit.object", "Object", "Objet"),
    ("audit.summary", "Change", "Modification"),
    ("audit.ip", "Address", "Adresse"),
    ("audit.kind", "Object kind", "Type d'objet"),
    ("audit.any", "any", "tous"),
    ("audit.none", "No entry matches.", "Aucune entrée ne correspond."),
    ("page.next", "Next page", "Page suivante"),
    ("page.previous", "Previous page", "Page précédente"),
    ("sales.title", "Sales", "Ventes"),
    ("sales.search", "Search sales", "Rechercher des ventes"),
    ("sales.site", "Site", "Site"),
    ("sales.any_site", "all sites", "tous les sites"),
    ("sales.state", "State", "État"),
    ("sales.state.any", "any", "tous"),
    ("sales.state.live", "live", "en cours"),
    ("sales.state.upcoming", "upcoming", "à venir"),
    ("sales.state.ended", "ended", "terminée"),
    ("sales.state.archived", "archived", "archivée"),
    ("sales.name", "Name", "Nom"),
    ("sales.opens", "Opens (UTC)", "Ouverture (UTC)"),
    ("sales.closes", "Closes (UTC)", "Fermeture (UTC)"),
    ("sales.offer_type", "Offer type", "Type d'offre"),
    ("sales.description", "Description", "Description"),
    ("sales.legal_merchant", "Merchant (legal notice)", "Marchand (mentions légales)"),
    ("sales.legal_terms", "Sale terms (legal notice)", "Conditions de vente (mentions légales)"),
    ("sales.with_quotation_price", "Show the quotation price (withQuotationPrice)", "Afficher le prix de référence (withQuotationPrice)"),
    ("sales.with_map", "Show a map (withMap)", "Afficher une carte (withMap)"),
    ("sales.save", "Save the sale", "Enregistrer la vente"),
    ("sales.new", "New sale", "Nouvelle vente"),
    ("sales.create", "Create the sale", "Créer la vente"),
    ("sales.duplicate", "Duplicate", "Dupliquer"),
    ("sales.duplicate_to", "Duplicate to site", "Dupliquer vers le site"),
    ("sales.archive", "Archive (closes it now)", "Archiver (la ferme maintenant)"),
    ("sales.archive_confirm", "Archive this sale? It closes at once for every member.", "Archiver cette vente ? Elle ferme immédiatement pour tous les membres."),
    ("sales.archived", "Sale archived: it is closed.", "Vente archivée : elle est fermée."),
    ("sales.saved", "Sale saved.", "Vente enregistrée."),
    ("sales.created", "Sale created.", "Vente créée."),
    ("sales.duplicated", "Copy made (closed until you set its dates).", "Copie créée (fermée tant que ses dates ne sont pas fixées)."),
    ("sales.products", "Products and stock", "Produits et stock"),
    ("sales.dashboard", "Live opening dashboard", "Tableau de bord de l'ouverture"),
    ("sales.none", "No sale matches.", "Aucune vente ne correspond."),
    ("sales.error.name", "Enter a name (at most 200 characters).", "Saisissez un nom (200 caractères au plus)."),
    ("sales.error.dates", "The closing time must be after the opening time.", "La fermeture doit suivre l'ouverture."),
    ("sales.error.date_format", "Use the form 2026-12-01T08:00.", "Utilisez la forme 2026-12-01T08:00."),
    ("sales.error.site", "Choose one of the 11 sites.", "Choisissez l'un des 11 sites."),
    ("sales.error.offer_type", "Choose an offer type from the list.", "Choisissez un type d'offre de la liste."),
    ("sales.error.archived", "This sale is archived and cannot change.", "Cette vente est archivée et ne peut plus changer."),
    ("sales.new_product", "Add a product", "Ajouter un produit"),
    ("sales.add_product", "Add the product", "Ajouter le produit"),
    ("sales.brand", "Brand", "Marque"),
    ("sales.colour", "Colour", "Couleur"),
    ("sales.price", "Price (e.g. 19.90)", "Prix (ex. 19,90)"),
    ("travel.title", "Travel inventory", "Stock voyage"),
    ("travel.link", "Travel inventory", "Stock voyage"),
    ("travel.saved", "Saved.", "Enregistré."),
    ("travel.party", "Who travels together", "Qui voyage ensemble"),
    ("travel.travellers", "Travellers per booking", "Voyageurs par réservation"),
    ("travel.party_min", "At least", "Au moins"),
    ("travel.party_max", "At most", "Au plus"),
    ("travel.save", "Save", "Enregistrer"),
    ("travel.packages", "Packages", "Formules"),
    ("travel.no_package", "This trip has no package yet: add one below.", "Ce voyage n'a pas encore de formule : ajoutez-en une ci-dessous."),
    ("travel.new_package", "Add a package", "Ajouter une formule"),
    ("travel.package_title", "Package title", "Titre de la formule"),
    ("travel.add_package", "Add the package", "Ajouter la formule"),
    ("travel.code", "Airport or station code", "Code de l'aéroport ou de la gare"),
    ("travel.city", "Departure city", "Ville de départ"),
    ("travel.add_city", "Add the departure city", "Ajouter la ville de départ"),
    ("travel.days", "days", "jours"),
    ("travel.nights", "nights", "nuits"),
    ("travel.supplement", "Supplement (e.g. 120)", "Supplément (ex. 120)"),
    ("travel.add_duration", "Add the duration", "Ajouter la durée"),
    ("travel.seasons", "Seasons", "Saisons"),
    ("travel.days_range", "Days", "Jours"),
    ("travel.first_day", "First departure day", "Premier jour de départ"),
    ("travel.last_day", "Last departure day", "Dernier jour de départ"),
    ("travel.weekdays", "Departure weekdays", "Jours de départ"),
    ("travel.price", "Price per person", "Prix par personne"),
    ("travel.reference_price", "Reference price", "Prix de référence"),
    ("travel.places", "Places", "Places"),
    ("travel.add_season", "Add the season", "Ajouter la saison"),
    ("travel.departures", "Departures with places of their own", "Départs avec leurs propres places"),
    ("travel.day", "Departure day", "Jour de départ"),
    ("travel.duration", "Duration", "Durée"),
    ("travel.departure_places", "Places of this departure", "Places de ce départ"),
    ("travel.set_places", "Set the places", "Fixer les places"),
    ("travel.remove", "Remove", "Supprimer"),
    ("travel.remove_confirm", "Remove it? Departures already booked stop it.", "Le supprimer ? Les départs déjà réservés l'empêchent."),
    ("travel.change", "Change", "Modifier"),
    ("travel.error.duration_taken", "Refused: members hold, bought or booked departures of this duration.", "Refusé : des membres réservent, ont acheté ou réservé des départs de cette durée."),
    ("travel.error.season_taken", "Refused: members hold or bought departures within this season's days; change its places or price instead.", "Refusé : des membres réservent ou ont acheté des départs dans les jours de cette saison ; modifiez plutôt ses places ou son prix."),
    ("travel.mon", "Mon", "Lun"),
    ("travel.tue", "Tue", "Mar"),
    ("travel.wed", "Wed", "Mer"),
    ("travel.thu", "Thu", "Jeu"),
    ("travel.fri", "Fri", "Ven"),
    ("travel.sat", "Sat", "Sam"),
    ("travel.sun", "Sun", "Dim"),
    ("travel.error.days", "Give the first and last departure days in order, at most two years apart.", "Indiquez le premier et le dernier jour de départ dans l'ordre, à deux ans au plus d'écart."),
    ("travel.error.weekdays", "Tick at least one departure weekday.", "Cochez au moins un jour de départ."),
    ("travel.error.places", "Enter the places as a whole number from 0 to 10000, and a departure day.", "Saisissez les places en nombre entier de 0 à 10000, et un jour de départ."),
    ("travel.error.duration", "Enter 1 to 60 days and fewer nights than days.", "Saisissez de 1 à 60 jours et moins de nuits que de jours."),
    ("travel.error.code", "Enter a code of 2 to 5 letters or digits, such as CDG.", "Saisissez un code de 2 à 5 lettres ou chiffres, comme CDG."),
    ("travel.error.name", "Enter a name (at most 80 characters; 120 for a package).", "Saisissez un nom (80 caractères au plus ; 120 pour une formule)."),
    ("travel.error.party", "Enter at least 1 and at most 20 travellers, the most not below the least.", "Saisissez au moins 1 et au plus 20 voyageurs, le maximum non inférieur au minimum."),
    ("travel.error.below", "Refused: the places cannot go below what members hold and bought", "Refusé : les places ne peuvent pas descendre sous ce que les membres réservent et ont acheté"),
    ("travel.error.no_departure", "No season of this departure city leaves on that day.", "Aucune saison de cette ville de départ ne part ce jour-là."),
    ("preview.title", "Preview", "Aperçu"),
    ("preview.help", "See the home and this sale's catalog as members will see them at a date and time (UTC), in this browser only, for 30 minutes. Nothing is made public.", "Voir l'accueil et le catalogue de cette vente tels que les membres les verront à une date et une heure (UTC), dans ce navigateur seulement, pendant 30 minutes. Rien n'est rendu public."),
    ("preview.at", "Preview at (UTC)", "Aperçu au (UTC)"),
    ("preview.home", "Preview the home", "Aperçu de l'accueil"),
    ("preview.catalog", "Preview the catalog", "Aperçu du catalogue"),
    ("preview.error.at", "Choose a date and time within a year, in the form 2026-12-01T08:00.", "Choisissez une date et une heure à moins d'un an, sous la forme 2026-12-01T08:00."),
    ("preview.running", "A preview runs in this browser: the shop as at", "Un aperçu est en cours dans ce navigateur : la boutique telle qu'au"),
    ("preview.open_home", "Open the previewed home", "Ouvrir l'accueil en aperçu"),
    ("preview.end", "End the preview", "Terminer l'aperçu"),
    ("preview.none", "No preview runs in this browser. Start one from a sale's page.", "Aucun aperçu en cours dans ce navigateur. Lancez-en un depuis la page d'une vente."),
    ("sales.option_price", "Own price (empty: the product's)", "Prix propre (vide : celui du produit)"),
    ("sales.option_retail_price", "Own retail price (empty: the product's)", "Prix public propre (vide : celui du produit)"),
    ("sales.add_option", "Add the option", "Ajouter l'option"),
    ("sales.retail_price", "Retail price (e.g. 39.90)", "Prix public (ex. 39,90)"),
    ("sales.data_sheet", "Data sheet (simple HTML: p, ul, li, strong, em)", "Fiche technique (HTML simple : p, ul, li, strong, em)"),
    ("sales.product_added", "Product added. Add its options (sizes) with their stock.", "Produit ajouté. Ajoutez ses options (tailles) et leur stock."),
    ("sales.option_added", "Option added.", "Option ajoutée."),
    ("sales.error.product_name", "Enter the product's name (at most 200 characters).", "Saisissez le nom du produit (200 caractères au plus)."),
    ("sales.error.price", "Enter both prices as amounts, such as 19.90.", "Saisissez les deux prix sous forme de montant, comme 19,90."),
    ("sales.error.retail_below", "The retail price cannot be below the sale price.", "Le prix public ne peut être inférieur au prix de vente."),
    ("sales.error.option_label", "Enter the option's label (at most 40 characters).", "Saisissez le libellé de l'option (40 caractères au plus)."),
    ("sales.error.option_stock", "Enter the stock as a whole number from 0 to 100000.", "Saisissez le stock en nombre entier de 0 à 100000."),
    ("stock.error.lowest", "lowest change allowed:", "plus petite modification permise :"),
    ("nav.import", "Import", "Import"),
    ("import.title", "Import a feed", "Importer un flux"),
    ("import.help", "A JSON feed of sales, products, options, stock and pictures, or a CSV of products and stock for sales a feed made. Its JSON Schema:", "Un flux JSON de ventes, produits, options, stocks et photos, ou un CSV de produits et stocks pour des ventes créées par un flux. Son schéma JSON :"),
    ("import.pictures", "Pictures the feed names (JPEG, PNG or WebP, by file name)", "Photos nommées par le flux (JPEG, PNG ou WebP, par nom de fichier)"),
    ("import.picture_missing", "no file of this name was sent with the feed", "aucun fichier de ce nom n'a été envoyé avec le flux"),
    ("import.picture_name", "a file name, without a folder", "un nom de fichier, sans dossier"),
    ("import.pictures_count", "pictures", "photos"),
    ("import.file", "Feed file (.json or .csv)", "Fichier du flux (.json ou .csv)"),
    ("import.apply", "Apply the changes (without this box: only check)", "Appliquer les changements (sans cette case : vérifier seulement)"),
    ("import.submit", "Send", "Envoyer"),
    ("import.refused", "Nothing was changed. Errors:", "Rien n'a été modifié. Erreurs :"),
    ("import.checked", "Checked, nothing changed. It would give:", "Vérifié, rien n'a changé. Cela donnerait :"),
    ("import.applied", "Imported.", "Importé."),
    ("import.created", "created (sales / products / options)", "créés (ventes / produits / options)"),
    ("import.updated", "updated", "mis à jour"),
    ("import.unchanged", "unchanged", "inchangés"),
    ("import.empty", "Choose a file.", "Choisissez un fichier."),
    ("import.too_large", "The files are too large (16 MB for the feed, 64 MB in all).", "Les fichiers sont trop volumineux (16 Mo pour le flux, 64 Mo en tout)."),
    ("homes.title", "On the homes", "Sur les accueils"),
    ("homes.help", "A sale's tile shows on its home while the sale is live: it appears at the opening and goes at the closing by itself.", "La tuile d'une vente s'affiche sur son accueil tant que la vente est ouverte : elle apparaît à l'ouverture et disparaît à la fermeture d'elle-même."),
    ("homes.none", "This sale has no tile on a home yet.", "Cette vente n'a encore aucune tuile sur un accueil."),
    ("homes.home", "Home", "Accueil"),
    ("homes.module", "Home and module", "Accueil et module"),
    ("homes.tile", "Tile size", "Taille de tuile"),
    ("homes.position", "Position (0 first)", "Position (0 en premier)"),
    ("homes.place", "Place on a home", "Placer sur un accueil"),
    ("homes.remove", "Take off", "Retirer"),
    ("homes.placed", "The sale's tile is on the home.", "La tuile de la vente est sur l'accueil."),
    ("homes.removed", "The tile is off the home.", "La tuile est retirée de l'accueil."),
    ("homes.error", "Choose a module of this site's homes, a tile size, and a position from 0 to 999.", "Choisissez un module des accueils de ce site, une taille de tuile et une position de 0 à 999."),
    ("pictures.label", "Picture (JPEG, PNG or WebP, 8 MB at most)", "Photo (JPEG, PNG ou WebP, 8 Mo au plus)"),
    ("pictures.send", "Upload", "Envoyer"),
    ("sales.pictures", "Banner and logo", "Bannière et logo"),
    ("sales.banner", "Banner (home tiles, catalog)", "Bannière (tuiles de l'accueil, catalogue)"),
    ("sales.logo", "Logo (menu, sale cards)", "Logo (menu, cartes de vente)"),
    ("sales.picture_drawn", "the shop's drawing until one is sent", "le dessin de la boutique tant qu'aucune n'est envoyée"),
    ("pictures.added", "Picture saved: the shop shows it in every size.", "Photo enregistrée : la boutique l'affiche dans toutes les tailles."),
    ("pictures.error.type", "This file is not a JPEG, PNG or WebP picture.", "Ce fichier n'est pas une photo JPEG, PNG ou WebP."),
    ("pictures.error.size", "The file is too large (8 MB at most).", "Le fichier est trop volumineux (8 Mo au plus)."),
    ("pictures.error.pixels", "The picture is too large (8000 pixels a side at most).", "La photo est trop grande (8000 pixels de côté au plus)."),
    ("form.errors", "Some fields need your attention.", "Certains champs sont à corriger."),
    ("stock.title", "Stock", "Stock"),
    ("stock.product", "Product", "Produit"),
    ("stock.option", "Option", "Option"),
    ("stock.stock", "Stock", "Stock"),
    ("stock.held", "Held", "Réservé"),
    ("stock.sold", "Sold", "Vendu"),
    ("stock.available", "Available", "Disponible"),
    ("stock.change", "Change by (+/−)", "Modifier de (+/−)"),
    ("stock.reason", "Reason", "Motif"),
    ("stock.apply", "Apply", "Appliquer"),
    ("stock.history", "History", "Historique"),
    ("stock.changed", "Stock changed.", "Stock modifié."),
    ("stock.error.number", "Enter a whole number other than 0 (at most 100000 either way).", "Saisissez un nombre entier non nul (100000 au plus, dans un sens ou l'autre)."),
    ("stock.error.below", "Refused: the stock cannot go below what is held and sold", "Refusé : le stock ne peut descendre sous ce qui est réservé et vendu"),
    ("stock.error.reason", "Say why (at most 200 characters).", "Indiquez pourquoi (200 caractères au plus)."),
    ("stock.none", "No change yet.", "Aucune modification."),
    ("dash.title", "Sale opening", "Ouverture de la vente"),
    ("dash.adds", "Adds to cart per second", "Ajouts au panier par seconde"),
    ("dash.payments", "Payments per second", "Paiements par seconde"),
    ("dash.failed", "Failed adds, last minute", "Ajouts en échec, dernière minute"),
    ("dash.line", "Checkout waiting line (whole shop)", "File d'attente du paiement (toute la boutique)"),
    ("dash.longest", "Longest wait (s)", "Attente la plus longue (s)"),
    ("dash.refused", "Refused adds (sold out), last minute", "Ajouts refusés (épuisé), dernière minute"),
    ("dash.live", "Updates live.", "Mise à jour en direct."),
    ("dash.updated", "Updated", "Mis à jour"),
];

pub fn t(lang: &str, key: &str) -> &'static str {
    match TABLE.iter().find(|(k, _, _)| *k == key) {
        Some((_, en, fr)) => {
            if lang == "fr" {
                fr
            } else {
                en
            }
        }
        None => {
            debug_assert!(false, "no back-office text for {key}");
            "?"
        }
    }
}

/// The language of a browser that is not signed in: French when it asks for French
/// before English, else English.
pub fn from_accept_language(header: Option<&str>) -> &'static str {
    let Some(h) = header else { return "en" };
    for part in h.split(',') {
        let tag = part
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if tag.starts_with("fr") {
            return "fr";
        }
        if tag.starts_with("en") {
            return "en";
        }
    }
    "en"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_translated() {
        let mut seen = std::collections::BTreeSet::new();
        for (k, en, fr) in TABLE {
            assert!(seen.insert(*k), "{k} twice");
            assert!(!en.is_empty() && !fr.is_empty(), "{k}");
        }
        assert_eq!(t("fr", "nav.sales"), "Ventes");
        assert_eq!(t("de", "nav.sales"), "Sales");
    }

    #[test]
    fn the_browser_language_picks_french_or_english() {
        assert_eq!(from_accept_language(Some("fr-FR,fr;q=0.9,en;q=0.8")), "fr");
        assert_eq!(from_accept_language(Some("de-DE,en;q=0.5,fr;q=0.4")), "en");
        assert_eq!(from_accept_language(None), "en");
    }
}
