/**
 * Usernames are shown to other people (the header, shared screens, the admin panel), so a name
 * must not be able to pass for another: `аdmin` with a Cyrillic `а` looks like `admin`. The rule
 * is Unicode TR39's "Highly Restrictive" restriction level (section 5.2; decision 0032): every
 * letter and digit of the name comes from one script (Latin, Cyrillic, Greek, Arabic, Han…), or the
 * name is covered by one of the combinations people write their language with: Latin + Han +
 * Hiragana + Katakana (Japanese), Latin + Han + Bopomofo (Chinese), Latin + Han + Hangul (Korean).
 * Characters of the Common and Inherited scripts (ASCII digits, `_`, `.`, `-`) go with any script.
 */

/** ISO 15924 codes of the Unicode scripts; a code this JavaScript engine does not know is left out. */
const SCRIPT_CODES =
  'Adlm Aghb Ahom Arab Armi Armn Avst Bali Bamu Bass Batk Beng Bhks Bopo Brah Brai Bugi Buhd Cakm Cans Cari Cham Cher Chrs Copt Cpmn Cprt Cyrl Deva Diak Dogr Dsrt Dupl Egyp Elba Elym Ethi Gara Geor Glag Gong Gonm Goth Gran Grek Gujr Gukh Guru Hang Hani Hano Hatr Hebr Hira Hluw Hmng Hmnp Hung Ital Java Kali Kana Kawi Khar Khmr Khoj Kits Knda Krai Kthi Lana Laoo Latn Lepc Limb Lina Linb Lisu Lyci Lydi Mahj Maka Mand Mani Marc Medf Mend Merc Mero Mlym Modi Mong Mroo Mtei Mult Mymr Nagm Nand Narb Nbat Newa Nkoo Nshu Ogam Olck Onao Orkh Orya Osge Osma Ougr Palm Pauc Perm Phag Phli Phlp Phnx Plrd Prti Rjng Rohg Runr Samr Sarb Saur Sgnw Shaw Shrd Sidd Sind Sinh Sogd Sogo Sora Soyo Sund Sunu Sylo Syrc Tagb Takr Tale Talu Taml Tang Tavt Tayo Telu Tfng Tglg Thaa Thai Tibt Tirh Tnsa Todr Toto Tutg Ugar Vaii Vith Wara Wcho Xpeo Xsux Yezi Yiii Zanb'.split(
    ' ',
  );

let tests: [string, RegExp][] | undefined;
const COMMON = /^[\p{scx=Zyyy}\p{scx=Zinh}]$/u;

function scriptTests(): [string, RegExp][] {
  if (!tests) {
    tests = [];
    for (const code of SCRIPT_CODES) {
      try {
        tests.push([code, new RegExp(`^\\p{scx=${code}}$`, 'u')]);
      } catch {
        // Not in this engine's Unicode version: no character of it can be told apart anyway.
      }
    }
  }
  return tests;
}

/** TR39's augmented Script_Extensions of one character: Han also counts as Japanese, Chinese and Korean writing, and so on. */
function augmentedScripts(char: string): Set<string> {
  const scripts = new Set(
    scriptTests()
      .filter(([, test]) => test.test(char))
      .map(([code]) => code),
  );
  if (scripts.has('Hani')) scripts.add('Hanb').add('Jpan').add('Kore');
  if (scripts.has('Hira') || scripts.has('Kana')) scripts.add('Jpan');
  if (scripts.has('Hang')) scripts.add('Kore');
  if (scripts.has('Bopo')) scripts.add('Hanb');
  return scripts;
}

/** The resolved script set (TR39 5.1) of the characters not skipped: undefined means "any script" (nothing left to decide). */
function resolvedScripts(text: string, skip: (char: string) => boolean): Set<string> | undefined {
  let resolved: Set<string> | undefined;
  for (const char of text) {
    if (COMMON.test(char) || skip(char)) continue;
    const scripts = augmentedScripts(char);
    resolved = resolved ? new Set([...resolved].filter((script) => scripts.has(script))) : scripts;
    if (resolved.size === 0) return resolved;
  }
  return resolved;
}

const LATIN = /^\p{scx=Latn}$/u;

/** Whether a username meets TR39's Highly Restrictive level (see above). Plain ASCII always does. */
export function isHighlyRestrictive(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u007f]*$/.test(text)) return true;
  const single = resolvedScripts(text, () => false);
  if (!single || single.size > 0) return true;
  const besidesLatin = resolvedScripts(text, (char) => LATIN.test(char));
  return !!besidesLatin && (besidesLatin.has('Jpan') || besidesLatin.has('Hanb') || besidesLatin.has('Kore'));
}
