import { HtmlValidate, type Message } from 'html-validate';

// HTML validity of a page as the server sends it (no script has run): html-validate's
// `html-validate:standard` preset, the rules that check what the HTML standard requires
// (duplicate ids, content models and nesting, permitted parents and occurrences, unknown
// elements, attribute values, autocomplete tokens, character references...), and none of
// its style or accessibility opinions. No rule of the preset is turned off: it has no
// purely stylistic rule. Two rules of the `document` preset are added because they are
// about whole documents, which is what we check: a doctype, and every id named by
// `aria-labelledby`, `aria-describedby`, `for`... exists (a duplicate or missing id
// breaks an accessible name, as the consent banner's did on the privacy policy).
const validator = new HtmlValidate({
  extends: ['html-validate:standard'],
  rules: {
    'missing-doctype': 'error',
    'no-missing-references': 'error',
  },
});

export interface HtmlError {
  rule: string;
  message: string;
  /// The source around the error, to find it in the page.
  near: string;
}

/// The standard's errors in `html`, less the framework's (Leptos 0.8) artefacts, which
/// are not our markup (scripts/html-check.sh filters the same ones from the Nu checker):
/// - `<!>`, the hydration marker tachys writes around dynamic parts, is an empty comment
///   written the short way (the parser makes the same empty comment node of it, after an
///   "incorrectly opened comment" parse error); html-validate's tokenizer stops on it, so
///   it reads the long form `<!---->` instead, which is the same DOM;
/// - `crossorigin="<nonce>"`: Leptos' HydrationScripts puts the CSP nonce into its
///   preload links' `crossorigin` attribute (leptos/src/hydration/mod.rs), where only
///   "anonymous" or "use-credentials" are allowed (browsers read it as "anonymous"); only
///   that exact value on that attribute is forgiven.
export async function htmlErrors(html: string): Promise<HtmlError[]> {
  const source = html.replaceAll('<!>', '<!---->');
  const nonce = /<script[^>]* nonce="([^"]+)"/.exec(source)?.[1];
  const report = await validator.validateString(source);
  const lines = source.split('\n');
  return report.results
    .flatMap((r) => r.messages)
    .filter((m: Message) => !(nonce && m.ruleId === 'attribute-allowed-values'
      && m.message === `Attribute "crossorigin" has invalid value "${nonce}"`))
    .map((m: Message) => ({
      rule: m.ruleId,
      message: m.message,
      near: (lines[m.line - 1] ?? '').slice(Math.max(0, m.column - 100), m.column + 100),
    }));
}
