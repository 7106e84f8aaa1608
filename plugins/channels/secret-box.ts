import { SecretBox, type SecretBoxOwner } from '@vigil/plugin-sdk';
import { ChannelsErrors } from './errors.js';

const OWNER: SecretBoxOwner = { plugin: 'channels', code: ChannelsErrors.SECRET_KEY, valueOf: 'the secrets of channel' };

/** The channels' secrets (URLs, tokens, passwords, headers) sealed under the plugin's key file, bound to the channel id. */
export const openSecretBox = (keyFile: string): Promise<SecretBox> => SecretBox.open(keyFile, OWNER);

/** The key opened on first use (`SecretBox.opener`). */
export const secretBoxOpener = (keyFile: string): (() => Promise<SecretBox>) => SecretBox.opener(keyFile, OWNER);
