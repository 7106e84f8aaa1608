import { SecretBox, type SecretBoxOwner } from '@vigil/plugin-sdk';
import { FleetErrors } from './errors.js';

const OWNER: SecretBoxOwner = { plugin: 'fleet', code: FleetErrors.SECRET_KEY, valueOf: 'the token of machine' };

/** Other machines' read tokens sealed under the plugin's key file, each bound to its machine's name. */
export const openSecretBox = (keyFile: string): Promise<SecretBox> => SecretBox.open(keyFile, OWNER);

/** The key opened on first use (`SecretBox.opener`). */
export const secretBoxOpener = (keyFile: string): (() => Promise<SecretBox>) => SecretBox.opener(keyFile, OWNER);
