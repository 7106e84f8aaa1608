// Issue 24: the evaluators' section of the config file is checked before anything starts, with file, line and key
// path: definitions that cannot work, a provider that is not declared, a definition declared twice, a key given twice.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../support/tmp.js';
import { runVigil, writeConfig } from '../support/vigil-process.js';

const work = tempDir('vigil-evals-config-');
test.after(() => work.cleanup());

const config = (evaluators: string) => `data_dir: ${work.path}/data
llm:
  projects:
    - { name: shop, key: evals-config-key-0123456789 }
evaluators:
${evaluators}`;

const validate = async (evaluators: string) => {
  const file = writeConfig(work.path, config(evaluators), 'vigil.yaml');
  return runVigil(['validate', '-config', file], { cwd: work.path });
};

test('a valid section passes and enables the plugin with llm', async () => {
  const r = await validate(`  providers:
    judge: { base_url: "http://127.0.0.1:9/v1", model: gpt-4o-mini, api_key_env: OPENAI_API_KEY }
  definitions:
    - { id: helpful, project: shop, name: Helpful, type: llm_judge, sample_rate: 0.5, template: answer, versions: { min: 2 }, settings: { provider: judge, rubric: "Grade {{output}} for {{metadata.tier}}" } }
    - { id: fn, project: shop, name: Fn, type: custom_function, on_missing_output: score, settings: { source: "export default () => 1" } }
`);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /valid \(plugins: llm, evaluators\)/);
});

const cases: [string, string, RegExp][] = [
  ['an unknown provider', `  definitions:
    - { id: a, project: shop, name: A, type: llm_judge, settings: { provider: nope, rubric: x } }
`, /vigil\.yaml:7:\d+: evaluators\.definitions\[0\]\.settings\.provider: provider "nope" is not declared in evaluators\.providers \(it declares none\)/],
  ['settings of another type', `  definitions:
    - { id: a, project: shop, name: A, type: custom_function, settings: { source: "export default () => 1", rubric: x } }
`, /evaluators\.definitions\[0\]\.settings\.rubric: custom_function definitions take no rubric/],
  ['a definition declared twice', `  definitions:
    - { id: a, project: shop, name: A, type: custom_function, settings: { source: "export default () => 1" } }
    - { id: a, project: shop, name: B, type: custom_function, settings: { source: "export default () => 0" } }
`, /evaluators\.definitions\[1\]\.id: definition "a" of project "shop" is declared twice \(also at definitions\[0\]\)/],
  ['both api_key and api_key_env', `  providers:
    judge: { base_url: "http://x/v1", model: m, api_key: k, api_key_env: K }
`, /evaluators\.providers\.judge: provider "judge" takes one of api_key and api_key_env, not both/],
  ['an unknown key', `  rate_per_minutes: 10
`, /rate_per_minutes/],
  ['a sample rate over 1', `  definitions:
    - { id: a, project: shop, name: A, type: custom_function, sample_rate: 1.5, settings: { source: "export default () => 1" } }
`, /sample_rate/],
  ['an unknown on_missing_output', `  definitions:
    - { id: a, project: shop, name: A, type: custom_function, on_missing_output: ignore, settings: { source: "export default () => 1" } }
`, /evaluators\.definitions\[0\]\.on_missing_output.*(skip|score)/],
  ['a misspelt on_missing_output', `  definitions:
    - { id: a, project: shop, name: A, type: custom_function, on_missing_outputs: skip, settings: { source: "export default () => 1" } }
`, /on_missing_outputs/],
  ['a version range upside down', `  definitions:
    - { id: a, project: shop, name: A, type: custom_function, template: t, versions: { min: 3, max: 2 }, settings: { source: "export default () => 1" } }
`, /versions: min \(3\) is above max \(2\)/],
];

for (const [what, section, message] of cases) {
  test(`refused: ${what}`, async () => {
    const r = await validate(section);
    assert.is(r.code, 2, r.stdout);
    assert.match(r.stderr, message);
  });
}

test.run();
