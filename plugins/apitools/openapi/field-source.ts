// Where the toolchain gets a document from field observations: the store of a `vigil run` config, read by the
// gateway's field reader. `vigil spec`, `vigil sdk` and `vigil mock` take `-config FILE` through this function.
import type { CommandIo } from '@vigil/plugin-sdk';
import type { FieldObservation } from '../../../gateway/fields/api-fields.js';
import { readFieldObservations } from '../../../gateway/fields/field-reads.js';
import type { OpenApiDocument } from './document.js';
import { inferSpec, type InferOptions } from './infer-spec.js';

/** No observations to infer from: the command says how to get some and exits 1. */
export class NoObservationsError extends Error {}

/**
 * The inferred document of the store of `vigil run -config configFile`, observations from the last `sinceMs`
 * (all when undefined). Throws the config error of an invalid file (`io.config.describe` prints it) and
 * NoObservationsError when there is nothing to infer from.
 */
export async function inferFromConfig(
  io: CommandIo, configFile: string, options: InferOptions & { sinceMs?: number } = {},
): Promise<{ document: OpenApiDocument; observations: FieldObservation[] }> {
  const opened = await io.openStore(configFile, 'capture');
  let observations: FieldObservation[];
  try {
    observations = await readFieldObservations(opened.store, options.sinceMs === undefined ? 0 : Date.now() - options.sinceMs);
  } finally {
    await opened.close();
  }
  if (!observations.some((f) => f.location === 'exchange' || f.count > 0)) {
    throw new NoObservationsError(
      `no field observations in the store of ${configFile}${options.sinceMs === undefined ? '' : ' in that period'}: ` +
      `run \`vigil run -config ${configFile}\` with capture on and send traffic through the gateway (every exchange ` +
      'records the fields of its route), then run this again',
    );
  }
  return { document: inferSpec(observations, options), observations };
}
