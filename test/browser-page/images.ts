/** Images as the web app sends and opens them: encrypted, uploaded to and downloaded from the asset store. */
import type { QualifiedId } from '@wireapp/api-client/lib/user/index.js';
import { GenericMessage } from '@wireapp/protocol-messaging';
import type { PageContext } from './context.js';
import { concat } from './crypto.js';
import type { Inbox } from './inbox.js';
import { sendProteus } from './proteus.js';

/** What the page hands the test about a downloaded image. */
export interface ShownImage {
  mimeType: string;
  width: number;
  height: number;
  sha256: string;
}

const hex = (bytes: ArrayBuffer | Uint8Array) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
/** A copy on its own ArrayBuffer, as WebCrypto takes it. */
const own = (bytes: Uint8Array) => new Uint8Array(bytes);
const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', own(bytes)));

/**
 * Draws a PNG, encrypts it as the web app does (AES-256-CBC, IV first, SHA-256 of the
 * ciphertext), uploads it (`POST /assets`, multipart) and sends the asset message over Proteus.
 */
export async function sendImage(
  ctx: PageContext,
  conversation: QualifiedId,
): Promise<{ messageId: string; sha256: string; size: number }> {
  const [width, height] = [64, 48];
  const canvas = new OffscreenCanvas(width, height);
  const g = canvas.getContext('2d')!;
  g.fillStyle = '#0667c8';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#ffffff';
  g.fillRect(8, 8, 24, 16);
  const png = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());

  const otrKey = crypto.getRandomValues(new Uint8Array(32));
  const iv = crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.importKey('raw', otrKey, 'AES-CBC', false, ['encrypt']);
  const cipher = concat(iv, new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, key, png)));
  const uploaded = (await ctx.api.api.asset.postAsset(cipher, { public: false, retention: 'expiring' } as never)
    .response) as { key: string; token?: string; domain: string };

  const messageId = crypto.randomUUID();
  await sendProteus(
    ctx,
    conversation,
    GenericMessage.create({
      messageId,
      asset: {
        original: { mimeType: 'image/png', size: png.length, image: { width, height } },
        uploaded: {
          otrKey,
          sha256: await sha256(cipher),
          assetId: uploaded.key,
          assetToken: uploaded.token,
          assetDomain: uploaded.domain,
        },
      },
    }),
  );
  return { messageId, sha256: hex(await sha256(png)), size: png.length };
}

/**
 * Opens a received image: downloads it (`GET /assets/{domain}/{key}`, redirected to the object
 * store), checks its SHA-256, decrypts it and shows it in an `<img>` from a `blob:` URL.
 */
export async function showImage(ctx: PageContext, inbox: Inbox, messageId: string): Promise<ShownImage> {
  const asset = inbox.asset(messageId);
  if (asset === undefined) throw new Error(`no asset message ${messageId}`);
  const { buffer } = await ctx.api.api.asset.getAssetV4(asset.assetId, asset.assetDomain, asset.assetToken).response;
  const cipher = new Uint8Array(buffer);
  if (hex(await sha256(cipher)) !== hex(asset.sha256)) throw new Error('the downloaded asset is not the one sent');
  const key = await crypto.subtle.importKey('raw', own(asset.otrKey), 'AES-CBC', false, ['decrypt']);
  const plain = new Uint8Array(
    await crypto.subtle.decrypt({ name: 'AES-CBC', iv: cipher.subarray(0, 16) }, key, cipher.subarray(16)),
  );
  const img = document.createElement('img');
  img.src = URL.createObjectURL(new Blob([plain], { type: asset.mimeType }));
  await img.decode();
  document.body.append(img);
  return {
    mimeType: asset.mimeType,
    width: img.naturalWidth,
    height: img.naturalHeight,
    sha256: hex(await sha256(plain)),
  };
}
