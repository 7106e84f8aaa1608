// The dashboard reads server shapes only through the types generated from the routes' schemas (ui/src/data/api.gen.ts):
// no file in ui/src declares a type named like a generated one, and no object type in ui/src copies the keys of a
// generated shape by hand. A copy drifts silently when a route changes; an alias of the generated type cannot.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { fromRoot } from '../../../support/paths.js';

const UI = fromRoot('ui/src');
const GENERATED = join(UI, 'data', 'api.gen.ts');

/** A hand-written object type sharing this many keys with a generated shape, and most of both, is a copy. */
const MIN_SHARED_KEYS = 3;
const COPY_SHARE = 0.75;

interface ObjectShape { where: string; keys: string[] }

const parse = (file: string): ts.SourceFile => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

const keysOf = (members: ts.NodeArray<ts.TypeElement>): string[] =>
  members.filter(ts.isPropertySignature).map((m) => m.name.getText().replace(/^['"]|['"]$/g, ''));

/** Every object type literal and interface in a file, nested ones included, with where it is. */
function objectShapes(source: ts.SourceFile, label: string): ObjectShape[] {
  const shapes: ObjectShape[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeLiteralNode(node) || ts.isInterfaceDeclaration(node)) {
      const keys = keysOf(node.members);
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      if (keys.length > 0) shapes.push({ where: `${label}:${line}`, keys });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return shapes;
}

/** Names a file declares as types (interfaces and aliases), not the ones it re-exports. */
function declaredTypeNames(source: ts.SourceFile): string[] {
  return source.statements.filter((s): s is ts.InterfaceDeclaration | ts.TypeAliasDeclaration => ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)).map((s) => s.name.text);
}

function uiFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return uiFiles(path);
    return /\.tsx?$/.test(e.name) && path !== GENERATED ? [path] : [];
  });
}

const generated = parse(GENERATED);
const generatedNames = new Set(declaredTypeNames(generated).filter((n) => n !== 'ApiAnswers' && n !== 'ApiBodies'));
// The maps' own entries are operations, not shapes: only the objects inside them count.
const generatedShapes = objectShapes(generated, 'api.gen.ts').filter((s) => !s.keys.some((k) => /^(GET|POST|PUT|PATCH|DELETE) \//.test(k)));

/** The generated shape `keys` copies, if any. */
function copiedShape(keys: readonly string[]): ObjectShape | undefined {
  const mine = new Set(keys);
  return generatedShapes.find((g) => {
    const shared = g.keys.filter((k) => mine.has(k)).length;
    return shared >= MIN_SHARED_KEYS && shared / g.keys.length >= COPY_SHARE && shared / mine.size >= COPY_SHARE;
  });
}

test('the generated module holds the shapes the check compares with', () => {
  assert.ok(generatedNames.size > 50, `${generatedNames.size} generated names`);
  const sessionKeys = ['id', 'current', 'created_at', 'last_seen_at', 'expires_at', 'idle_expires_at', 'user_agent', 'client_address'];
  assert.ok(copiedShape(sessionKeys.filter((k) => k !== 'client_address')), 'a copy of a dashboard session, one key short, is recognised');
  assert.not.ok(copiedShape(['theme', 'label']), 'two keys are no copy');
});

test('no file in ui/src declares a type named like a generated one', () => {
  const clashes = uiFiles(UI).flatMap((file) => declaredTypeNames(parse(file))
    .filter((n) => generatedNames.has(n)).map((n) => `${relative(UI, file)}: ${n}`));
  assert.equal(clashes, [], 'import these from ui/src/data/api.gen.ts instead');
});

test('no object type in ui/src copies the keys of a generated server shape', () => {
  const copies = uiFiles(UI).flatMap((file) => objectShapes(parse(file), relative(UI, file)).flatMap((shape) => {
    const copied = copiedShape(shape.keys);
    return copied ? [`${shape.where} {${shape.keys.join(', ')}} copies api.gen.ts:${copied.where.split(':')[1]} {${copied.keys.join(', ')}}`] : [];
  }));
  assert.equal(copies, [], 'use (or alias) the generated type, and tighten the route\'s schema if it is too loose');
});

test.run();
