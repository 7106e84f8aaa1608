// Every case of the governance corpus, in file order (the order apps answer them in, per config).
import type { CorpusCase } from './case-model.js';
import { bodyCases } from './cases-bodies.js';
import { captureCases } from './cases-capture.js';
import { detectCases } from './cases-detect.js';
import { jsonCases } from './cases-json.js';
import { nameCases } from './cases-names.js';
import { pathCases } from './cases-paths.js';

export const allCases = (): CorpusCase[] => [
  ...pathCases(), ...jsonCases(), ...nameCases(), ...captureCases(), ...detectCases(), ...bodyCases(),
];
