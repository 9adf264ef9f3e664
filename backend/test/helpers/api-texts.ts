import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));

/** Where the API's texts are written: the backend's sources and the shared contracts. */
const ROOTS = [resolve(here, '../../src'), resolve(here, '../../../libs/contracts/src')];
/** Not answered to people over HTTP: command-line tools, benchmarks and schema migrations. */
const SKIPPED = [/\.spec\.ts$/, /\.test\.ts$/, /\/bench\//, /\/migrations\//, /\/cli\.ts$/, /\/core\/i18n\/catalogs\//];

/**
 * Texts the scan finds that are not translated on purpose, with the reason. Everything else that
 * reads as Spanish must be in every catalog.
 */
export const UNTRANSLATED: Readonly<Record<string, string>> = {
  'Admin only.': 'English: the OpenAPI document, for developers',
  'Received {0}, shutting down...': 'an English log line',
  'Key rotation pass finished: {0}.': 'an English log line',
  'Proveedor de identidad de desarrollo': 'the development identity provider page (never in production)',
  'Privacidad y protección de datos': 'subject line of an e-mail to the company',
  'Queued {0} connection refresh(es)': 'an English log line',
  'Ejemplo Vida Digital, S.L. (datos ficticios)': 'company details on the legal pages, which stay in Spanish',
  'Calle Ficticia 1, 28000 Madrid, España (dirección de ejemplo)': 'company details on the legal pages',
  'B00000000 (ficticio)': 'company details on the legal pages',
  'Mensaje recibido desde la página de contacto de Life.': 'e-mail to the company, which works in Spanish',
  'Responde a este correo para contestar a {0} ({1}).': 'e-mail to the company',
  'Conecta tu vida y aprovéchala cada día. Errors are JSON `{ error, message }`.': 'OpenAPI document title for developers',
};

/** Words only Spanish sentences have (accents aside). */
const SPANISH = /[áéíóúñ¿¡]|\b(el|la|los|las|del|un|una|tu|tus|este|esta|ese|esa|para|con|por|ya|hay|falta|debe|solo|puede|es|de|que|se|ningún|ninguna)\b/i;
/** Words English sentences have: a sentence with none of them and no Spanish marker is still ours. */
const ENGLISH = /\b(the|is|are|an?|to|of|and|or|not|no|has|have|must|with|for|this|be|at|in|on|by|it|its|was|run|set|see)\b/i;

/** A sentence for people in Spanish: capitalised, several words, and Spanish words or no English ones. */
function looksSpanish(text: string): boolean {
  if (!/^[A-ZÁÉÍÓÚ¿¡]/.test(text) || !text.includes(' ')) return false;
  return SPANISH.test(text) || (!ENGLISH.test(text) && /[.?!]$/.test(text));
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') && !SKIPPED.some((pattern) => pattern.test(path)) ? [path] : [];
  });
}

/** A template literal as a catalog key: each `${…}` becomes `{0}`, `{1}`… in order. */
function templateKey(node: ts.TemplateExpression): string {
  return node.head.text + node.templateSpans.map((span, index) => `{${index}}${span.literal.text}`).join('');
}

/** Every Spanish text in the API's sources (as catalog keys), with where it is written. */
export function apiSpanishTexts(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const root of ROOTS) {
    for (const path of files(root)) {
      const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        let text: string | undefined;
        if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
        else if (ts.isTemplateExpression(node)) text = templateKey(node);
        if (text !== undefined && looksSpanish(text) && !ts.isImportDeclaration(node.parent)) {
          const where = `${relative(resolve(here, '../../..'), path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
          found.set(text, [...(found.get(text) ?? []), where]);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return found;
}
